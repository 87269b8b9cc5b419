import { useStore } from '@nanostores/react';
import { Download, FolderOpen, FolderPlus, LayoutGrid, List, Upload } from 'lucide-react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FullPageSpinner } from '../../components/Spinner.tsx';
import { may } from '../../stores/abilities.ts';
import type { Item } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { $scopedView, $sharedItems, type ScopedApi } from '../../stores/shareBrowser.ts';
import { FileViewer } from '../platform/FileViewer.tsx';
import { ScopedItems } from './ScopedItems.tsx';
import { EmptyState } from '../files/EmptyState.tsx';

/**
 * A token holder's folder browser (a share link's or an upload request's): the items as a list or
 * a grid of thumbnails, files opening in the file area's viewer. Upload, new folder, rename, remove
 * and download are offered where the server's abilities (the open folder's, each item's) allow them.
 */
export function ScopedFolder({ api, uploadPrimary, onError, children }: {
  api: ScopedApi;
  /** Upload is what the page is for (an upload request): it leads, in the primary style. */
  uploadPrimary?: boolean;
  onError: (m: string | null) => void;
  /** Page actions, after the folder's own. */
  children?: ReactNode;
}) {
  const t = useT();
  const listing = useStore($sharedItems);
  const [naming, setNaming] = useState<{ kind: 'create' } | { kind: 'rename'; item: Item } | null>(null);
  const [name, setName] = useState('');
  /** The file going up now, how far (0-100), and how many are left after it. */
  const [progress, setProgress] = useState<{ name: string; percent: number; left: number } | null>(null);
  const [viewing, setViewing] = useState<Item | null>(null);
  /** The last file the viewer showed: focus goes back to it when the viewer closes. */
  const shown = useRef<string | null>(null);
  const chosenView = useStore($scopedView);
  if (!listing) return <FullPageSpinner label={t('app.loading')} />;
  const { items, root, folderId } = listing;
  const viewable = items.filter((i) => i.type === 'file' && i.attributes.file_url);
  // Until the visitor picks one, pictures show as a grid and everything else as a list.
  const view = chosenView ?? (items.some((i) => i.attributes.thumbnail) ? 'grid' : 'list');

  const run = async (work: () => Promise<void>) => {
    onError(null);
    try {
      await work();
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  const open = (id: string | null) => {
    history.pushState(null, '', api.pathOf(id));
    void run(() => api.open(id));
  };
  const submitName = (event: FormEvent) => {
    event.preventDefault();
    const current = naming;
    setNaming(null);
    if (current?.kind === 'create') void run(() => api.createFolder(name, folderId));
    else if (current?.kind === 'rename') void run(() => api.rename(current.item, name));
  };

  return (
    <section>
      <header className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          {root?.attributes.parent_id && (
            <button type="button" className="btn-secondary" onClick={() => open(root.attributes.parent_id)} aria-label={t('sharing.back')}>
              ←
            </button>
          )}
          <h1 className="truncate text-2xl font-bold tracking-tight">{root?.attributes.name}</h1>
        </div>
        <div className="flex flex-wrap gap-2">
          {may(root, 'upload') && (
            <label className={`${uploadPrimary ? 'btn-primary' : 'btn-secondary'} cursor-pointer focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand`}>
              <Upload className="size-4" aria-hidden /> {t('sharing.upload')}
              <input type="file" multiple className="sr-only" onChange={(e) => {
                const files = [...(e.currentTarget.files ?? [])];
                e.currentTarget.value = '';
                void run(async () => {
                  try {
                    for (const [n, file] of files.entries()) {
                      setProgress({ name: file.name, percent: 0, left: files.length - n });
                      await api.upload(file, folderId, (sent, total) => setProgress({ name: file.name, percent: Math.min(100, Math.floor((sent / Math.max(total, 1)) * 100)), left: files.length - n }));
                    }
                  } finally {
                    setProgress(null);
                  }
                });
              }} />
            </label>
          )}
          {may(root, 'create_folder') && (
            <button type="button" className="btn-secondary" onClick={() => { setName(''); setNaming({ kind: 'create' }); }}>
              <FolderPlus className="size-4" aria-hidden /> {t('sharing.new_folder')}
            </button>
          )}
          {items.length > 0 && (
            <div className="flex rounded-control border border-border bg-surface p-0.5" role="group" aria-label={t('sharing.view')}>
              {(['list', 'grid'] as const).map((choice) => {
                const Icon = choice === 'list' ? List : LayoutGrid;
                return (
                  <button
                    key={choice}
                    type="button"
                    aria-pressed={view === choice}
                    aria-label={t(choice === 'list' ? 'files.view_list' : 'files.view_grid')}
                    title={t(choice === 'list' ? 'files.view_list' : 'files.view_grid')}
                    onClick={() => $scopedView.set(choice)}
                    className={`inline-flex w-9 items-center justify-center rounded-[calc(var(--radius-control)-2px)] ${view === choice ? 'bg-brand-soft text-brand' : 'text-muted hover:text-text'}`}
                  >
                    <Icon className="size-4" aria-hidden />
                  </button>
                );
              })}
            </div>
          )}
          {items.length > 0 && api.zipUrl && may(root, 'download') && (
            <a className="btn-primary" href={api.zipUrl(root ? [root] : items)} target="_self" download={`${root?.attributes.name ?? 'download'}.zip`}>
              <Download className="size-4" aria-hidden /> {t('sharing.download_all')}
            </a>
          )}
          {children}
        </div>
      </header>
      {progress && (
        <div className="card mb-4 p-4" data-testid="scoped-upload-progress">
          <p className="flex justify-between gap-3 text-sm">
            <span className="truncate font-medium">{progress.left > 1 ? t('uploads.uploading', { count: progress.left }) : t('uploads.uploading_one')}: {progress.name}</span>
            <span className="shrink-0 tabular-nums text-muted">{progress.percent}%</span>
          </p>
          <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-2" role="progressbar" aria-label={progress.name} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress.percent}>
            <div className="h-full bg-brand transition-[width] duration-300" style={{ width: `${progress.percent}%` }} />
          </div>
        </div>
      )}
      {naming && (
        <form onSubmit={submitName} className="card mb-4 flex flex-wrap items-end gap-2 p-4">
          <label className="flex-1 text-sm font-semibold">
            {naming.kind === 'create' ? t('sharing.folder_name') : t('sharing.new_name')}
            <input className="input mt-1.5 w-full" value={name} onChange={(e) => setName(e.target.value)} autoFocus required />
          </label>
          <button type="button" className="btn-secondary" onClick={() => setNaming(null)}>
            {t('actions.cancel')}
          </button>
          <button type="submit" className="btn-primary">
            {t('actions.save')}
          </button>
        </form>
      )}
      {items.length === 0 ? (
        <EmptyState icon={<FolderOpen className="size-7" aria-hidden />} title={t('sharing.empty')} />
      ) : (
        <ScopedItems
          items={items}
          view={view}
          onOpen={(item) => (item.type === 'folder' ? open(item.id) : setViewing(item))}
          onRename={(item) => {
            setName(item.attributes.name);
            setNaming({ kind: 'rename', item });
          }}
          onRemove={(item) => void run(() => api.remove(item))}
        />
      )}
      {viewing && (
        <FileViewer
          item={viewing}
          files={viewable}
          download={viewing.attributes.file_url && may(viewing, 'download') ? `${viewing.attributes.file_url}?download=1` : null}
          onShow={setViewing}
          onClose={() => {
            shown.current = viewing.id;
            setViewing(null);
          }}
          onClosed={() => document.querySelector<HTMLElement>(`[data-open-id="${CSS.escape(shown.current ?? '')}"]`)?.focus()}
        />
      )}
    </section>
  );
}
