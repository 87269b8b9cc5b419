import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { ItemType } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import type { Abilities } from './abilities.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound, validationError } from '../http/errors.ts';
import { restrictionsFor } from '../users/restrictions.ts';
import { actorFor } from '../teams/actor.ts';
import { liveFolder, requireOwnedItem, requireOwnedItems, requireTargetFolder, requireUnscoped, requireWritableScope, scopeOf, type Actor } from './access.ts';
import { originalLocations, type OriginalLocation } from './locations.ts';
import { candidateName, checkName, nameKey } from './names.ts';
import { parseEmoji } from './presenter.ts';
import * as q from './queries.ts';
import { lockTree } from './trash.ts';
import type { Cursor, Db, ItemRow, ItemWithCount, ListOptions, Sort } from './queries.ts';

/** Folder and file use cases for the owner API. Permission checks go through access.ts only. */

export interface ItemRef {
  id: string;
  type: ItemType;
}

export interface Page {
  items: ItemWithCount[];
  /** Where the next page starts, when `limit` was given and more items follow. */
  next: Cursor | null;
}

/** A trashed item with where it was. */
export type Located = ItemWithCount & { location: OriginalLocation };

const now = (ctx: AppContext) => ctx.clock.now().toISOString();

/** SQLite and PostgreSQL words for a unique index refusing a row. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

const nameTaken = () => validationError({ name: ['An item with this name already exists in this folder.'] });

/**
 * The name as given when free in the folder, else the next free `name (n).ext`, looked up a batch
 * at a time. The name itself is asked alone first: it is nearly always free, and one key is one
 * probe of the name index where a batch is 32 (and 32 candidate names to make).
 */
async function freeName(db: Db, ownerId: string, parentId: string | null, name: string, type: ItemType): Promise<string> {
  if (!(await q.nameKeyTaken(db, ownerId, parentId, nameKey(name)))) return name;
  const BATCH = 32;
  for (let first = 1; ; first += BATCH) {
    const candidates = Array.from({ length: BATCH }, (_, i) => candidateName(name, type === 'file', first + i));
    const taken = await q.takenNameKeys(db, ownerId, parentId, candidates.map(nameKey));
    const free = candidates.find((candidate) => !taken.has(nameKey(candidate)));
    if (free !== undefined) return free;
  }
}

/**
 * Runs a write that picks a free name; a concurrent writer taking the same name (a rename, which
 * does not take the tree lock) gets one retry. Inside the caller's transaction (an upload's finish)
 * the try runs under a savepoint: PostgreSQL refuses every statement after a failed one until the
 * transaction rolls back, so the retry rolls back to the savepoint first.
 */
async function withFreeName<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (!db.isTransaction) {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return work();
    }
  }
  await sql`savepoint free_name`.execute(db);
  try {
    const done = await work();
    await sql`release savepoint free_name`.execute(db);
    return done;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await sql`rollback to savepoint free_name`.execute(db);
    return work();
  }
}

function reload(ctx: AppContext, id: string): Promise<ItemWithCount> {
  return q.findItemWithCount(ctx.db, id) as Promise<ItemWithCount>;
}

// --- create -------------------------------------------------------------------------------

export async function createFolder(ctx: AppContext, signedIn: User, input: { name: string; emoji?: string | null | undefined; parent_id: string | null }): Promise<ItemWithCount> {
  const user = await actorFor(ctx, signedIn, [input.parent_id]);
  requireWritableScope(user);
  if (!restrictionsFor(user).canCreateFolder) {
    throw new AppError(423, 'Creating folders is temporarily disabled on your account.', { code: 'create_folder_temporarily_disabled' });
  }
  const parent = await requireTargetFolder(ctx, user, input.parent_id, 'parent_id');
  const parentId = parent?.id ?? null;
  const at = now(ctx);
  const id = randomUUID();
  try {
    await underFolder(ctx, user.id, parentId, async (db) => {
      if (await q.findByNameKey(db, user.id, parentId, nameKey(input.name))) throw nameTaken();
      await q.insertItem(db, {
        id, owner_id: user.id, parent_id: parentId, type: 'folder', name: input.name, name_key: nameKey(input.name),
        color: null, emoji: input.emoji ?? null, mimetype: null, size: 0, blob_key: null, created_at: at, updated_at: at, deleted_at: null, deleted_with: null,
      });
    }, () => notFound('The item was not found.'));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  ctx.events.emit('items.changed', { ownerId: user.id, folderIds: [parentId], itemIds: [id] });
  return reload(ctx, id);
}

/**
 * Runs a write that puts an item in a folder inside a transaction holding the owner's tree lock,
 * after checking there that the folder is still the owner's, live, and a folder (`gone` answers
 * otherwise): a folder trashed meanwhile cannot receive a live item it would hide. Inside a
 * caller's transaction (an upload's finish, which holds the lock already) it runs in that one.
 */
async function underFolder<T>(ctx: AppContext, ownerId: string, parentId: string | null, work: (db: Db) => Promise<T>, gone: () => Error): Promise<T> {
  const run = async (db: Db) => {
    if (parentId !== null && !(await liveFolder(db, { id: ownerId }, parentId))) throw gone();
    return work(db);
  };
  if (ctx.db.isTransaction) return run(ctx.db);
  return ctx.db.transaction().execute(async (tx) => {
    await lockTree(ctx, tx, ownerId);
    return run(tx);
  });
}

/**
 * The id of the folder `name` in the parent, created when missing (a folder upload's relative
 * path). A file holding that name is stepped over to `name (1)`, and so on, the same way every
 * time, so files of one folder upload land together. Runs inside the caller's transaction
 * (`ctx.db`, an upload's finish), which holds the owner's tree lock and checked the parent.
 */
export async function ensureFolder(ctx: AppContext, ownerId: string, parentId: string | null, name: string): Promise<string> {
  for (let n = 0; n < 1000; n += 1) {
    const candidate = n === 0 ? name : `${name} (${n})`;
    const key = nameKey(candidate);
    const found = await q.findTypedByNameKey(ctx.db, ownerId, parentId, key);
    if (found?.type === 'folder') return found.id;
    if (found) continue;
    const id = randomUUID();
    const at = now(ctx);
    await q.insertItem(ctx.db, {
      id, owner_id: ownerId, parent_id: parentId, type: 'folder', name: candidate, name_key: key,
      color: null, emoji: null, mimetype: null, size: 0, blob_key: null, created_at: at, updated_at: at, deleted_at: null, deleted_with: null,
    });
    return id;
  }
  throw validationError({ path: [`No free name for the folder "${name}".`] });
}

/** A blob key for a new file of this owner; write the bytes there before `createFileItem`. */
export function newBlobKey(ownerId: string): string {
  return `files/${ownerId.toLowerCase()}/${randomUUID()}`;
}

/**
 * Records a file whose bytes are already in the blob store (uploads call this). The name is made
 * free in the folder (`name (1).ext`); the parent must be the owner's folder outside the trash.
 */
export async function createFileItem(
  ctx: AppContext,
  input: { ownerId: string; parentId: string | null; name: string; mimetype: string; size: number; blobKey: string },
): Promise<ItemWithCount> {
  const checked = checkName(input.name);
  if (!checked.ok) throw validationError({ name: [checked.message] });
  const id = randomUUID();
  // The row comes back from the insert (`returning`): a file has no children to count.
  const row = await withFreeName(ctx.db, () =>
    underFolder(ctx, input.ownerId, input.parentId, async (db) => {
      const name = await freeName(db, input.ownerId, input.parentId, checked.name, 'file');
      const at = now(ctx);
      return q.insertItemReturning(db, {
        id, owner_id: input.ownerId, parent_id: input.parentId, type: 'file', name, name_key: nameKey(name),
        color: null, emoji: null, mimetype: input.mimetype, size: input.size, blob_key: input.blobKey, created_at: at, updated_at: at, deleted_at: null, deleted_with: null,
      });
    }, () => validationError({ parent_id: ['The folder was not found.'] })),
  );
  ctx.events.emit('file.created', { itemId: id, ownerId: input.ownerId, mimetype: input.mimetype });
  ctx.events.emit('items.changed', { ownerId: input.ownerId, folderIds: [input.parentId], itemIds: [id] });
  return { ...row, children: 0 };
}

// --- rename, move -------------------------------------------------------------------------

export async function renameItem(
  ctx: AppContext,
  signedIn: User,
  id: string,
  input: { name?: string | undefined; emoji?: string | null | undefined; color?: string | null | undefined; type?: ItemType | undefined },
): Promise<ItemWithCount> {
  const user = await actorFor(ctx, signedIn, [id]);
  const item = await requireOwnedItem(ctx, user, id, { type: input.type, field: 'type', change: true });
  const patch: Partial<ItemRow> = { updated_at: now(ctx) };
  if (input.name !== undefined) {
    const key = nameKey(input.name);
    const holder = await q.findByNameKey(ctx.db, user.id, item.parent_id, key);
    if (holder && holder !== item.id) throw nameTaken();
    patch.name = input.name;
    patch.name_key = key;
  }
  if (input.emoji !== undefined) patch.emoji = input.emoji;
  if (input.color !== undefined) patch.color = input.color;
  try {
    await q.updateItem(ctx.db, item.id, patch);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  ctx.events.emit('items.changed', { ownerId: user.id, folderIds: [item.parent_id], itemIds: [item.id] });
  return reload(ctx, item.id);
}

export { moveItems } from './move.ts';
export { dumpTrash, purgeTrashedBefore, removeItems, restoreItems } from './trash.ts';

// --- favourites ---------------------------------------------------------------------------

export async function addFavourites(ctx: AppContext, user: User, ids: string[]): Promise<void> {
  const folders = await requireOwnedItems(ctx, user, ids.map((id, index) => ({ id, field: `folders.${index}` })), { folder: true });
  await q.addFavourites(ctx.db, user.id, folders.map((f) => f.id), now(ctx));
}

export async function removeFavourite(ctx: AppContext, user: User, id: string): Promise<void> {
  const folder = await requireOwnedItem(ctx, user, id, { trashed: 'any' });
  await q.removeFavourite(ctx.db, user.id, folder.id);
}

export function favouriteFolders(ctx: AppContext, userId: string): Promise<ItemWithCount[]> {
  return q.listFavouriteFolders(ctx.db, userId);
}

// --- browse, search -----------------------------------------------------------------------

async function paged(load: (options: ListOptions) => Promise<ItemWithCount[]>, options: ListOptions): Promise<Page> {
  const { sort, limit, after } = options;
  if (after) {
    const numeric = sort.field === 'size';
    if (!['folder', 'file'].includes(after[0]) || (typeof after[1] === 'number') !== numeric) throw validationError({ cursor: ['The cursor does not fit this sort.'] });
  }
  if (!limit) return { items: await load(options), next: null };
  const rows = await load({ sort, after, limit: limit + 1 });
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? q.cursorOf(items[items.length - 1]!, sort.field) : null };
}

export async function browseFolder(ctx: AppContext, signedIn: User, id: string | null, options: ListOptions): Promise<Page & { root: ItemWithCount | null }> {
  return browseFolderAs(ctx, await actorFor(ctx, signedIn, [id]), id, options);
}

/** `browseFolder` for the actor the caller has already decided for this folder (`actorFor`). */
export async function browseFolderAs(ctx: AppContext, user: Actor, id: string | null, options: ListOptions): Promise<Page & { root: ItemWithCount | null }> {
  const scope = scopeOf(user);
  const folder = id === null && !scope ? null : await requireOwnedItem(ctx, user, id ?? scope!.rootId, { folder: true });
  const page = await paged((o) => q.listChildren(ctx.db, user.id, folder?.id ?? null, o), options);
  // The folder's row was read by the access check just now; its count of items is on it (live_children).
  return { ...page, root: folder ? (await q.withCounts(ctx.db, [folder]))[0]! : null };
}

/** The trash or a trashed folder, each item (and the folder) with its original location. */
export async function browseTrash(ctx: AppContext, user: User, id: string | null, options: ListOptions): Promise<{ items: Located[]; next: Cursor | null; root: Located | null }> {
  requireUnscoped(user);
  const folder = id === null ? null : await requireOwnedItem(ctx, user, id, { trashed: true, folder: true });
  const page = await paged((o) => q.listTrash(ctx.db, user.id, folder?.id ?? null, o), options);
  const root = folder ? await reload(ctx, folder.id) : null;
  const locations = await originalLocations(ctx.db, root ? [...page.items, root] : page.items);
  const located = (item: ItemWithCount): Located => ({ ...item, location: locations.get(item.id)! });
  return { items: page.items.map(located), next: page.next, root: root && located(root) };
}

export const LATEST_LIMIT = 50;

export async function latestFiles(ctx: AppContext, user: User): Promise<ItemWithCount[]> {
  requireUnscoped(user);
  return q.listLatestFiles(ctx.db, user.id, LATEST_LIMIT);
}

export interface TreeNode {
  id: string;
  name: string;
  color: string | null;
  emoji: unknown;
  parent_id: string | null;
  /** The subfolders when this level was asked for, else empty (see `has_folders`). */
  folders: TreeNode[];
  /** Whether the folder holds subfolders, loaded or not: the tree is fetched a level at a time. */
  has_folders: boolean;
  /** What the principal may do with the folder, when the endpoint adds it (`withTreeAbilities`). */
  abilities?: Abilities;
}

/** Which levels of the tree to answer: one folder's children, or the top with the branches down to `open`. */
export interface TreeRequest {
  parentId?: string | null | undefined;
  open?: string | null | undefined;
}

async function treeLevel(ctx: AppContext, ownerId: string, where: Parameters<typeof q.listTreeLevel>[2]): Promise<TreeNode[]> {
  const rows = await q.listTreeLevel(ctx.db, ownerId, where);
  return rows.map((r) => ({ id: r.id, name: r.name, color: r.color, emoji: parseEmoji(r.emoji), parent_id: r.parent_id, folders: [], has_folders: Boolean(r.has_folders) }));
}

/**
 * The navigation tree, lazily: with `parentId`, that folder's subfolders (a list of nodes); else the
 * top level (home's folders, or a scope's root with its subfolders) and, with `open`, the branches
 * down to that folder, so the open place shows in the tree. Each level is by name; a node whose
 * level was not asked for has empty `folders` and says in `has_folders` whether it holds any.
 */
export async function navigationTree(ctx: AppContext, user: User, request: TreeRequest = {}): Promise<TreeNode[]> {
  const scope = scopeOf(user);
  if (request.parentId) {
    await requireOwnedItem(ctx, user, request.parentId, { folder: true, field: 'parent_id' });
    return treeLevel(ctx, user.id, { parentId: request.parentId });
  }
  const roots = scope ? await treeLevel(ctx, user.id, { ids: [scope.rootId] }) : await treeLevel(ctx, user.id, { parentId: null });
  const nodes = new Map(roots.map((n) => [n.id, n]));
  const expand = async (node: TreeNode) => {
    if (!node.has_folders || node.folders.length) return;
    node.folders = await treeLevel(ctx, user.id, { parentId: node.id });
    for (const child of node.folders) nodes.set(child.id, child);
  };
  // A scope's one root opens at once: its subfolders are the first thing to show.
  if (scope && roots[0]) await expand(roots[0]);
  if (request.open) {
    const open = await requireOwnedItem(ctx, user, request.open, { folder: true, field: 'open' });
    const trail = (await q.selfAndAncestorIds(ctx.db, open.id)).reverse();
    // Top down, each branch of the trail that the tree holds opens, down to the open folder's own subfolders.
    for (const id of trail) {
      const node = nodes.get(id);
      if (node) await expand(node);
    }
  }
  return roots;
}

export const SEARCH_LIMIT = 20;

export async function searchItems(ctx: AppContext, user: User, query: string): Promise<ItemWithCount[]> {
  requireUnscoped(user);
  return q.searchByName(ctx.db, user.id, nameKey(query), SEARCH_LIMIT);
}

export type { Sort };
