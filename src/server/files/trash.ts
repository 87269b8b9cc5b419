import { sql, type RawBuilder } from 'kysely';
import type { User } from '../auth/sessions.ts';
import { finishDeletions, recordDeletions } from '../blobs/deletions.ts';
import type { AppContext } from '../context.ts';
import { faultPoint } from '../faults.ts';
import { validationError } from '../http/errors.ts';
import { thumbnailBlobKeys } from '../previews/sizes.ts';
import { actorFor } from '../teams/actor.ts';
import { requireOwnedItems, requireUnscoped, scopeOf } from './access.ts';
import { freeNames } from './free-names.ts';
import { nameKey } from './names.ts';
import * as q from './queries.ts';
import type { Db, ItemWithCount } from './queries.ts';
import * as sets from './sets.ts';

/**
 * Trash, restore, delete for good, empty the trash, purge: set-based, so a 1000-item selection or a
 * 100,000-item folder costs a bounded number of bounded statements with the event loop free
 * between them (sets.ts). Whatever puts items under a folder or takes a folder away runs inside a
 * transaction holding the owner's tree lock (PostgreSQL; SQLite has one writer) and checks the
 * folder there, so no live item ever ends up below a trashed folder.
 */

export interface ItemRef {
  id: string;
  type: 'folder' | 'file';
}

const now = (ctx: AppContext) => ctx.clock.now().toISOString();

/** Begins a tree change: on PostgreSQL, waits for the owner's other tree changes to end. */
export async function lockTree(ctx: AppContext, tx: Db, ownerId: string): Promise<void> {
  if (ctx.config.database.dialect === 'postgres') await q.lockOwnerTree(tx, ownerId);
}

/** Checks every referenced item first (nothing changes when one is refused), without duplicates. */
export function requireAll(ctx: AppContext, user: User, refs: ItemRef[], trashed: boolean | 'any') {
  return requireOwnedItems(ctx, user, refs.map((ref, index) => ({ id: ref.id, type: ref.type, field: `items.${index}.type` })), { trashed, change: true });
}


const blobsOf = (rows: sets.DoomedRow[]) => sets.blobKeysOf(rows, thumbnailBlobKeys);

/** Deletes the roots and everything below them for good, deepest first; answers their blob keys. */
async function deleteTrees(tx: Db, rootIds: string[]): Promise<string[]> {
  if (!rootIds.length) return [];
  const levels = await sets.subtreeLevels(tx, rootIds);
  const blobs = new Set<string>();
  for (const level of levels.reverse()) {
    for (const key of blobsOf(level)) blobs.add(key);
    await sets.deleteRows(tx, level.map((r) => r.id));
  }
  return [...blobs];
}

/** Trashes items (with their subtrees), or with force_delete removes them and their blobs for good. */
export async function removeItems(ctx: AppContext, signedIn: User, refs: (ItemRef & { force_delete: boolean })[]): Promise<void> {
  const user = await actorFor(ctx, signedIn, refs.map((r) => r.id));
  const items = await requireAll(ctx, user, refs, 'any');
  // A token holder only ever trashes: the owner decides what leaves for good.
  const force = new Map(refs.map((r) => [r.id, r.force_delete && !scopeOf(user)]));
  for (const [index, item] of items.entries()) {
    if (!force.get(item.id) && item.deleted_at !== null) throw validationError({ [`items.${index}.id`]: [`"${item.name}" is already in the trash.`] });
  }
  const at = now(ctx);
  const blobs = await ctx.db.transaction().execute(async (tx) => {
    await lockTree(ctx, tx, user.id);
    const keys = await deleteTrees(tx, items.filter((i) => force.get(i.id)).map((i) => i.id));
    // Named for deletion with the rows: a crash before the blobs go leaves them to the next start (blobs/deletions.ts).
    await recordDeletions(tx, keys, at);
    // Still live now that the lock is held: a concurrent trash or delete may have taken some.
    const live = (await sets.findItems(tx, items.filter((i) => !force.get(i.id)).map((i) => i.id))).filter((i) => i.deleted_at === null);
    await sets.trashTrees(tx, user.id, live.map((i) => i.id), at);
    return keys;
  });
  ctx.events.emit('items.changed', { ownerId: user.id, folderIds: items.map((i) => i.parent_id), itemIds: items.map((i) => i.id) });
  await finishDeletions(ctx, blobs);
}

/**
 * Restores trashed items with what was trashed together with them, to where they were, or home
 * when that folder is gone or stays in the trash, or when `toHome` is set. Clashing names become
 * `name (n)`. An item that one of the others brings back with its group is not restored on its own.
 */
export async function restoreItems(ctx: AppContext, user: User, toHome: boolean, refs: ItemRef[]): Promise<ItemWithCount[]> {
  const items = await requireAll(ctx, user, refs, true);
  const at = now(ctx);
  await ctx.db.transaction().execute(async (tx) => {
    await lockTree(ctx, tx, user.id);
    // Read again under the lock: restored or deleted meanwhile ones are left alone.
    const current = (await sets.findItems(tx, items.map((i) => i.id))).filter((i) => i.deleted_at !== null);
    const selected = new Map(current.map((i) => [i.id, i]));
    // An item trashed directly first: it brings back what was trashed with it, in place.
    const ordered = items.filter((i) => selected.has(i.id)).map((i) => selected.get(i.id)!);
    ordered.sort((a, b) => Number(b.deleted_with === b.id) - Number(a.deleted_with === a.id));
    const group = (i: q.ItemRow) => i.deleted_with ?? i.id;
    // What comes back with the selection's groups; a selected item among it (a selected folder
    // above it brings it back with its group) is not restored on its own.
    const returning = await sets.groupMembers(tx, ordered.map((i) => ({ id: i.id, group: group(i) })));
    const roots = ordered.filter((i) => !returning.has(i.id));
    // That first, where it was: its names are then taken when the roots look for free ones.
    await sets.untrash(tx, [...returning], at);
    // Where each root goes: its folder if that is live or comes back now, else home.
    const rootIds = new Set(roots.map((i) => i.id));
    const parents = new Map((await sets.findItems(tx, roots.flatMap((i) => (i.parent_id ? [i.parent_id] : [])))).map((p) => [p.id, p]));
    const destination = (i: q.ItemRow) => {
      if (toHome || i.parent_id === null) return null;
      const parent = parents.get(i.parent_id);
      return parent && (parent.deleted_at === null || rootIds.has(parent.id)) ? parent.id : null;
    };
    const targets = roots.map(destination);
    const names = await freeNames(
      roots.map((i, n) => ({ folder: sets.folderKey(targets[n]!), name: i.name, isFile: i.type === 'file' })),
      (pairs) => sets.takenNamePairs(tx, user.id, pairs),
    );
    await sets.place(tx, roots.map((i, n) => ({ id: i.id, parentId: targets[n]!, name: names[n]!, nameKey: nameKey(names[n]!) })), at, true);
  });
  const restored = await reloadAll(ctx, items.map((i) => i.id));
  ctx.events.emit('items.changed', { ownerId: user.id, folderIds: [...items, ...restored].map((i) => i.parent_id), itemIds: items.map((i) => i.id) });
  return restored;
}

export async function reloadAll(ctx: AppContext, ids: string[]): Promise<ItemWithCount[]> {
  const rows = new Map((await sets.findItems(ctx.db, ids)).map((r) => [r.id, r]));
  const counted = await q.withCounts(ctx.db, [...rows.values()].filter((r) => r.deleted_at === null));
  const trashed = await q.withCounts(ctx.db, [...rows.values()].filter((r) => r.deleted_at !== null), true);
  const byId = new Map([...counted, ...trashed].map((r) => [r.id, r]));
  return ids.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
}

/**
 * Deletes for good the trashed items `filter` picks (alias i; `parents` is the same filter with
 * alias p), with their blobs: first trashes live strays below them, then deletes leaves in batches
 * of their own transactions until none is left, so a huge trash never holds the event loop or the
 * database for long and never trips the parent foreign key.
 */
async function deleteTrashed(ctx: AppContext, ownerId: string | null, filter: RawBuilder<unknown>, parents: RawBuilder<unknown>): Promise<{ items: number; blobs: number }> {
  await ctx.db.transaction().execute(async (tx) => {
    if (ownerId) await lockTree(ctx, tx, ownerId);
    await sets.trashStrays(tx, parents);
  });
  let items = 0;
  let blobs = 0;
  for (;;) {
    const doomed = await ctx.db.transaction().execute(async (tx) => {
      if (ownerId) await lockTree(ctx, tx, ownerId);
      const rows = await sets.deleteTrashedLeaves(tx, filter);
      await recordDeletions(tx, blobsOf(rows), ctx.clock.now());
      return rows;
    });
    if (!doomed.length) return { items, blobs };
    const keys = blobsOf(doomed);
    faultPoint(ctx, 'trash-delete-before-blobs');
    await finishDeletions(ctx, keys);
    items += doomed.length;
    blobs += keys.length;
    if (ownerId === null && items === doomed.length) faultPoint(ctx, 'trash-purge-after-batch');
  }
}

/** Empties the user's trash: every trashed item and its blob, for good. */
export async function dumpTrash(ctx: AppContext, user: User): Promise<number> {
  requireUnscoped(user);
  const count = (await deleteTrashed(ctx, user.id, sql`i.owner_id = ${user.id}`, sql`p.owner_id = ${user.id}`)).items;
  ctx.events.emit('items.changed', { ownerId: user.id, folderIds: [], itemIds: [] });
  return count;
}

/** Removes for good what has been in the trash since before `cutoff`, with its blobs. */
export async function purgeTrashedBefore(ctx: AppContext, cutoff: Date): Promise<{ items: number; blobs: number }> {
  const at = cutoff.toISOString();
  return deleteTrashed(ctx, null, sql`i.deleted_at < ${at}`, sql`p.deleted_at < ${at}`);
}
