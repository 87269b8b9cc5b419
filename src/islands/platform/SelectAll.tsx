import { useStore } from '@nanostores/react';
import { X } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { $selection, clearSelection, selectAll, type Listing } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';

/** How much of the listing's loaded items the selection holds. */
function coverage(listing: Listing, selection: string[]): 'none' | 'some' | 'all' {
  const chosen = new Set(selection);
  const count = listing.items.reduce((n, item) => n + Number(chosen.has(item.id)), 0);
  return count === 0 ? 'none' : count === listing.items.length ? 'all' : 'some';
}

/**
 * The select-all checkbox (the list's header, the toolbar in grid view; `className` gives its
 * display and size): checked when every loaded
 * item is selected, mixed when some are; a click selects them all, or clears a full selection. A
 * native checkbox, so it takes Tab and Space and announces its mixed state.
 */
export function SelectAllBox({ listing, className }: { listing: Listing; className: string }) {
  const t = useT();
  const selection = useStore($selection);
  const state = coverage(listing, selection);
  const box = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (box.current) box.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <label className={`shrink-0 cursor-pointer items-center justify-center rounded-control hover:bg-surface-2 ${className}`} title={t('files.select_all')}>
      <input
        ref={box}
        type="checkbox"
        aria-label={t('files.select_all')}
        data-testid="select-all"
        className="size-4 cursor-pointer rounded accent-[var(--brand)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        checked={state === 'all'}
        disabled={listing.items.length === 0}
        onChange={() => (state === 'all' ? clearSelection() : selectAll())}
      />
    </label>
  );
}

/** "N selected" and the button that clears the selection, shown on the toolbar while anything is selected. */
export function SelectionCount({ count }: { count: number }) {
  const t = useT();
  return (
    <span className="mr-1 flex shrink-0 items-center gap-0.5 rounded-full bg-brand-soft py-0.5 pr-0.5 pl-3 text-sm font-semibold whitespace-nowrap text-brand" data-testid="selection-count">
      {t('files.selected_count', { count })}
      <button type="button" onClick={clearSelection} aria-label={t('files.clear_selection')} title={t('files.clear_selection')} className="flex size-7 items-center justify-center rounded-full hover:bg-brand/15">
        <X className="size-4" aria-hidden />
      </button>
    </span>
  );
}
