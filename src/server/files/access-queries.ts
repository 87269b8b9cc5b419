import { sql, SqliteAdapter, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, ItemRow } from './queries.ts';

/**
 * The access module's SQL, Kysely only: one statement for any number of ids. The ids travel as one
 * array parameter (no IN list to chunk, no parameter limit); a scope is one recursive walk up from the asked items to the scope's root.
 */

/**
 * `column` is one of the ids: on PostgreSQL `= any` of one text[] parameter (an index lookup per
 * id), on SQLite `in` the rows of one JSON array parameter (json_each). One statement text whatever
 * the number of ids, so the prepared statement is reused (an `in (?, ?, ...)` list is a new
 * statement for every length, prepared afresh).
 */
export function idIn(db: Db, column: RawBuilder<unknown>, ids: string[]): RawBuilder<SqlBool> {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? sql<SqlBool>`${column} in (select value from json_each(${JSON.stringify(ids)}))`
    : sql<SqlBool>`${column} = any(cast(${ids} as text[]))`;
}

/**
 * A column SQLite must not pick an index for (the unary plus): the ids are looked up by primary key
 * and these only filter. Left to itself, SQLite walked the owner's index (or the live items') and
 * checked each row against the ids, 5 ms for 10 ids among 10,000 items and growing with the account.
 */
export function filterOnly(db: Db, column: string): RawBuilder<unknown> {
  return db.getExecutor().adapter instanceof SqliteAdapter ? sql`+${sql.ref(column)}` : sql.ref(column);
}

/** A row the principal may see, and whether its scope lets the holder change it (always for the owner). */
export type VisibleRow = ItemRow & { changeable: number | string };

/**
 * The owner's items among `ids`. With a scope (`rootId`), only the live ones at or below the root,
 * found by walking up from each asked item and stopping at the root; `changeable` is 1 when the
 * item or a folder above it (below the root) is among the ids `changeableIds` selects, or when no
 * such restriction is given. Ids not answered are missing, someone else's or outside the scope.
 */
export async function visibleItems(
  db: Db,
  ownerId: string,
  ids: string[],
  scope?: { rootId: string; changeableIds?: Expression<unknown> | undefined; member?: { userId: string; teamId: string } | undefined },
): Promise<VisibleRow[]> {
  if (!ids.length) return [];
  if (!scope) {
    const { rows } = await sql<VisibleRow>`select items.*, 1 as changeable from items
      where ${filterOnly(db, 'items.owner_id')} = ${ownerId} and ${idIn(db, sql.ref('items.id'), ids)}`.execute(db);
    return rows;
  }
  const root = scope.rootId;
  const changeable = scope.changeableIds
    ? sql`case when exists (select 1 from up c where c.start = items.id and c.id <> ${root} and c.id in (${scope.changeableIds})) then 1 else 0 end`
    : sql`1`;
  // A member's scope holds only while the membership does (and the team still has that folder).
  const member = scope.member
    ? sql`and exists (select 1 from team_members m join teams t on t.id = m.team_id
        where m.team_id = ${scope.member.teamId} and m.user_id = ${scope.member.userId} and t.folder_id = ${root} and t.owner_id = ${ownerId})`
    : sql``;
  const { rows } = await sql<VisibleRow>`
    with recursive up(start, id, parent_id) as (
      select i.id, i.id, i.parent_id from items i
        where ${idIn(db, sql.ref('i.id'), ids)} and ${filterOnly(db, 'i.owner_id')} = ${ownerId} and ${filterOnly(db, 'i.deleted_at')} is null ${member}
      union all
      select up.start, p.id, p.parent_id from up join items p on p.id = up.parent_id where up.id <> ${root}
    )
    select items.*, ${changeable} as changeable from items
      where items.id in (select up.start from up where up.id = ${root})`.execute(db);
  return rows;
}

/** A team folder above (or at) an asked item that `userId` is a member of. */
export interface TeamRootRow {
  start: string;
  team_id: string;
  folder_id: string;
  owner_id: string;
  permission: 'can_edit' | 'can_view';
}

/** Whether any of `ids` is `userId`'s own item (in the trash or not): one lookup by id, no walk. */
export async function ownsAnyOf(db: Db, userId: string, ids: string[]): Promise<boolean> {
  if (!ids.length) return false;
  const { rows } = await sql<{ one: number }>`select 1 as one from items
    where ${idIn(db, sql.ref('items.id'), ids)} and ${filterOnly(db, 'items.owner_id')} = ${userId} limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * For each of `ids` that is not `userId`'s own, the team folder at or above it whose member
 * `userId` is, with the permission: one walk up from all the ids. Own ids answer with
 * `owner_id = userId` and no team (team_id null) so the caller sees them too.
 */
export async function teamRootsOf(db: Db, userId: string, ids: string[]): Promise<(Omit<TeamRootRow, 'team_id' | 'folder_id' | 'permission'> & Partial<TeamRootRow>)[]> {
  if (!ids.length) return [];
  const { rows } = await sql<TeamRootRow>`
    with recursive up(start, id, parent_id, owner_id) as (
      select i.id, i.id, i.parent_id, i.owner_id from items i
        where ${idIn(db, sql.ref('i.id'), ids)} and ${filterOnly(db, 'i.deleted_at')} is null
      union all
      select up.start, p.id, p.parent_id, up.owner_id from up join items p on p.id = up.parent_id
        where up.owner_id <> ${userId}
    )
    select up.start, t.id as team_id, t.folder_id, up.owner_id, m.permission from up
      join teams t on t.folder_id = up.id and t.owner_id = up.owner_id
      join team_members m on m.team_id = t.id and m.user_id = ${userId}
    union all
    select i.id as start, null, null, i.owner_id, null from items i
      where ${idIn(db, sql.ref('i.id'), ids)} and ${filterOnly(db, 'i.owner_id')} = ${userId}`.execute(db);
  return rows;
}
