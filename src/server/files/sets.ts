import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, ItemRow } from './queries.ts';
import { filterOnly } from './access-queries.ts';

/**
 * Item SQL for whole selections: a fixed number of statements whatever the count (recursive CTEs
 * for subtrees, IN lists in chunks), because better-sqlite3 runs every statement on the event loop
 * and a loop of one statement per item held every other request for seconds.
 */

/** Ids per IN list: well under SQLite's and PostgreSQL's parameter limits, even times three. */
export const CHUNK = 500;

export function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Rows per write statement: a few milliseconds each on SQLite (index and search-index upkeep per row). */
export const WRITE_BATCH = 200;
/** Rows per DELETE: dearer per row than an update (the search index and the foreign keys are checked for each). */
const DELETE_BATCH = 100;

/** Lets other requests run between the statements of a long walk (better-sqlite3 is synchronous). */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

const idList = (ids: string[]) => sql.join(ids.map((id) => sql`${id}`));

export async function findItems(db: Db, ids: string[]): Promise<ItemRow[]> {
  const rows: ItemRow[] = [];
  for (const part of chunks([...new Set(ids)])) {
    rows.push(...(await db.selectFrom('items').selectAll().where('id', 'in', part).execute()));
    await yieldToOthers();
  }
  return rows;
}

/** A folder key for name lookups: home is ''. */
export const folderKey = (parentId: string | null) => parentId ?? '';

/**
 * Which (folder, name key) pairs are taken by items outside the trash, answered as `folder/key`
 * strings. IN lists on both columns of the unique name index, so its cost follows the lists, not
 * the folders' sizes; a few rows outside the wanted pairs are dropped here.
 */
export async function takenNamePairs(db: Db, ownerId: string, pairs: { folder: string; key: string }[]): Promise<Set<string>> {
  const wanted = new Set(pairs.map((p) => `${p.folder}/${p.key}`));
  const taken = new Set<string>();
  const folders = [...new Set(pairs.map((p) => p.folder))];
  const keys = [...new Set(pairs.map((p) => p.key))];
  for (const folderPart of chunks(folders, 100)) {
    for (const keyPart of chunks(keys)) {
      const rows = await db
        .selectFrom('items')
        .select(['parent_id', 'name_key'])
        .where('owner_id', '=', ownerId)
        .where(sql`coalesce(parent_id, '')`, 'in', folderPart)
        .where('name_key', 'in', keyPart)
        .where('deleted_at', 'is', null)
        .execute();
      for (const row of rows) {
        const pair = `${folderKey(row.parent_id)}/${row.name_key}`;
        if (wanted.has(pair)) taken.add(pair);
      }
      await yieldToOthers();
    }
  }
  return taken;
}

export interface Placement {
  id: string;
  parentId: string | null;
  name: string;
  nameKey: string;
}

/**
 * Puts each item in its folder under its name (`restore` also clears the trash marks): one
 * UPDATE ... FROM (VALUES ...) per chunk, which both databases read alike (the VALUES columns are
 * column1, column2, ...).
 */
export async function place(db: Db, placements: Placement[], at: string, restore: boolean): Promise<void> {
  for (const part of chunks(placements, WRITE_BATCH)) {
    const values = sql.join(part.map((p) => sql`(${p.id}, ${p.parentId}, ${p.name}, ${p.nameKey})`));
    const trash: RawBuilder<unknown> = restore ? sql`, deleted_at = null, deleted_with = null` : sql``;
    await sql`update items set parent_id = v.column2, name = v.column3, name_key = v.column4, updated_at = ${at}${trash}
      from (values ${values}) as v where items.id = v.column1`.execute(db);
    await yieldToOthers();
  }
}

/**
 * What lies below the roots, one level per entry, read up to CHUNK parents at a time (`children`
 * answers the children that count of the parents it is given); each id once, at the first level
 * it is reached. A root below another root is left out, unless `rootsBelow` keeps it.
 */
export async function levelsBelow<T extends { id: string }>(roots: T[], children: (parents: T[]) => Promise<T[]>, rootsBelow = false): Promise<T[][]> {
  const seen = new Set(rootsBelow ? [] : roots.map((r) => r.id));
  const levels: T[][] = [];
  let frontier = roots;
  while (frontier.length) {
    const level: T[] = [];
    for (const part of chunks(frontier)) {
      for (const child of await children(part)) {
        if (seen.has(child.id)) continue;
        seen.add(child.id);
        level.push(child);
      }
      await yieldToOthers();
    }
    if (level.length) levels.push(level);
    frontier = level;
  }
  return levels;
}

/** Rows per read of a long listing. */
const PAGE = 2000;

/**
 * The live children of these folders. One read when they are few; a folder with many is read a
 * page at a time in the order of the index of live rows (owner, parent, type, created_at, id), so
 * no read holds the event loop long whatever the folder's size.
 */
async function liveChildren(db: Db, ownerId: string, parentIds: string[]): Promise<{ id: string }[]> {
  const live = () => db.selectFrom('items').select(['id', 'type', 'created_at']).where('owner_id', '=', ownerId).where('deleted_at', 'is', null);
  // The parents' ids lead (their index); SQLite otherwise walked every live row of the owner to find them (seconds in a million-item account).
  const few = await db
    .selectFrom('items')
    .select(['id', 'type', 'created_at'])
    .where(sql<SqlBool>`${filterOnly(db, 'owner_id')} = ${ownerId}`)
    .where(sql<SqlBool>`${filterOnly(db, 'deleted_at')} is null`)
    .where('parent_id', 'in', parentIds)
    .limit(PAGE)
    .execute();
  if (few.length < PAGE) return few;
  const out: { id: string }[] = [];
  for (const parentId of parentIds) {
    for (let after: { id: string; type: string; created_at: string } | undefined; ; ) {
      let query = live().where('parent_id', '=', parentId);
      if (after) query = query.where(sql<SqlBool>`(type, created_at, id) > (${after.type}, ${after.created_at}, ${after.id})`);
      const rows = await query.orderBy('type').orderBy('created_at').orderBy('id').limit(PAGE).execute();
      out.push(...rows);
      await yieldToOthers();
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1];
    }
  }
  return out;
}

/**
 * Trashes the roots (each its own group) and everything live below them, in the group of the
 * nearest root: the live subtree is read first (through the index of live rows), then written a
 * level at a time, each item taking its parent's group.
 */
export async function trashTrees(db: Db, ownerId: string, rootIds: string[], at: string): Promise<void> {
  const levels = await levelsBelow(
    rootIds.map((id) => ({ id })),
    (parents) => liveChildren(db, ownerId, parents.map((p) => p.id)),
  );
  for (const part of chunks(rootIds, WRITE_BATCH)) {
    await db.updateTable('items').set((eb) => ({ deleted_at: at, deleted_with: eb.ref('id'), updated_at: at })).where('id', 'in', part).where(sql<SqlBool>`${filterOnly(db, 'deleted_at')} is null`).execute();
    await yieldToOthers();
  }
  for (const level of levels) {
    for (const part of chunks(level.map((r) => r.id), WRITE_BATCH)) {
      await sql`update items set deleted_at = ${at}, updated_at = ${at},
        deleted_with = (select p.deleted_with from items p where p.id = items.parent_id) where id in (${idList(part)}) and ${filterOnly(db, 'items.deleted_at')} is null`.execute(db);
      await yieldToOthers();
    }
  }
}

/** The ids below the roots trashed in each root's group: what restoring the roots brings back. */
export async function groupMembers(db: Db, roots: { id: string; group: string }[]): Promise<Set<string>> {
  const levels = await levelsBelow(roots, async (parents) => {
    const values = sql.join(parents.map((p) => sql`(${p.id}, ${p.group})`));
    const { rows } = await sql<{ id: string; grp: string }>`select c.id as id, v.column2 as grp from items c join (values ${values}) as v on c.parent_id = v.column1
      where c.deleted_with = v.column2`.execute(db);
    return rows.map((r) => ({ id: r.id, group: r.grp }));
  }, true);
  return new Set(levels.flat().map((r) => r.id));
}

/** Takes rows out of the trash where they are. */
export async function untrash(db: Db, ids: string[], at: string): Promise<void> {
  for (const part of chunks(ids, WRITE_BATCH)) {
    await db.updateTable('items').set({ deleted_at: null, deleted_with: null, updated_at: at }).where('id', 'in', part).execute();
    await yieldToOthers();
  }
}

/** A file's blobs: its bytes and its thumbnails, if made. */
export function blobKeysOf(rows: { blob_key: string | null; thumbnail_key: string | null }[], thumbnails: (key: string | null) => string[]): string[] {
  return rows.filter((r) => r.blob_key !== null).flatMap((r) => [r.blob_key!, ...thumbnails(r.thumbnail_key)]);
}

/** Deletes rows (children before their parents are the caller's to order) with their favourites. */
export async function deleteRows(db: Db, ids: string[]): Promise<void> {
  for (const part of chunks(ids, DELETE_BATCH)) {
    await db.deleteFrom('favourites').where('item_id', 'in', part).execute();
    await db.deleteFrom('items').where('id', 'in', part).execute();
    await yieldToOthers();
  }
}

export interface DoomedRow {
  id: string;
  blob_key: string | null;
  thumbnail_key: string | null;
}

/**
 * The roots and everything below them, trashed or not, one level per entry (the roots first):
 * deleting the levels deepest first never leaves a row pointing at a deleted parent.
 */
export async function subtreeLevels(db: Db, rootIds: string[]): Promise<DoomedRow[][]> {
  const roots = (await findItems(db, rootIds)).map(({ id, blob_key, thumbnail_key }) => ({ id, blob_key, thumbnail_key }));
  const below = await levelsBelow(roots, (parents) =>
    db.selectFrom('items').select(['id', 'blob_key', 'thumbnail_key']).where('parent_id', 'in', parents.map((p) => p.id)).execute(),
  );
  return [roots, ...below];
}

/**
 * Trashes live items left below trashed folders, with their folder's trash marks, so the trash is
 * closed under descendants again (such rows came from a move racing a trash before both took the
 * owner's lock; they were invisible at home and in the trash). `parents` filters the trashed
 * folders (alias p). Bounded batches; answers how many rows it trashed.
 */
export async function trashStrays(db: Db, parents: RawBuilder<unknown>): Promise<number> {
  for (let total = 0; ; ) {
    const { rows } = await sql<{ id: string; deleted_at: string; deleted_with: string | null }>`
      select c.id as id, p.deleted_at as deleted_at, p.deleted_with as deleted_with from items p join items c on c.parent_id = p.id
      where p.deleted_at is not null and ${parents} and c.deleted_at is null limit ${WRITE_BATCH}`.execute(db);
    if (!rows.length) return total;
    const values = sql.join(rows.map((r) => sql`(${r.id}, ${r.deleted_at}, ${r.deleted_with})`));
    await sql`update items set deleted_at = v.column2, deleted_with = v.column3 from (values ${values}) as v where items.id = v.column1`.execute(db);
    total += rows.length;
    await yieldToOthers();
  }
}

/**
 * Deletes up to DELETE_BATCH trashed items matching `filter` (alias i) with nothing below them, and
 * answers them. One statement that checks again what it deletes, so a row restored or given a
 * child meanwhile (PostgreSQL, read committed) stays; favourites go with the rows (cascade).
 */
export async function deleteTrashedLeaves(db: Db, filter: RawBuilder<unknown>): Promise<DoomedRow[]> {
  const { rows } = await sql<DoomedRow>`delete from items where deleted_at is not null
    and not exists (select 1 from items c where c.parent_id = items.id)
    and id in (select i.id from items i where i.deleted_at is not null and ${filter} and not exists (select 1 from items c where c.parent_id = i.id) limit ${DELETE_BATCH})
    returning id, blob_key, thumbnail_key`.execute(db);
  return rows;
}
