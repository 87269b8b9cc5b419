import { sql, SqliteAdapter, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, ItemRow } from './queries.ts';

/**
 * The access module's SQL, Kysely only: one statement for any number of ids. The ids travel as one
 * array parameter (no IN list to chunk, no parameter limit); a scope is one recursive walk up from the asked items to the scope's root.
 */

/**
 * `column` is one of the ids: on PostgreSQL `= any` of one text[] parameter (an index lookup per
 * id), on SQLite `in` the rows of one JSON array parameter (json_each).
 */
function idIn(db: Db, column: RawBuilder<unknown>, ids: string[]): RawBuilder<SqlBool> {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? sql<SqlBool>`${column} in (select value from json_each(${JSON.stringify(ids)}))`
    : sql<SqlBool>`${column} = any(cast(${ids} as text[]))`;
}

/** A row the principal may see, and whether its scope lets the holder change it (always for the owner). */
export type VisibleRow = ItemRow & { changeable: number | string };

/**
 * The owner's items among `ids`. With a scope (`rootId`), only the live ones at or below the root,
 * found by walking up from each asked item and stopping at the root; `changeable` is 1 when the
 * item or a folder above it (below the root) is among the ids `changeableIds` selects, or when no
 * such restriction is given. Ids not answered are missing, someone else's or outside the scope.
 */
export async function visibleItems(db: Db, ownerId: string, ids: string[], scope?: { rootId: string; changeableIds?: Expression<unknown> | undefined }): Promise<VisibleRow[]> {
  if (!ids.length) return [];
  if (!scope) {
    const { rows } = await sql<VisibleRow>`select items.*, 1 as changeable from items
      where items.owner_id = ${ownerId} and ${idIn(db, sql.ref('items.id'), ids)}`.execute(db);
    return rows;
  }
  const root = scope.rootId;
  const changeable = scope.changeableIds
    ? sql`case when exists (select 1 from up c where c.start = items.id and c.id <> ${root} and c.id in (${scope.changeableIds})) then 1 else 0 end`
    : sql`1`;
  const { rows } = await sql<VisibleRow>`
    with recursive up(start, id, parent_id) as (
      select i.id, i.id, i.parent_id from items i
        where ${idIn(db, sql.ref('i.id'), ids)} and i.owner_id = ${ownerId} and i.deleted_at is null
      union all
      select up.start, p.id, p.parent_id from up join items p on p.id = up.parent_id where up.id <> ${root}
    )
    select items.*, ${changeable} as changeable from items
      where items.id in (select up.start from up where up.id = ${root})`.execute(db);
  return rows;
}
