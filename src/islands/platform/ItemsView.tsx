import { useStore } from '@nanostores/react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  $multiSelectMode,
  $selection,
  $viewType,
  clearSelection,
  formatDate,
  formatSize,
  loadMore,
  originalLocationText,
  selectAll,
  selectItem,
  type Item,
  type Listing,
} from '../../stores/files.ts';
import { may } from '../../stores/abilities.ts';
import { useT } from '../../stores/i18n.ts';
import { actionsFor, canWriteHere, moveWithFeedback, openItem, runAction, type ActionContext } from './actions.ts';
import { dropTarget, setDragItems } from './dnd.ts';
import { ItemContextMenu, openContextMenuFromKeyboard } from './ItemContextMenu.tsx';
import { ItemIcon } from './ItemIcon.tsx';
import { ListHeader, TEAM_DETAIL_WIDTH, widths } from './ListHeader.tsx';
import { describedBy, ItemRow, SharedMark } from '../files/ItemRow.tsx';

const ROW_HEIGHT = 60;
const CARD_HEIGHT = 176;
const CARD_MIN_WIDTH = 156;
const LONG_PRESS_MS = 500;

/**
 * The items of the open listing as a list or a grid. Only the rows on screen are rendered (window
 * virtualisation), and the next server page is fetched as the end comes near, so a folder of
 * 10,000 items opens as fast as one of ten.
 */
export function ItemsView({ listing, favourites }: { listing: Listing; favourites: Set<string> }) {
  const view = useStore($viewType);
  const selection = useStore($selection);
  const multi = useStore($multiSelectMode);
  const t = useT();
  const container = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [offset, setOffset] = useState(0);
  const [focused, setFocused] = useState<string | null>(null);
  const items = listing.items;
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
  useEffect(() => {
    if (listing.nextCursor && lastRow >= rows - 10) void loadMore();
  }, [lastRow, rows, listing.nextCursor]);

  const context = (list: Item[]): ActionContext => ({ source: listing.source, items: list, favourites });
  const selectedItems = () => items.filter((i) => selected.has(i.id));

  const focusIndex = (index: number, extend: boolean) => {
    const item = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!item) return;
    setFocused(item.id);
    selectItem(item.id, extend ? 'range' : 'single');
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
    const run = (id: string) => {
      const action = actionsFor(context(selectedItems())).find((a) => a.id === id);
      if (action) void runAction(action, context(selectedItems()));
    };
    const step = { ArrowDown: columns, ArrowUp: -columns, ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (step !== undefined && (view === 'grid' || Math.abs(step) === columns)) {
      event.preventDefault();
      focusIndex(current === -1 ? 0 : current + step, event.shiftKey);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      focusIndex(event.key === 'Home' ? 0 : items.length - 1, event.shiftKey);
    } else if (event.key === 'Enter' && current !== -1) {
      event.preventDefault();
      openItem(items[current]!, listing.source);
    } else if (event.key === 'Delete' || (event.key === 'Backspace' && (event.metaKey || event.ctrlKey))) {
      event.preventDefault();
      run(listing.source.kind === 'trash' ? 'delete-forever' : 'trash');
    } else if ((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu') {
      // The item's own context menu, as a right-click on it would open.
      event.preventDefault();
      const item = items[current === -1 ? 0 : current];
      if (!item) return;
      if (current === -1) setFocused(item.id);
      if (!selected.has(item.id)) selectItem(item.id, 'single');
      const el = document.getElementById(`item-${item.id}`);
      if (el) openContextMenuFromKeyboard(el);
    } else if (event.key === 'F2') {
      event.preventDefault();
      run('rename');
    } else if (event.key === 'Escape' && selection.length) {
      event.preventDefault();
      clearSelection();
    } else if (event.key.toLowerCase() === 'a' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      selectAll();
    }
  };

  return (
    <>
    {view === 'list' && <ListHeader listing={listing} multi={multi} />}
    <div
      ref={container}
      role="listbox"
      aria-multiselectable
      aria-label={t('files.items')}
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
          {items.slice(row.index * columns, row.index * columns + columns).map((item) => (
            <ItemEntry
              key={item.id}
              item={item}
              view={view}
              selected={selected.has(item.id)}
              focused={active === item.id}
              multi={multi}
              listing={listing}
              context={() => context(selected.has(item.id) ? selectedItems() : [item])}
              dragItems={() => (selected.has(item.id) ? selectedItems() : [item]).filter((i) => may(i, 'move'))}
              onFocus={() => setFocused(item.id)}
            />
          ))}
        </div>
      ))}
    </div>
    </>
  );
}

interface EntryProps {
  item: Item;
  view: 'list' | 'grid';
  selected: boolean;
  focused: boolean;
  multi: boolean;
  listing: Listing;
  context: () => ActionContext;
  dragItems: () => Item[];
  onFocus: () => void;
}

function ItemEntry({ item, view, selected, focused, multi, listing, context, dragItems, onFocus }: EntryProps) {
  const t = useT();
  const [over, setOver] = useState(false);
  const press = useRef<ReturnType<typeof setTimeout> | null>(null);
  // A tap opens (there is no double-tap on a phone); a tap in select mode, or after a long press, selects.
  const pointer = useRef<{ type: string; longPressed: boolean }>({ type: 'mouse', longPressed: false });
  const canDrop = item.type === 'folder' && (listing.source.kind === 'folder' || ((listing.source.kind === 'team' || listing.source.kind === 'shared') && listing.source.id !== null && canWriteHere()));
  const a = item.attributes;
  const detail = teamDetail(t, listing, item) ?? (item.type === 'folder' ? t('files.items_count', { count: a.items ?? 0 }) : formatSize(a.size));
  const date = formatDate(a.deleted_at ?? a.created_at);
  const location = originalLocationText(t, item);

  // The option is the icon and name alone: its accessible name is the item's name, and every text
  // inside an option must be part of its name (label in name, WCAG 2.5.3). Size and date sit beside
  // it in the row, and are its description. The row takes the pointer and drag handling.
  const option = {
    id: `item-${item.id}`,
    role: 'option' as const,
    'aria-selected': selected,
    'data-item-id': item.id,
    'data-testid': 'item',
    'aria-labelledby': `item-${item.id}-name`,
    'aria-describedby': describedBy('item', item, location),
    title: a.name,
  };
  const handlers = {
    draggable: may(item, 'move') && !((listing.source.kind === 'team' || listing.source.kind === 'shared') && listing.source.id === null),
    onClick: (e: React.MouseEvent) => {
      onFocus();
      if (pointer.current.type === 'touch') {
        if (pointer.current.longPressed) return;
        if ($multiSelectMode.get()) selectItem(item.id, 'toggle');
        else openItem(item, listing.source);
        return;
      }
      selectItem(item.id, e.shiftKey ? 'range' : e.metaKey || e.ctrlKey ? 'toggle' : 'single');
    },
    onDoubleClick: () => openItem(item, listing.source),
    onDragStart: (e: React.DragEvent) => {
      const list = dragItems();
      setDragItems(e, list, list.length === 1 ? a.name : t('files.n_items', { count: list.length }));
    },
    onPointerDown: (e: React.PointerEvent) => {
      pointer.current = { type: e.pointerType, longPressed: false };
      if (e.pointerType !== 'touch') return;
      press.current = setTimeout(() => {
        if (!$multiSelectMode.get()) $multiSelectMode.set(true);
        selectItem(item.id, 'toggle');
        pointer.current.longPressed = true;
        press.current = null;
      }, LONG_PRESS_MS);
    },
    onPointerUp: () => press.current && clearTimeout(press.current),
    onPointerMove: () => press.current && clearTimeout(press.current),
    ...(canDrop ? dropTarget(item.id, (items, to) => void moveWithFeedback(items, to), setOver) : {}),
  };

  const ring = over ? 'ring-2 ring-brand bg-brand-soft' : selected ? 'bg-brand-soft ring-1 ring-brand/40' : 'hover:bg-surface-2';
  const focusRing = focused ? 'group-focus-visible/list:outline-2 group-focus-visible/list:outline-offset-[-2px] group-focus-visible/list:outline-ring' : '';

  const check = multi && (
    <span className={`flex size-5 shrink-0 items-center justify-center rounded-md border ${selected ? 'border-brand bg-brand text-on-brand' : 'border-border bg-surface'}`} aria-hidden>
      {selected && '✓'}
    </span>
  );

  if (view === 'grid') {
    return (
      <ItemContextMenu context={context} onOpen={() => !selected && selectItem(item.id, 'single')}>
        <div {...handlers} className={`relative flex h-[176px] cursor-default flex-col items-center justify-center rounded-card border border-border bg-surface p-3 text-center transition-colors select-none ${ring} ${focusRing}`}>
          {check && <span className="absolute top-2.5 left-2.5">{check}</span>}
          <div {...option} className="flex w-full min-w-0 flex-col items-center gap-3">
            <ItemIcon item={item} size="lg" />
            <div className="flex w-full min-w-0 items-center justify-center gap-1">
              <p id={`item-${item.id}-name`} className="truncate text-sm font-semibold">
                {a.name}
              </p>
              {item.relationships.shared && <SharedMark className="size-3.5" />}
            </div>
          </div>
          <p id={`item-${item.id}-detail`} className="mt-0.5 w-full truncate text-xs text-muted" aria-hidden>
            {detail}
          </p>
          <span id={`item-${item.id}-date`} hidden>
            {date}
          </span>
          {location && (
            <span id={`item-${item.id}-location`} hidden>
              {location}
            </span>
          )}
        </div>
      </ItemContextMenu>
    );
  }
  return (
    <ItemContextMenu context={context} onOpen={() => !selected && selectItem(item.id, 'single')}>
      <ItemRow
        {...handlers}
        item={item}
        prefix="item"
        detail={detail}
        date={date}
        location={location}
        detailWidth={listing.teams ? TEAM_DETAIL_WIDTH : widths(listing.source).size}
        dateWidth={widths(listing.source).date}
        {...(listing.teams ? { detailTitle: detail } : {})}
        leading={check}
        label={(content) => (
          <div {...option} className="flex min-w-0 flex-1 items-center gap-3">
            {content}
          </div>
        )}
        className={`h-[56px] cursor-default rounded-control px-3 transition-colors select-none ${ring} ${focusRing}`}
      />
    </ItemContextMenu>
  );
}

/** In a list of team folders: who is in the team (mine), or whose it is and what I may do (shared with me). */
function teamDetail(t: (key: string, params?: Record<string, string | number>) => string, listing: Listing, item: Item): string | null {
  const team = listing.teams?.[item.id];
  if (!team) return null;
  if (listing.source.kind === 'team') return t('teams.member_count', { count: (team.members?.length ?? 0) + 1 });
  const permission = team.permission ? t(`teams.${team.permission}`) : '';
  return [team.owner ? t('teams.owned_by', { name: team.owner.name }) : '', permission].filter(Boolean).join(' · ');
}
