import { useStore } from '@nanostores/react';
import { X } from 'lucide-react';
import { fileKind, formatOf } from '../../components/fileKinds.ts';
import { $infoPanel, formatDate, formatSize, originalLocationText, type Item } from '../../stores/files.ts';
import { $tree, pathTo } from '../../stores/tree.ts';
import { useT } from '../../stores/i18n.ts';
import { ItemIcon } from './ItemIcon.tsx';

/** The file-info sidebar: the selected item, else the open folder; its visibility is remembered. */
export function InfoPanel({ selected, root }: { selected: Item[]; root: Item | null }) {
  const t = useT();
  const tree = useStore($tree);
  const item = selected.length === 1 ? selected[0]! : selected.length === 0 ? root : null;
  const kindLabel = (file: Item) => {
    const kind = fileKind(file.attributes.mimetype, file.attributes.name);
    const format = formatOf(file.attributes.mimetype, file.attributes.name);
    return kind === 'other' && !format ? t('files.file') : t(`kinds.${kind}`, { format });
  };
  const location = (parentId: string | null) => [t('locations.home'), ...(parentId ? pathTo(tree ?? [], parentId).map((n) => n.name) : [])].join(' / ');
  return (
    <aside aria-label={t('files.info_panel')} className="card sticky top-6 flex flex-col gap-5 p-5" data-testid="info-panel">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold tracking-wide text-muted uppercase">{t('files.info_panel')}</h2>
        <button type="button" className="rounded-md p-1 text-muted hover:bg-surface-2 hover:text-text" aria-label={t('app.dismiss')} onClick={() => $infoPanel.set(false)}>
          <X className="size-4" aria-hidden />
        </button>
      </div>
      {selected.length > 1 && <p className="text-[15px] font-semibold">{t('files.n_selected', { count: selected.length })}</p>}
      {!item && selected.length === 0 && <p className="text-sm text-muted">{t('files.info_empty')}</p>}
      {item && (
        <>
          <div className="flex items-center gap-3">
            <ItemIcon item={item} size="lg" />
            <p className="min-w-0 text-[15px] font-semibold break-words">{item.attributes.name}</p>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2.5 text-sm">
            <dt className="text-muted">{t('files.kind')}</dt>
            <dd className="truncate" title={item.attributes.mimetype ?? undefined}>
              {item.type === 'folder' ? t('files.folder') : kindLabel(item)}
            </dd>
            {!item.attributes.deleted_at && (
              <>
                <dt className="text-muted">{t('files.location')}</dt>
                <dd className="break-words">{location(item.attributes.parent_id)}</dd>
                <dt className="text-muted">{t('files.sharing')}</dt>
                <dd>{item.relationships.shared ? t('sharing.shared_by_link') : t('sharing.not_shared')}</dd>
              </>
            )}
            {item.type === 'folder' ? (
              <>
                <dt className="text-muted">{t('files.contains')}</dt>
                <dd>{t('files.items_count', { count: item.attributes.items ?? 0 })}</dd>
              </>
            ) : (
              <>
                <dt className="text-muted">{t('files.size')}</dt>
                <dd>{formatSize(item.attributes.size)}</dd>
              </>
            )}
            <dt className="text-muted">{t('files.created')}</dt>
            <dd>{formatDate(item.attributes.created_at)}</dd>
            <dt className="text-muted">{t('files.modified')}</dt>
            <dd>{formatDate(item.attributes.updated_at)}</dd>
            {item.attributes.deleted_at && (
              <>
                <dt className="text-muted">{t('files.trashed')}</dt>
                <dd>{formatDate(item.attributes.deleted_at)}</dd>
              </>
            )}
            {item.attributes.original_location && <OriginalLocation item={item} />}
          </dl>
        </>
      )}
    </aside>
  );
}

/**
 * Where a trashed item was: a link to that folder while it is live (restore puts the item back
 * there), else the path and what restoring does instead.
 */
function OriginalLocation({ item }: { item: Item }) {
  const t = useT();
  const where = item.attributes.original_location!;
  const text = originalLocationText(t, item)!;
  const folder = where.path.at(-1);
  return (
    <>
      <dt className="text-muted">{t('files.original_location')}</dt>
      <dd className="break-words" data-testid="original-location">
        {where.in_trash ? (
          <>
            {text}
            <span className="mt-1 block text-xs text-muted">{t('files.restores_home', { home: t('locations.home') })}</span>
          </>
        ) : (
          <a className="link" href={folder ? `/platform/files/${folder.id}` : '/platform/files'}>
            {text}
          </a>
        )}
      </dd>
    </>
  );
}
