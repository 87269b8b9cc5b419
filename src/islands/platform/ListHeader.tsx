import { useStore } from '@nanostores/react';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { $sorting, sortingFor, type Listing, type Sorting } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { SelectAllBox } from './SelectAll.tsx';
import { DATE_WIDTH, ICON_WIDTH, LOCATION_WIDTH, SIZE_WIDTH, TEAM_DETAIL_WIDTH } from '../files/columns.ts';
import { ColumnLabel, ListHeaderRow } from '../files/ListHeaderRow.tsx';

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
    if (!sortable) return <ColumnLabel label={label} className={className} />;
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
    <ListHeaderRow>
      {multi ? (
        <>
          <span className="flex w-5 shrink-0 justify-center">{box}</span>
          <span className={`${ICON_WIDTH} shrink-0`} />
        </>
      ) : (
        <span className={`flex ${ICON_WIDTH} shrink-0 justify-center`}>{box}</span>
      )}
      {column('name', t('files.sort_name'), 'min-w-0 flex-1 justify-start')}
      {source.kind === 'trash' && column('location', t('files.original_location'), `${LOCATION_WIDTH} justify-start`)}
      {teamList ? <span className={`${TEAM_DETAIL_WIDTH} shrink-0 text-right`}>{t('teams.team')}</span> : column('size', t('files.size'), `${widths(source).size} shrink-0 justify-end`)}
      {/* In the trash the date shown (and sorted by) is when the item went there. */}
      {column('created_at', source.kind === 'trash' ? t('files.deleted') : t('files.created'), `${widths(source).date} shrink-0 justify-end`)}
    </ListHeaderRow>
  );
}

/** The size and date columns' widths in a source's list (the trash's are narrower: its location column takes room). */
export const widths = (source: Listing['source']) => (source.kind === 'trash' ? { size: SIZE_WIDTH.narrow, date: DATE_WIDTH.narrow } : { size: SIZE_WIDTH.normal, date: DATE_WIDTH.normal });
export { LOCATION_WIDTH, TEAM_DETAIL_WIDTH };
