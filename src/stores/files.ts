import { atom, computed } from 'nanostores';
import type { Abilities } from './abilities.ts';
import type { ItemData } from '../server/files/presenter.ts';
import type { TreeNode } from '../server/files/service.ts';
import type { SortField } from '../server/files/queries.ts';
import { api, ApiError, signInAgain } from './api.ts';
import { t, type Translate } from './i18n.ts';
import { persistentAtom } from './prefs.ts';
import { refreshStorageUsage } from './storage.ts';
import type { TeamMeta } from './teams.ts';
import { isSorting, isTeamSource, listUrl as listingUrl, PAGE_SIZE, SORT_DEFAULT, sortingFor, type Sorting, type Source } from './listing-url.ts';
import { takeFirstListingRequest } from './boot.ts';
import { showAlert } from './ui.ts';
import { loadUser } from './user.ts';
import { loadTreeAt } from './tree.ts';

export type Item = ItemData;
export type { TreeNode, SortField };
export type ItemRef = { id: string; type: 'folder' | 'file' };

/* ---- View preferences, remembered locally (SPEC §2 other notes, §3 sorting) ---- */

export type ViewType = 'list' | 'grid';
export const $viewType = persistentAtom<ViewType>('view_type', 'list', (v): v is ViewType => v === 'list' || v === 'grid');

export { SORT_DEFAULT, sortingFor, isTeamSource, PAGE_SIZE };
export type { Source, Sorting };
export const $sorting = persistentAtom<Sorting>('sorting', SORT_DEFAULT, isSorting);
export const $infoPanel = persistentAtom<boolean>('file_info_visible', false, (v): v is boolean => typeof v === 'boolean');
export const $navigationPanel = persistentAtom<boolean>('navigation_visible', true, (v): v is boolean => typeof v === 'boolean');

/* ---- The open listing ---- */

export interface Listing {
  source: Source;
  items: Item[];
  root: Item | null;
  /** What may be done in the open folder itself (put files or folders into it); null where the server does not say. */
  abilities: Abilities | null;
  nextCursor: string | null;
  /** In a team folder (or one inside it): its members and invitations (`meta.team`). */
  team: TeamMeta | null;
  /** In a list of team folders: each one's team, by folder id (`meta.teams`). */
  teams?: Record<string, TeamMeta>;
  /** `missing`: the folder does not exist (or is not the user's); `error`: the load failed otherwise. */
  status: 'loading' | 'ready' | 'error' | 'missing';
  loadingMore: boolean;
}

export const $listing = atom<Listing | null>(null);
let generation = 0;

const sourceKey = (s: Source) => (s.kind === 'latest' ? 'latest' : `${s.kind}:${s.id ?? 'all'}`);
export const sameSource = (a: Source, b: Source) => sourceKey(a) === sourceKey(b);

const listUrl = (source: Source, cursor: string | null) => listingUrl(source, $sorting.get(), cursor);

interface ListAnswer {
  data: Item[];
  meta?: { root?: Item | null; next_cursor?: string | null; abilities?: Abilities; team?: TeamMeta | null; teams?: Record<string, TeamMeta> };
}

/**
 * SPEC §8: a folder load answered 401/403 goes to sign-in; other failures show the generic popup.
 * A folder that is not there is no failure of the app: the list says so, and nothing pops up.
 */
function folderLoadFailed(error: unknown): void {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    signInAgain();
    return;
  }
  if (isMissing(error)) return;
  showAlert({ title: t('popup_error.title'), message: t('popup_error.message') });
}

const isMissing = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * The first page of a listing the app asked for as it started (beside the user and the
 * translations). Its answer goes on screen as it arrives, when no screen has opened another
 * listing meanwhile, so the screen's first render already has the items; a screen opening the same
 * listing before then takes the answer once instead of asking again.
 */
interface Prefetched {
  url: string;
  answer: Promise<ListAnswer>;
  at: number;
  /** The answer is in $listing already (put there as it arrived). */
  shown: boolean;
}
let prefetched: Prefetched | null = null;
const PREFETCH_FRESH_MS = 10_000;

/** The prefetched first page for `url`, if it is the one and still fresh; taken once either way. */
function takePrefetched(url: string): Prefetched | null {
  const early = prefetched;
  prefetched = null;
  return early?.url === url && Date.now() - early.at < PREFETCH_FRESH_MS ? early : null;
}

const readyListing = (source: Source, res: ListAnswer): Listing => ({
  source,
  items: res.data,
  root: res.meta?.root ?? null,
  abilities: res.meta?.abilities ?? null,
  team: res.meta?.team ?? null,
  ...(res.meta?.teams ? { teams: res.meta.teams } : {}),
  nextCursor: res.meta?.next_cursor ?? null,
  status: 'ready',
  loadingMore: false,
});

/** Starts loading a listing before its screen is drawn; the screen's own openListing takes the answer. */
export function prefetchListing(source: Source): void {
  const url = listUrl(source, null);
  // The document itself asked for it as it was read (src/server/config/first-listing.ts), when it
  // named the same page: that request is taken instead of sending another.
  const sent = takeFirstListingRequest(url);
  const answer = sent ? api.answerTo<ListAnswer>(sent) : api.get<ListAnswer>(url);
  const entry: Prefetched = { url, answer, at: Date.now(), shown: false };
  prefetched = entry;
  answer.then(
    (res) => {
      // A screen took it meanwhile (it shows the answer itself), or another listing is open.
      const current = $listing.get();
      if (prefetched !== entry || (current && !sameSource(current.source, source))) return;
      $listing.set(readyListing(source, res));
      entry.shown = true;
    },
    () => undefined,
  );
}

/**
 * Runs `run` once the open listing has its answer (or at once when there is none loading): work
 * that can wait, such as fetching other scripts, stays out of the way of drawing the list.
 */
export function whenListingSettled(run: () => void): void {
  const settled = () => $listing.get()?.status !== 'loading';
  if (settled()) return run();
  const stop = $listing.listen(() => {
    if (!settled()) return;
    stop();
    run();
  });
}

/** Opens a listing; `quiet` keeps the current items on screen while it refreshes. */
export async function openListing(source: Source, { quiet = false } = {}): Promise<void> {
  const mine = ++generation;
  const url = listUrl(source, null);
  const early = takePrefetched(url);
  const current = $listing.get();
  // The first page the app asked for as it started is on screen already.
  if (early?.shown && current && sameSource(current.source, source) && current.status === 'ready') return;
  const keep = quiet && current && sameSource(current.source, source);
  $listing.set(keep ? { ...current, status: current.status } : { source, items: [], root: null, abilities: null, team: null, nextCursor: null, status: 'loading', loadingMore: false });
  try {
    const res = await (early ? early.answer : api.get<ListAnswer>(url));
    if (mine !== generation) return;
    $listing.set(readyListing(source, res));
  } catch (error) {
    if (mine !== generation) return;
    $listing.set({ source, items: [], root: null, abilities: null, team: null, nextCursor: null, status: isMissing(error) ? 'missing' : 'error', loadingMore: false });
    folderLoadFailed(error);
  }
}

/** The next page of a large folder (keyset paging on the server). */
export async function loadMore(): Promise<void> {
  const current = $listing.get();
  if (!current?.nextCursor || current.loadingMore || current.status !== 'ready') return;
  const mine = generation;
  $listing.set({ ...current, loadingMore: true });
  try {
    const res = await api.get<ListAnswer>(listUrl(current.source, current.nextCursor));
    if (mine !== generation) return;
    const latest = $listing.get()!;
    const teams = res.meta?.teams ? { teams: { ...latest.teams, ...res.meta.teams } } : {};
    $listing.set({ ...latest, ...teams, items: [...latest.items, ...res.data], nextCursor: res.meta?.next_cursor ?? null, loadingMore: false });
  } catch (error) {
    if (mine !== generation) return;
    $listing.set({ ...$listing.get()!, loadingMore: false });
    folderLoadFailed(error);
  }
}

export function refreshListing(): Promise<void> {
  const current = $listing.get();
  return current ? openListing(current.source, { quiet: true }) : Promise.resolve();
}

/* ---- Selection (SPEC §2: multi-select mode toggles and clears the selection) ---- */

export const $selection = atom<string[]>([]);
export const $selectionAnchor = atom<string | null>(null);
export const $multiSelectMode = atom(false);

export const $selectedItems = computed([$listing, $selection], (listing, ids) => {
  if (!listing) return [];
  const chosen = new Set(ids);
  return listing.items.filter((item) => chosen.has(item.id));
});

export function clearSelection(): void {
  $selection.set([]);
  $selectionAnchor.set(null);
}

export function toggleMultiSelectMode(): void {
  $multiSelectMode.set(!$multiSelectMode.get());
  clearSelection();
}

/** Click, Ctrl/Cmd-click (toggle) and Shift-click (range from the anchor) over the listing's order. */
export function selectItem(id: string, mode: 'single' | 'toggle' | 'range'): void {
  const items = $listing.get()?.items ?? [];
  const current = $selection.get();
  if (mode === 'toggle' || (mode === 'single' && $multiSelectMode.get())) {
    $selection.set(current.includes(id) ? current.filter((x) => x !== id) : [...current, id]);
    $selectionAnchor.set(id);
    return;
  }
  if (mode === 'range') {
    const anchor = $selectionAnchor.get() ?? current[0] ?? id;
    const a = items.findIndex((i) => i.id === anchor);
    const b = items.findIndex((i) => i.id === id);
    if (a === -1 || b === -1) {
      $selection.set([id]);
      return;
    }
    const [from, to] = a < b ? [a, b] : [b, a];
    $selection.set(items.slice(from, to + 1).map((i) => i.id));
    return;
  }
  $selection.set([id]);
  $selectionAnchor.set(id);
}

export function selectAll(): void {
  $selection.set(($listing.get()?.items ?? []).map((i) => i.id));
}

/* ---- Navigation tree (tree.ts) ---- */

/** The navigation tree, with the branches down to the folder open in Files (tree.ts `loadTreeAt`). */
export function loadTree(openId: string | null = openFolderId()): Promise<void> {
  return loadTreeAt(openId);
}

/** The folder open in Files, if any: the tree's answer includes the branches down to it. */
function openFolderId(): string | null {
  const source = $listing.get()?.source;
  return source?.kind === 'folder' && source.id ? source.id : null;
}

/* ---- Mutations: each refreshes what it changed ---- */

async function afterChange(): Promise<void> {
  await Promise.all([refreshListing(), loadTree()]);
}

export async function createFolder(name: string, parentId: string | null, emoji: unknown = null): Promise<Item> {
  const res = await api.post<{ data: Item }>('/api/create-folder', { name, parent_id: parentId, emoji });
  await afterChange();
  return res.data;
}

export async function renameItem(id: string, patch: { name?: string; emoji?: unknown; color?: string | null }): Promise<Item> {
  const res = await api.patch<{ data: Item }>(`/api/rename/${encodeURIComponent(id)}`, patch);
  await afterChange();
  if (patch.name !== undefined) await loadUser().catch(() => undefined); // favourites show names
  return res.data;
}

export async function moveItems(items: ItemRef[], toId: string | null): Promise<void> {
  await api.post('/api/move', { to_id: toId, items: items.map(({ id, type }) => ({ id, type })) });
  clearSelection();
  await afterChange();
}

export async function trashItems(items: ItemRef[], forceDelete = false): Promise<void> {
  await api.post('/api/remove', { items: items.map(({ id, type }) => ({ id, type, force_delete: forceDelete })) });
  clearSelection();
  // Trashed files still take their space; deleted ones free it.
  if (forceDelete) refreshStorageUsage();
  await Promise.all([afterChange(), loadUser().catch(() => undefined)]);
}

export async function restoreItems(items: ItemRef[], toHome = false): Promise<void> {
  await api.post('/api/trash/restore', { to_home: toHome, items: items.map(({ id, type }) => ({ id, type })) });
  clearSelection();
  await afterChange();
}

export async function emptyTrash(): Promise<void> {
  await api.delete('/api/trash/dump');
  clearSelection();
  refreshStorageUsage();
  await afterChange();
}

export async function addFavourites(ids: string[]): Promise<void> {
  await api.post('/api/folders/favourites', { folders: ids });
  await loadUser();
}

export async function removeFavourite(id: string): Promise<void> {
  await api.delete(`/api/folders/favourites/${encodeURIComponent(id)}`);
  await loadUser();
}

/** Search results, with each one's folders from home down (`locations`, by item id). */
export async function searchItems(query: string): Promise<{ items: Item[]; locations: Record<string, { id: string; name: string }[]> }> {
  const res = await api.get<{ data: Item[]; meta?: { locations?: Record<string, { id: string; name: string }[]> } }>(`/api/search?${new URLSearchParams({ query })}`);
  return { items: res.data, locations: res.meta?.locations ?? {} };
}

/* ---- Helpers for display ---- */

export function formatSize(bytes: number): string {
  if (!bytes) return '0 B';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const v = bytes / 1024 ** i;
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export { formatDate } from './dates.ts';

/**
 * Where a trashed item was, as people read it: "Files / Projects / 2026", marked when that folder
 * is in the trash too. Null outside the trash listings (the server sends it there only).
 */
export function originalLocationText(translate: Translate, item: Item): string | null {
  const where = item.attributes.original_location;
  if (!where) return null;
  const path = [translate('locations.home'), ...where.path.map((folder) => folder.name)].join(' / ');
  return where.in_trash ? translate('files.location_in_trash', { path }) : path;
}

/** Emoji values are a plain string or the picker's `{ char }` object. */
export function emojiChar(emoji: unknown): string | null {
  if (typeof emoji === 'string' && emoji) return emoji;
  if (emoji && typeof emoji === 'object' && typeof (emoji as { char?: unknown }).char === 'string') return (emoji as { char: string }).char;
  return null;
}
