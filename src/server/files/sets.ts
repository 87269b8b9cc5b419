import { sql, type RawBuilder } from 'kysely';
import type { Db, ItemRow } from './queries.ts';

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

/** Rows per write statement in a long walk: a few milliseconds each on SQLite. */
export const BATCH = 500;

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

/**
 * Each item's id and its ancestors' ids, nearest first, walking up no further than `stopId` (a
 * scope's root): one recursive walk for the whole selection.
 */
export async function ancestriesUpTo(db: Db, ids: string[], stopId: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const part of chunks(ids)) {
    const { rows } = await sql<{ start: string; id: string }>`
      with recursive up(start, id, parent_id, depth) as (
        select id, id, parent_id, 0 from items where id in (${idList(part)})
        union all
        select up.start, items.id, items.parent_id, up.depth + 1 from items join up on items.id = up.parent_id where up.id <> ${stopId}
      )
      select start, id from up order by start, depth`.execute(db);
    for (const row of rows) out.set(row.start, [...(out.get(row.start) ?? []), row.id]);
    await yieldToOthers();
  }
  return out;
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
 * Puts each item in its folder under its name, clearing `extra` columns as given (a restore clears
 * the trash marks): one UPDATE ... FROM (VALUES ...) per chunk, which both databases read alike
 * (the VALUES columns are column1, column2, ...).
 */
export async function place(db: Db, placements: Placement[], at: string, restore: boolean): Promise<void> {
  for (const part of chunks(placements, 250)) {
    const values = sql.join(part.map((p) => sql`(${p.id}, ${p.parentId}, ${p.name}, ${p.nameKey})`));
    const trash: RawBuilder<unknown> = restore ? sql`, deleted_at = null, deleted_with = null` : sql``;
    await sql`update items set parent_id = v.column2, name = v.column3, name_key = v.column4, updated_at = ${at}${trash}
      from (values ${values}) as v where items.id = v.column1`.execute(db);
    await yieldToOthers();
  }
}

/**
 * Walks down from `roots` one level at a time. `step` handles at most BATCH children of the
 * parents it is given that still need handling, and answers them; since what it handled no longer
 * matches, it runs again until it answers less than a full batch. Every statement is bounded and
 * the event loop is free between them, whatever the size of the subtree.
 */
export async function walkDown<T>(roots: T[], step: (parents: T[]) => Promise<T[]>): Promise<void> {
  let frontier = roots;
  while (frontier.length) {
    const below: T[] = [];
    for (const part of chunks(frontier, BATCH)) {
      for (;;) {
        const handled = await step(part);
        below.push(...handled);
        await yieldToOthers();
        if (handled.length < BATCH) break;
      }
    }
    frontier = below;
  }
}

/**
 * Trashes the roots (each its own group) and everything live below them, the group of the nearest
 * root: a root's row names itself, each item below takes its parent's group, top down.
 */
export async function trashTrees(db: Db, rootIds: string[], at: string): Promise<void> {
  for (const part of chunks(rootIds)) {
    await db.updateTable('items').set((eb) => ({ deleted_at: at, deleted_with: eb.ref('id'), updated_at: at })).where('id', 'in', part).where('deleted_at', 'is', null).execute();
    await yieldToOthers();
  }
  await walkDown(rootIds, async (parents) => {
    const rows = await db.selectFrom('items').select('id').where('parent_id', 'in', parents).where('deleted_at', 'is', null).limit(BATCH).execute();
    const ids = rows.map((r) => r.id);
    if (ids.length) {
      await sql`update items set deleted_at = ${at}, updated_at = ${at},
        deleted_with = (select p.deleted_with from items p where p.id = items.parent_id) where id in (${idList(ids)})`.execute(db);
    }
    return ids;
  });
}

/** Restores, below each root, what was trashed in the root's group (`group`), top down. */
export async function restoreGroupsBelow(db: Db, roots: { id: string; group: string }[], at: string): Promise<void> {
  await walkDown(roots, async (parents) => {
    const values = sql.join(parents.map((p) => sql`(${p.id}, ${p.group})`));
    const { rows } = await sql<{ id: string; grp: string }>`select c.id as id, v.column2 as grp from items c join (values ${values}) as v on c.parent_id = v.column1
      where c.deleted_with = v.column2 limit ${BATCH}`.execute(db);
    if (rows.length) await db.updateTable('items').set({ deleted_at: null, deleted_with: null, updated_at: at }).where('id', 'in', rows.map((r) => r.id)).execute();
    return rows.map((r) => ({ id: r.id, group: r.grp }));
  });
}

/** A file's blobs: its bytes and its thumbnails, if made. */
export function blobKeysOf(rows: { blob_key: string | null; thumbnail_key: string | null }[], thumbnails: (key: string | null) => string[]): string[] {
  return rows.filter((r) => r.blob_key !== null).flatMap((r) => [r.blob_key!, ...thumbnails(r.thumbnail_key)]);
}

/** Deletes rows (children before their parents are the caller's to order) with their favourites. */
export async function deleteRows(db: Db, ids: string[]): Promise<void> {
  for (const part of chunks(ids, BATCH)) {
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
  const levels = [roots];
  let frontier = roots.map((r) => r.id);
  while (frontier.length) {
    const level: DoomedRow[] = [];
    for (const part of chunks(frontier, BATCH)) {
      // Reading changes nothing, so the batches page by id.
      for (let after = ''; ; ) {
        const rows = await db.selectFrom('items').select(['id', 'blob_key', 'thumbnail_key']).where('parent_id', 'in', part).where('id', '>', after).orderBy('id').limit(BATCH).execute();
        level.push(...rows);
        await yieldToOthers();
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1]!.id;
      }
    }
    if (level.length) levels.push(level);
    frontier = level.map((r) => r.id);
  }
  return levels;
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
      where p.deleted_at is not null and ${parents} and c.deleted_at is null limit ${BATCH}`.execute(db);
    if (!rows.length) return total;
    const values = sql.join(rows.map((r) => sql`(${r.id}, ${r.deleted_at}, ${r.deleted_with})`));
    await sql`update items set deleted_at = v.column2, deleted_with = v.column3 from (values ${values}) as v where items.id = v.column1`.execute(db);
    total += rows.length;
    await yieldToOthers();
  }
}

/** Up to BATCH trashed items matching `filter` (alias i) with nothing below them. */
export async function trashedLeaves(db: Db, filter: RawBuilder<unknown>): Promise<DoomedRow[]> {
  const { rows } = await sql<DoomedRow>`select i.id as id, i.blob_key as blob_key, i.thumbnail_key as thumbnail_key from items i
    where i.deleted_at is not null and ${filter} and not exists (select 1 from items c where c.parent_id = i.id) limit ${BATCH}`.execute(db);
  return rows;
}
