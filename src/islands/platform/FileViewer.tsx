import { ChevronLeft, ChevronRight, Download, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { startDownload } from '../../components/download.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { ItemIcon } from './ItemIcon.tsx';
import { formatSize, type Item } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';

const TEXT_PREVIEW_BYTES = 256 * 1024;
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'none';

export function previewKind(mimetype: string | null): PreviewKind {
  const type = (mimetype ?? '').toLowerCase();
  if (/^image\/(png|jpeg|gif|webp|avif|bmp)$/.test(type)) return 'image';
  if (/^video\/(mp4|webm|ogg|quicktime)$/.test(type)) return 'video';
  if (/^audio\/(mpeg|mp4|ogg|wav|webm|flac|aac|x-wav)$/.test(type)) return 'audio';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('text/') || type === 'application/json') return 'text';
  return 'none';
}

/**
 * The file viewer of the file area and the public share pages: images, video, audio, PDF and text,
 * with previous/next through `files` (arrow keys too) and a download button. Whoever opens it says
 * where the bytes come from (the item's `file_url`), where the download goes, and what happens on
 * moving and closing.
 */
export function FileViewer({ item, files, download, onShow, onClose, onClosed }: {
  item: Item;
  /** The files previous/next go through, `item` among them. */
  files: Item[];
  /** The download address, or null where downloads are not offered. */
  download: string | null;
  onShow: (item: Item) => void;
  onClose: () => void;
  /** Called once the viewer is gone, to put focus back where it belongs. */
  onClosed: () => void;
}) {
  const t = useT();
  const index = files.findIndex((f) => f.id === item.id);
  const go = (step: number) => {
    const next = files[(index + step + files.length) % files.length];
    if (next && next.id !== item.id) onShow(next);
  };
  const url = item.attributes.file_url;

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/90 backdrop-blur-sm" />
        <Dialog.Content
          className="fixed inset-0 z-50 flex flex-col text-white outline-none"
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') go(1);
            if (e.key === 'ArrowLeft') go(-1);
          }}
          aria-describedby={undefined}
          data-testid="file-viewer"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            onClosed();
          }}
        >
          <header className="flex items-center gap-3 px-4 py-3 sm:px-6">
            <ItemIcon item={item} size="sm" />
            <div className="min-w-0 flex-1">
              <Dialog.Title className="truncate text-[15px] font-semibold">{item.attributes.name}</Dialog.Title>
              <p className="text-xs text-white/70">
                {formatSize(item.attributes.size)}
                {files.length > 1 && index >= 0 && ` · ${t('preview.position', { index: index + 1, count: files.length })}`}
              </p>
            </div>
            {download && (
              <button type="button" onClick={() => startDownload(download)} className="inline-flex items-center gap-2 rounded-control px-3 py-2 text-sm font-semibold hover:bg-white/10">
                <Download className="size-4" aria-hidden />
                <span className="hidden sm:inline">{t('actions.download')}</span>
                <span className="sr-only sm:hidden">{t('actions.download')}</span>
              </button>
            )}
            <Dialog.Close asChild>
              <button type="button" className="rounded-control p-2 hover:bg-white/10" aria-label={t('actions.close')}>
                <X className="size-5" aria-hidden />
              </button>
            </Dialog.Close>
          </header>
          <div className="relative flex min-h-0 flex-1 items-center justify-center px-4 pb-6 sm:px-16">
            {files.length > 1 && (
              <>
                <NavButton side="left" label={t('actions.previous')} onClick={() => go(-1)} />
                <NavButton side="right" label={t('actions.next')} onClick={() => go(1)} />
              </>
            )}
            {url ? <Body key={item.id} item={item} url={url} /> : <NoPreview />}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function NavButton({ side, label, onClick }: { side: 'left' | 'right'; label: string; onClick: () => void }) {
  const Icon = side === 'left' ? ChevronLeft : ChevronRight;
  return (
    <button type="button" onClick={onClick} aria-label={label} className={`absolute top-1/2 z-10 -translate-y-1/2 rounded-full bg-black/50 p-2.5 hover:bg-black/75 ${side === 'left' ? 'left-2 sm:left-4' : 'right-2 sm:right-4'}`}>
      <Icon className="size-6" aria-hidden />
    </button>
  );
}

function NoPreview() {
  const t = useT();
  return <p className="rounded-card bg-white/10 px-6 py-5 text-[15px]">{t('preview.no_preview')}</p>;
}

function Body({ item, url }: { item: Item; url: string }) {
  const kind = previewKind(item.attributes.mimetype);
  const name = item.attributes.name;
  if (kind === 'image') return <img src={url} alt={name} className="max-h-full max-w-full rounded-lg object-contain shadow-2xl" data-testid="preview-image" />;
  if (kind === 'video') return <video src={url} controls className="max-h-full max-w-full rounded-lg" data-testid="preview-video" />;
  if (kind === 'audio') return <audio src={url} controls className="w-full max-w-lg" data-testid="preview-audio" />;
  if (kind === 'pdf') return <iframe src={url} title={name} className="h-full w-full max-w-4xl rounded-lg bg-white" data-testid="preview-pdf" />;
  if (kind === 'text') return <TextPreview url={url} size={item.attributes.size} />;
  return <NoPreview />;
}

/** The first 256 KB of a text file, fetched with a Range request and shown as plain text. */
function TextPreview({ url, size }: { url: string; size: number }) {
  const t = useT();
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch(url, { headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, signal: controller.signal, credentials: 'same-origin' })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        setText(await res.text());
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setFailed(error instanceof Error);
      });
    return () => controller.abort();
  }, [url]);
  if (failed) return <p className="rounded-card bg-white/10 px-6 py-5">{t('preview.failed')}</p>;
  if (text === null) return <Spinner label={t('preview.loading')} />;
  return (
    <div className="flex h-full w-full max-w-4xl flex-col gap-2">
      <pre className="min-h-0 flex-1 overflow-auto rounded-lg bg-surface p-5 font-mono text-sm whitespace-pre-wrap text-text" data-testid="preview-text">
        {text}
      </pre>
      {size > TEXT_PREVIEW_BYTES && <p className="text-xs text-white/70">{t('preview.truncated', { size: formatSize(TEXT_PREVIEW_BYTES) })}</p>}
    </div>
  );
}
