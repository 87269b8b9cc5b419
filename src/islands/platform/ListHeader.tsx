import { useStore } from '@nanostores/react';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { $sorting, sortingFor, type Listing, type Sorting } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { SelectAllBox } from './SelectAll.tsx';

/** Column labels over the list, after the select-all box; in a folder or the trash they also sort. */
export function ListHeader({ listing, multi }: { listing: Listing; multi: boolean }) {
  const t = useT();
  const { source } = listing;
  const sorting = sortingFor(source, useStore($sorting));
  // The lists of team folders come by name, a page at a time: nothing to sort by here.
  const teamList = (source.kind === 'team' || source.kind === 'shared') && source.id === null;
  const sortable = source.kind !== 'latest' && !teamList;
  const column = (field: Sorting['field'], label: string, className: string) => {
    const active = sortable && sorting.field === field;
    const Arrow = sorting.direction === 'asc' ? ArrowUp : ArrowDown;
    if (!sortable) return <span className={`${className} flex`}>{label}</span>;
    return (
      <button
        type="button"
        // A pointer shortcut: from the keyboard the toolbar's Sort by menu sorts, and Tab goes straight on to the list.
        tabIndex={-1}
        className={`${className} inline-flex items-center gap-1 hover:text-text ${active ? 'text-text' : ''}`}
        onClick={() => $sorting.set({ field, direction: active && sorting.direction === 'asc' ? 'desc' : active ? 'asc' : field === 'name' || field === 'location' ? 'asc' : 'desc' })}
        aria-label={`${t('files.sort')}: ${label}`}
      >
        <span className="truncate">{label}</span>
        {active && <Arrow className="size-3.5 shrink-0" aria-hidden />}
      </button>
    );
  };
  // The box sits over the rows' checkboxes in select mode, else over their icons.
  const box = <SelectAllBox listing={listing} className="-my-1 flex size-7" />;
  return (
    <div className="mb-1 hidden items-center gap-3 border-b border-border px-3 pb-2 text-xs font-semibold tracking-wide text-muted uppercase sm:flex" data-testid="list-header">
      {multi ? (
        <>
          <span className="flex w-5 shrink-0 justify-center">{box}</span>
          <span className="w-9 shrink-0" />
        </>
      ) : (
        <span className="flex w-9 shrink-0 justify-center">{box}</span>
      )}
      {column('name', t('files.sort_name'), 'min-w-0 flex-1 justify-start')}
      {source.kind === 'trash' && column('location', t('files.original_location'), `${LOCATION_WIDTH} justify-start`)}
      {teamList ? <span className={`${TEAM_DETAIL_WIDTH} shrink-0 text-right`}>{t('teams.team')}</span> : column('size', t('files.size'), `${widths(source).size} shrink-0 justify-end`)}
      {/* In the trash the date shown (and sorted by) is when the item went there. */}
      {column('created_at', source.kind === 'trash' ? t('files.deleted') : t('files.created'), `${widths(source).date} shrink-0 justify-end`)}
    </div>
  );
}

/**
 * The columns' widths, the same in the header and the rows (both span the list). The trash's
 * location takes a share of the row, and its size and date columns are narrower to leave the
 * name room.
 */
export const LOCATION_WIDTH = 'w-[26%] min-w-0 shrink-0';
export const TEAM_DETAIL_WIDTH = 'w-72';
export const widths = (source: Listing['source']) => (source.kind === 'trash' ? { size: 'w-20', date: 'w-28' } : { size: 'w-28', date: 'w-32' });
