import type { TeamPermission } from '../../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { nameKey } from '../files/names.ts';
import * as q from '../files/queries.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { resolvePath, type Resolved } from './paths.ts';

/** The collection under /dav/ that holds the team folders the account is a member of. */
export const TEAM_FOLDERS = 'Team folders';

export interface TeamFolder {
  item: ItemWithCount;
  ownerId: string;
  permission: TeamPermission;
}

/**
 * A /dav/ path found: the item (null for a collection that is no item: the home folder or
 * `Team folders`; undefined when nothing is there), where a new item of that name would go, and
 * the namespace locks are kept in: the account whose items these are and the path as that
 * account sees it (a team folder's items are its owner's, so every member and the owner share
 * the same locks).
 */
export interface Located extends Resolved {
  /** `own`: the account's own files; `teams`: `Team folders` or a name directly in it that is no team folder; `team`: in a team folder. */
  kind: 'own' | 'teams' | 'team';
  /** The account whose items these are (and whose namespace the locks are in). */
  ownerId: string;
  /** The path's names as `ownerId` sees them. */
  ownerSegments: string[];
  /** The team folder itself: it may be read and written in, not changed (SPEC §4). */
  teamRoot: boolean;
}

/** The live team folders the account is a member of, by name (a second one with a name already taken is left out). */
export async function teamFoldersOf(ctx: AppContext, userId: string): Promise<TeamFolder[]> {
  const rows = await ctx.db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .innerJoin('items', 'items.id', 't.folder_id')
    .select(['items.id as id', 't.owner_id as owner_id', 'm.permission as permission'])
    .where('m.user_id', '=', userId)
    .where('items.deleted_at', 'is', null)
    .orderBy('items.name_key')
    .orderBy('items.id')
    .execute();
  const seen = new Set<string>();
  const folders: TeamFolder[] = [];
  for (const row of rows) {
    const item = await q.findItemWithCount(ctx.db, row.id);
    if (!item || seen.has(item.name_key)) continue;
    seen.add(item.name_key);
    folders.push({ item, ownerId: row.owner_id, permission: row.permission });
  }
  return folders;
}

/** `Team folders` is there when the account is a member of a team and has no item of that name in its home. */
export async function teamFoldersShown(ctx: AppContext, userId: string): Promise<TeamFolder[] | null> {
  if (await q.findTypedByNameKey(ctx.db, userId, null, nameKey(TEAM_FOLDERS))) return null;
  const folders = await teamFoldersOf(ctx, userId);
  return folders.length ? folders : null;
}

/** The names from the owner's home down to the item. */
async function ownerPathOf(ctx: AppContext, item: ItemWithCount): Promise<string[]> {
  const names = [item.name];
  let parentId = item.parent_id;
  for (let hops = 0; parentId && hops < 1000; hops += 1) {
    const parent = await q.findItem(ctx.db, parentId);
    if (!parent) break;
    names.unshift(parent.name);
    parentId = parent.parent_id;
  }
  return names;
}

/** Finds a /dav/ path of the account: its own files, or `Team folders/<team folder>/…`. */
export async function locate(ctx: AppContext, userId: string, segments: string[]): Promise<Located> {
  const own = (): Promise<Located> => resolvePath(ctx, userId, segments).then((r) => ({ ...r, kind: 'own', ownerId: userId, ownerSegments: segments, teamRoot: false }));
  if (!segments.length || nameKey(segments[0]!) !== nameKey(TEAM_FOLDERS)) return own();
  const teams = await teamFoldersShown(ctx, userId);
  if (!teams) return own();
  const virtual = { kind: 'teams' as const, ownerId: userId, ownerSegments: segments, teamRoot: false };
  if (segments.length === 1) return { ...virtual, item: null, parentId: null, name: TEAM_FOLDERS };
  const team = teams.find((t) => t.item.name_key === nameKey(segments[1]!));
  if (!team) return { ...virtual, item: undefined, parentId: undefined, name: segments.at(-1)! };
  const ownerSegments = [...(await ownerPathOf(ctx, team.item)), ...segments.slice(2)];
  const base = { kind: 'team' as const, ownerId: team.ownerId, ownerSegments, teamRoot: segments.length === 2 };
  if (segments.length === 2) return { ...base, item: team.item, parentId: team.item.parent_id, name: team.item.name };
  let parentId = team.item.id;
  for (const [index, name] of segments.slice(2).entries()) {
    const found = await q.findTypedByNameKey(ctx.db, team.ownerId, parentId, nameKey(name));
    if (index === segments.length - 3) return { ...base, item: found ? await q.findItemWithCount(ctx.db, found.id) : undefined, parentId, name };
    if (found?.type !== 'folder') return { ...base, item: undefined, parentId: undefined, name };
    parentId = found.id;
  }
  throw new Error('unreachable');
}
