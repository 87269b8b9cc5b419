import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { notFound, validationError } from '../http/errors.ts';
import { actorFor } from '../teams/actor.ts';
import { accessTo, requireTargetFolder } from './access.ts';
import { AppError } from '../http/errors.ts';
import { freeNames } from './free-names.ts';
import { nameKey } from './names.ts';
import * as q from './queries.ts';
import type { ItemWithCount } from './queries.ts';
import * as sets from './sets.ts';
import { lockTree, reloadAll, requireAll, type ItemRef } from './trash.ts';

/**
 * Moves items into a folder (null: home, or a scope's root); clashing names become `name (n)`.
 * A fixed number of statements for the whole selection: one check of all ids, one walk up from
 * the target, the clashes of all names at once, one UPDATE per chunk.
 */
export async function moveItems(ctx: AppContext, signedIn: User, toId: string | null, refs: ItemRef[]): Promise<ItemWithCount[]> {
  // A team member moves only inside the team folder: a target outside it is refused, not looked for.
  const user = await actorFor(ctx, signedIn, refs.map((r) => r.id));
  if (user.scope?.member && (toId === null || !(await accessTo(ctx.db, user, [toId])).has(toId))) {
    throw new AppError(403, 'Items cannot be moved out of the team folder.', { code: 'team_move_out' });
  }
  const target = await requireTargetFolder(ctx, user, toId, 'to_id');
  const items = await requireAll(ctx, user, refs, false);
  const targetId = target?.id ?? null;
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    // The checks that matter run inside the transaction, with one owner's tree changes serialised
    // (SQLite has a single writer; PostgreSQL takes the per-owner advisory lock that trash,
    // restore, create and upload take too): two opposite moves cannot both pass and leave a cycle,
    // and a target trashed meanwhile refuses the move instead of hiding what lands in it.
    await lockTree(ctx, tx, user.id);
    if (targetId) {
      const folder = await q.findItem(tx, targetId);
      if (!folder || folder.deleted_at !== null) throw notFound('The item was not found.');
      const lineage = new Set(await q.selfAndAncestorIds(tx, targetId));
      const [index, looped] = [...items.entries()].find(([, item]) => lineage.has(item.id)) ?? [];
      if (looped) throw validationError({ to_id: [`"${looped.name}" cannot be moved into itself or a folder inside it.`], [`items.${index}.id`]: ['Cannot move a folder into itself.'] });
    }
    // Items trashed meanwhile stay where they are, in the trash.
    const fresh = new Map((await sets.findItems(tx, items.map((i) => i.id))).map((i) => [i.id, i]));
    const moving = items.map((i) => fresh.get(i.id)).filter((i) => i !== undefined && i.deleted_at === null && i.parent_id !== targetId).map((i) => i!);
    const folder = sets.folderKey(targetId);
    const names = await freeNames(
      moving.map((item) => ({ folder, name: item.name, isFile: item.type === 'file' })),
      (pairs) => sets.takenNamePairs(tx, user.id, pairs),
    );
    await sets.place(tx, moving.map((item, n) => ({ id: item.id, parentId: targetId, name: names[n]!, nameKey: nameKey(names[n]!) })), at, false);
  });
  ctx.events.emit('items.changed', { ownerId: user.id, folderIds: [targetId, ...items.map((i) => i.parent_id)], itemIds: items.map((i) => i.id) });
  return reloadAll(ctx, items.map((i) => i.id));
}
