import { Download, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { may } from '../../stores/abilities.ts';
import { formatDate, formatSize, type Item } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { ItemIcon } from '../platform/ItemIcon.tsx';
import { DATE_WIDTH, ICON_WIDTH, SIZE_WIDTH } from '../files/columns.ts';
import { describedBy, ItemRow } from '../files/ItemRow.tsx';
import { ColumnLabel, ListHeaderRow } from '../files/ListHeaderRow.tsx';

export type ScopedView = 'list' | 'grid';

interface Props {
  items: Item[];
  view: ScopedView;
  /** A folder opens in the browser, a file in the viewer. */
  onOpen: (item: Item) => void;
  onRename: (item: Item) => void;
  onRemove: (item: Item) => void;
}

/**
 * A token holder's items as a list or a grid of thumbnails. Each item's picture and name are one
 * button (Enter or a tap opens it: a folder, or a file in the viewer); download, rename and remove
 * sit beside it where the item's abilities allow them.
 */
export function ScopedItems({ items, view, onOpen, onRename, onRemove }: Props) {
  const t = useT();
  const detail = (item: Item) => (item.type === 'folder' ? t('files.n_items', { count: item.attributes.items ?? 0 }) : formatSize(item.attributes.size));
  const actions = (item: Item) => <ItemActions item={item} onRename={onRename} onRemove={onRemove} />;

  if (view === 'grid') {
    return (
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4" data-testid="shared-items" data-view="grid">
        {items.map((item) => (
          <li key={item.id} className="card flex min-w-0 flex-col overflow-hidden" data-testid="shared-item">
            <Opener item={item} onOpen={onOpen} className="flex flex-col rounded-t-card text-left">
              <span className="flex aspect-[4/3] w-full items-center justify-center overflow-hidden border-b border-border bg-surface-2">
                <Picture item={item} />
              </span>
              <span id={`shared-${item.id}-name`} className="block truncate px-3 pt-2.5 text-sm font-semibold" title={item.attributes.name}>
                {item.attributes.name}
              </span>
            </Opener>
            <div className="flex min-h-10 items-center gap-1 pr-1.5 pb-1.5 pl-3">
              <span id={`shared-${item.id}-detail`} className="min-w-0 flex-1 truncate text-xs text-muted">
                {detail(item)}
              </span>
              <span id={`shared-${item.id}-date`} hidden>
                {formatDate(item.attributes.created_at)}
              </span>
              {actions(item)}
            </div>
          </li>
        ))}
      </ul>
    );
  }
  // The buttons beside each row take the same room in every row, so the columns line up under the header.
  const buttons = Math.max(0, ...items.map(actionCount));
  const trailing = buttons ? { width: `${buttons * 2 + (buttons - 1) * 0.25}rem` } : null;
  return (
    <div>
      <ListHeaderRow>
        <span className={`ml-1.5 ${ICON_WIDTH} shrink-0`} />
        <ColumnLabel label={t('files.sort_name')} className="min-w-0 flex-1 justify-start" />
        <ColumnLabel label={t('files.size')} className={`${SIZE_WIDTH.normal} shrink-0 justify-end`} />
        <ColumnLabel label={t('files.created')} className={`${DATE_WIDTH.normal} shrink-0 justify-end`} />
        {trailing && <span className="shrink-0" style={trailing} />}
      </ListHeaderRow>
      <ul className="card divide-y divide-border" data-testid="shared-items" data-view="list">
        {items.map((item) => (
          <li key={item.id} data-testid="shared-item">
            <ItemRow
              item={item}
              prefix="shared"
              detail={detail(item)}
              date={formatDate(item.attributes.created_at)}
              label={(content) => (
                <Opener item={item} onOpen={onOpen} className="flex min-w-0 flex-1 items-center gap-3 rounded-control px-1.5 py-1 text-left">
                  {content}
                </Opener>
              )}
              trailing={
                trailing && (
                  <span className="flex shrink-0 justify-end gap-1" style={trailing}>
                    {actions(item)}
                  </span>
                )
              }
              className="px-2 py-1.5 sm:px-3"
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What opens an item: a button where it can be opened (folders, files whose bytes are served), else plain. */
function Opener({ item, onOpen, className, children }: { item: Item; onOpen: (item: Item) => void; className: string; children: ReactNode }) {
  const opens = item.type === 'folder' || !!item.attributes.file_url;
  if (!opens) return <div className={className}>{children}</div>;
  return (
    <button
      type="button"
      data-open-id={item.id}
      aria-labelledby={`shared-${item.id}-name`}
      aria-describedby={describedBy('shared', item)}
      onClick={() => onOpen(item)}
      className={`${className} transition-colors hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring`}
    >
      {children}
    </button>
  );
}

/** A grid card's picture: the thumbnail, sharp on dense screens, else the item's icon. */
function Picture({ item }: { item: Item }) {
  const thumbnail = item.type === 'file' ? item.attributes.thumbnail : null;
  if (!thumbnail) return <ItemIcon item={item} size="lg" />;
  return (
    <img
      src={thumbnail.sm}
      srcSet={`${thumbnail.sm} 256w, ${thumbnail.md} 640w`}
      sizes="(min-width: 768px) 210px, (min-width: 640px) 30vw, 50vw"
      alt=""
      loading="lazy"
      decoding="async"
      className="size-full object-cover"
      data-testid="shared-thumbnail"
    />
  );
}

/** An item's buttons and when its abilities offer them: the server decides, as for the file area's actions. */
const BUTTONS = {
  download: (item: Item) => !!item.attributes.file_url && may(item, 'download'),
  rename: (item: Item) => may(item, 'rename'),
  remove: (item: Item) => may(item, 'delete'),
} as const;
const actionCount = (item: Item) => Object.values(BUTTONS).filter((offered) => offered(item)).length;

function ItemActions({ item, onRename, onRemove }: { item: Item; onRename: (item: Item) => void; onRemove: (item: Item) => void }) {
  const t = useT();
  const name = item.attributes.name;
  const button = 'inline-flex size-8 shrink-0 items-center justify-center rounded-control text-muted hover:bg-surface-2 hover:text-text';
  return (
    <>
      {BUTTONS.download(item) && (
        <a className={button} href={`${item.attributes.file_url}?download=1`} target="_self" download={name} aria-label={`${t('sharing.download')} ${name}`} title={t('sharing.download')}>
          <Download className="size-4" aria-hidden />
        </a>
      )}
      {BUTTONS.rename(item) && (
        <button type="button" className={button} aria-label={`${t('sharing.rename')} ${name}`} title={t('sharing.rename')} onClick={() => onRename(item)}>
          <Pencil className="size-4" aria-hidden />
        </button>
      )}
      {BUTTONS.remove(item) && (
        <button type="button" className={button} aria-label={`${t('sharing.remove')} ${name}`} title={t('sharing.remove')} onClick={() => onRemove(item)}>
          <Trash2 className="size-4" aria-hidden />
        </button>
      )}
    </>
  );
}
