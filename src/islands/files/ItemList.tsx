import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Item } from '../../stores/files.ts';

const ROW_HEIGHT = 60;
const CARD_HEIGHT = 176;
const CARD_MIN_WIDTH = 156;

/**
 * Where a list of items lives and what it does: the place hands the list its items, selection and
 * commands (the owner's file area through its stores and API; another place through its own), and
 * the list knows nothing of where they come from.
 */
export interface ListPlace {
  /** The items loaded so far, in order. */
  items: Item[];
  view: 'list' | 'grid';
  selection: string[];
  /** The next page's cursor; null when the last item is loaded. */
  nextCursor: string | null;
  loadMore: () => void;
  select: (id: string, mode: 'single' | 'toggle' | 'range') => void;
  selectAll: () => void;
  clearSelection: () => void;
  /** Enter on an item: a folder opens, a file is previewed. */
  open: (item: Item) => void;
  /** The keyboard's commands on the selection: Delete (and Ctrl/Cmd+Backspace), F2. */
  command: (command: 'delete' | 'rename') => void;
  /** Opens an item's own menu from the keyboard (Shift+F10, the menu key), at its element. */
  openMenu: (item: Item, element: HTMLElement) => void;
}

export interface EntryState {
  selected: boolean;
  /** The list's active item (aria-activedescendant): drawn with the focus ring while the list has focus. */
  focused: boolean;
  onFocus: () => void;
}

/**
 * A place's items as a list or a grid, one listbox: arrows, Home and End move the active item
 * (with Shift the selection grows), Enter opens, Delete and F2 run the place's commands, Shift+F10
 * opens the item's menu, Escape clears and Ctrl/Cmd+A selects all. Only the rows on screen are
 * rendered (window virtualisation), and the next page is asked for as the end comes near, so a
 * folder of 10,000 items opens as fast as one of ten. `renderItem` draws an item (ItemRow or a tile).
 */
export function ItemList({ place, label, header, renderItem }: { place: ListPlace; label: string; header?: ReactNode; renderItem: (item: Item, state: EntryState) => ReactNode }) {
  const { items, view, selection } = place;
  const container = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [offset, setOffset] = useState(0);
  const [focused, setFocused] = useState<string | null>(null);
  const selected = new Set(selection);
  // The active item may have left the listing (trashed, moved): the list then starts again at the top.
  const active = focused && items.some((i) => i.id === focused) ? focused : null;

  useLayoutEffect(() => {
    const el = container.current;
    if (!el) return;
    const measure = () => {
      setWidth(el.clientWidth);
      setOffset(el.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const columns = view === 'grid' ? Math.max(2, Math.floor((width + 12) / (CARD_MIN_WIDTH + 12))) : 1;
  const rows = Math.ceil(items.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => (view === 'grid' ? CARD_HEIGHT + 12 : ROW_HEIGHT),
    overscan: 8,
    scrollMargin: offset,
  });
  const virtualRows = virtualizer.getVirtualItems();

  useEffect(() => {
    virtualizer.measure();
  }, [view, columns, virtualizer]);

  const lastRow = virtualRows.at(-1)?.index ?? 0;
  const loadMore = useRef(place.loadMore);
  loadMore.current = place.loadMore;
  const { nextCursor } = place;
  useEffect(() => {
    if (nextCursor && lastRow >= rows - 10) loadMore.current();
  }, [lastRow, rows, nextCursor]);

  const focusIndex = (index: number, extend: boolean) => {
    const item = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!item) return;
    setFocused(item.id);
    place.select(item.id, extend ? 'range' : 'single');
    virtualizer.scrollToIndex(Math.floor(items.indexOf(item) / columns), { align: 'auto' });
  };

  // A closing dialog gives focus back to the item it was about (see restoreFocus in the dialog store).
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const activate = (event: Event) => {
      const id = (event as CustomEvent<string>).detail;
      const index = items.findIndex((i) => i.id === id);
      if (index === -1) return;
      setFocused(id);
      virtualizer.scrollToIndex(Math.floor(index / columns), { align: 'auto' });
    };
    el.addEventListener('activate-item', activate);
    return () => el.removeEventListener('activate-item', activate);
  }, [items, columns, virtualizer]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys pressed in an item's context menu bubble here through its portal: they are the menu's.
    if (event.target !== event.currentTarget) return;
    const current = active ? items.findIndex((i) => i.id === active) : -1;
    const step = { ArrowDown: columns, ArrowUp: -columns, ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (step !== undefined && (view === 'grid' || Math.abs(step) === columns)) {
      event.preventDefault();
      focusIndex(current === -1 ? 0 : current + step, event.shiftKey);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      focusIndex(event.key === 'Home' ? 0 : items.length - 1, event.shiftKey);
    } else if (event.key === 'Enter' && current !== -1) {
      event.preventDefault();
      place.open(items[current]!);
    } else if (event.key === 'Delete' || (event.key === 'Backspace' && (event.metaKey || event.ctrlKey))) {
      event.preventDefault();
      place.command('delete');
    } else if ((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu') {
      // The item's own context menu, as a right-click on it would open.
      event.preventDefault();
      const item = items[current === -1 ? 0 : current];
      if (!item) return;
      if (current === -1) setFocused(item.id);
      if (!selected.has(item.id)) place.select(item.id, 'single');
      const el = document.getElementById(`item-${item.id}`);
      if (el) place.openMenu(item, el);
    } else if (event.key === 'F2') {
      event.preventDefault();
      place.command('rename');
    } else if (event.key === 'Escape' && selection.length) {
      event.preventDefault();
      place.clearSelection();
    } else if (event.key.toLowerCase() === 'a' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      place.selectAll();
    }
  };

  return (
    <>
      {view === 'list' && header}
      <div
        ref={container}
        role="listbox"
        aria-multiselectable
        aria-label={label}
        aria-activedescendant={active ? `item-${active}` : undefined}
        tabIndex={0}
        data-skip-target
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          if (event.target === event.currentTarget && !active && items[0]) setFocused(items[0].id);
        }}
        // The menu key's own contextmenu event lands on the list, not an item: the keydown above opens the item's menu.
        onContextMenu={(event) => event.target === event.currentTarget && event.preventDefault()}
        className="group/list relative rounded-card outline-none"
        style={{ height: virtualizer.getTotalSize() }}
        data-testid="items"
        data-view={view}
      >
        {virtualRows.map((row) => (
          <div
            key={row.key}
            className={view === 'grid' ? 'absolute inset-x-0 grid gap-3' : 'absolute inset-x-0'}
            style={{ top: row.start - offset, height: row.size, ...(view === 'grid' ? { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` } : {}) }}
          >
            {items.slice(row.index * columns, row.index * columns + columns).map((item) => renderItem(item, { selected: selected.has(item.id), focused: active === item.id, onFocus: () => setFocused(item.id) }))}
          </div>
        ))}
      </div>
    </>
  );
}
