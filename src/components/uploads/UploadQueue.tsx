import { useStore } from '@nanostores/react';
import type Uppy from '@uppy/core';
import { useUppyState } from '@uppy/react';
import { ChevronDown, ChevronUp, CircleAlert, CircleCheck, LoaderCircle, RotateCcw, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { formatSize } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { bottomPanel } from '../../stores/ui.ts';
import { $finished, $uploaders, cancelAllUploads, cancelUpload, dismissUpload, retryUpload, type UploadMeta } from '../../stores/uploads.ts';
import { queueEntries, queueProgress, type UploadEntry } from './queueEntries.ts';

/** The upload panel: one progress figure, the queue with cancel and retry, and the errors. */
export function UploadQueue() {
  const uploaders = useStore($uploaders);
  return uploaders ? <Queue small={uploaders.small} large={uploaders.large} /> : null;
}

/** Reads the files and their progress from Uppy's own state (small files over XHR, large over tus). */
function Queue({ small, large }: { small: Uppy<UploadMeta>; large: Uppy<UploadMeta> }) {
  const t = useT();
  const smallFiles = useUppyState(small, (state) => state.files);
  const largeFiles = useUppyState(large, (state) => state.files);
  const finished = useStore($finished);
  const entries = useMemo(() => queueEntries([smallFiles, largeFiles], finished), [smallFiles, largeFiles, finished]);
  const progress = queueProgress(entries);
  const [open, setOpen] = useState(false);
  if (!entries.length) return null;
  const active = entries.filter((e) => e.status === 'queued' || e.status === 'uploading' || e.status === 'processing');
  const failed = entries.filter((e) => e.status === 'error');
  const processing = active.length > 0 && active.every((e) => e.status === 'processing');
  const title = active.length
    ? processing
      ? t('uploads.processing')
      : t('uploads.uploading', { count: active.length })
    : failed.length
      ? t('uploads.failed', { count: failed.length })
      : t('uploads.done');
  return (
    <section ref={bottomPanel('upload-queue')} aria-label={t('uploads.panel')} data-testid="upload-queue" className="card fixed right-4 bottom-4 z-40 w-[360px] max-w-[calc(100vw-2rem)] overflow-hidden shadow-xl sm:right-6 sm:bottom-6">
      <div className="flex items-center gap-3 px-4 py-3">
        {active.length ? <LoaderCircle className="size-5 shrink-0 animate-spin text-brand" aria-hidden /> : failed.length ? <CircleAlert className="size-5 shrink-0 text-danger" aria-hidden /> : <CircleCheck className="size-5 shrink-0 text-success" aria-hidden />}
        <p className="flex-1 text-sm font-semibold" role="status">
          {title}
          {progress !== null && !processing && <span className="ml-2 text-muted tabular-nums" data-testid="upload-progress">{progress}%</span>}
        </p>
        <button type="button" className="rounded-md p-1 text-muted hover:bg-surface-2 hover:text-text" onClick={() => setOpen(!open)} aria-expanded={open} aria-label={t('uploads.details')}>
          {open ? <ChevronDown className="size-4" aria-hidden /> : <ChevronUp className="size-4" aria-hidden />}
        </button>
        {active.length > 0 && (
          <button type="button" className="rounded-md px-2 py-1 text-xs font-semibold text-danger hover:bg-danger/10" onClick={cancelAllUploads}>
            {t('uploads.cancel_all')}
          </button>
        )}
      </div>
      {progress !== null && (
        <div className="h-1 bg-surface-2" aria-hidden>
          <div className="h-full bg-brand transition-[width] duration-300" style={{ width: `${progress}%` }} />
        </div>
      )}
      {(open || failed.length > 0) && (
        <ul className="max-h-64 divide-y divide-border overflow-y-auto border-t border-border text-sm">
          {(open ? entries : failed).map((entry) => (
            <Row key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Row({ entry }: { entry: UploadEntry }) {
  const t = useT();
  const pct = entry.size ? Math.min(100, Math.floor((entry.bytes / entry.size) * 100)) : 0;
  const status = {
    queued: t('uploads.queued'),
    uploading: `${pct}%`,
    processing: t('uploads.processing'),
    done: t('uploads.finished'),
    error: entry.error ?? '',
    cancelled: t('uploads.cancelled'),
  }[entry.status];
  return (
    <li className="flex items-center gap-3 px-4 py-2.5" data-testid="upload-row">
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">{entry.path ? `${entry.path}/${entry.name}` : entry.name}</p>
        <p className={`truncate text-xs ${entry.status === 'error' ? 'text-danger' : 'text-muted'}`}>
          {formatSize(entry.size)} · {status}
        </p>
      </div>
      {entry.status === 'error' && (
        <button type="button" className="rounded-md p-1 text-muted hover:bg-surface-2 hover:text-text" onClick={() => retryUpload(entry.id)} aria-label={t('uploads.retry_named', { name: entry.name })}>
          <RotateCcw className="size-4" aria-hidden />
        </button>
      )}
      {(entry.status === 'queued' || entry.status === 'uploading') && (
        <button type="button" className="rounded-md p-1 text-muted hover:bg-surface-2 hover:text-text" onClick={() => cancelUpload(entry.id)} aria-label={t('uploads.cancel_named', { name: entry.name })}>
          <X className="size-4" aria-hidden />
        </button>
      )}
      {(entry.status === 'error' || entry.status === 'cancelled') && (
        <button type="button" className="rounded-md p-1 text-muted hover:bg-surface-2 hover:text-text" onClick={() => dismissUpload(entry.id)} aria-label={t('uploads.dismiss_named', { name: entry.name })}>
          <X className="size-4" aria-hidden />
        </button>
      )}
    </li>
  );
}
