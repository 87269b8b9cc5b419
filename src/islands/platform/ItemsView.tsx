import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
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
import { ItemList, type ListPlace } from '../files/ItemList.tsx';

const LONG_PRESS_MS = 500;

/**
 * The items of the open listing as a list or a grid (ItemList): the file area's place, its
 * selection and view from the listing stores, Enter, Delete and F2 running the shared actions.
 */
export function ItemsView({ listing, favourites }: { listing: Listing; favourites: Set<string> }) {
  const view = useStore($viewType);
  const selection = useStore($selection);
  const multi = useStore($multiSelectMode);
  const t = useT();
  const items = listing.items;
  const selected = new Set(selection);

  const context = (list: Item[]): ActionContext => ({ source: listing.source, items: list, favourites });
  const selectedItems = () => items.filter((i) => selected.has(i.id));
  const run = (id: string) => {
    const action = actionsFor(context(selectedItems())).find((a) => a.id === id);
    if (action) void runAction(action, context(selectedItems()));
  };
  const place: ListPlace = {
    items,
    view,
    selection,
    nextCursor: listing.nextCursor,
    loadMore: () => void loadMore(),
    select: selectItem,
    selectAll,
    clearSelection,
    open: (item) => openItem(item, listing.source),
    command: (command) => run(command === 'rename' ? 'rename' : listing.source.kind === 'trash' ? 'delete-forever' : 'trash'),
    openMenu: (_item, element) => openContextMenuFromKeyboard(element),
  };

  return (
    <ItemList
      place={place}
      label={t('files.items')}
      header={<ListHeader listing={listing} multi={multi} />}
      renderItem={(item, state) => (
        <ItemEntry
          key={item.id}
          item={item}
          view={view}
          selected={state.selected}
          focused={state.focused}
          multi={multi}
          listing={listing}
          context={() => context(state.selected ? selectedItems() : [item])}
          dragItems={() => (state.selected ? selectedItems() : [item]).filter((i) => may(i, 'move'))}
          onFocus={state.onFocus}
        />
      )}
    />
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
