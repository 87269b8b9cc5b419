import { sql, SqliteAdapter, type Expression, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, type SqlBool, type Updateable } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { Database, ItemsTable } from '../../../db/schema.ts';

/** Item SQL, Kysely only. Every function takes the db or a transaction; none reads a request. */

export type Db = Kysely<Database>;
export type ItemRow = Selectable<ItemsTable>;
/** A row with the number of children (for folders), as the presenter shows it. */
export type ItemWithCount = ItemRow & { children: number };

/** `deleted_at` orders the trash by when things went there (outside the trash every row has the same null). */
export const SORT_FIELDS = ['created_at', 'updated_at', 'deleted_at', 'name', 'size', 'type'] as const;
/** The trash also sorts by where things were: their folder's path (locations.ts). */
export const TRASH_SORT_FIELDS = [...SORT_FIELDS, 'location'] as const;
export type SortField = (typeof TRASH_SORT_FIELDS)[number];
export type Direction = 'asc' | 'desc';
export interface Sort {
  field: SortField;
  direction: Direction;
}
/** Where the previous page ended: the row's type, sort value and id. */
export type Cursor = [string, string | number, string];

type ItemsEb = ExpressionBuilder<Database, 'items'>;

const SORT_COLUMN: Record<Exclude<SortField, 'location'>, (eb: ItemsEb) => Expression<string | number>> = {
  created_at: (eb) => eb.ref('items.created_at'),
  updated_at: (eb) => eb.ref('items.updated_at'),
  deleted_at: (eb) => eb.fn.coalesce('items.deleted_at', sql<string>`''`),
  name: (eb) => eb.ref('items.name_key'),
  size: (eb) => eb.ref('items.size'),
  type: (eb) => eb.fn.coalesce('items.mimetype', sql<string>`''`),
};

function selectItems(db: Db) {
  return db.selectFrom('items').selectAll('items');
}

/**
 * Adds each folder's number of children (in the trash with it when `trashed`, else outside it).
 * Outside the trash it is the kept count (`live_children`, kept by triggers); the trash's is one
 * grouped query for the rows at hand, not a subquery per row of the whole folder.
 */
export async function withCounts(db: Db, rows: ItemRow[], trashed = false): Promise<ItemWithCount[]> {
  if (!trashed && rows.every((r) => typeof r.live_children === 'number')) return rows.map((r) => ({ ...r, children: r.type === 'folder' ? r.live_children : 0 }));
  const counts = new Map<string, number>();
  // Children share their folder's owner: naming it lets the (owner_id, parent_id, ...) index answer.
  const byOwner = new Map<string, string[]>();
  for (const r of rows) if (r.type === 'folder') byOwner.set(r.owner_id, [...(byOwner.get(r.owner_id) ?? []), r.id]);
  for (const [ownerId, folders] of byOwner) {
    for (let i = 0; i < folders.length; i += 500) {
      const found = await db
        .selectFrom('items')
        .select((eb) => ['parent_id', eb.fn.countAll<number>().as('n')])
        .where('owner_id', '=', ownerId)
        .where('parent_id', 'in', folders.slice(i, i + 500))
        .where('deleted_at', trashed ? 'is not' : 'is', null)
        .groupBy('parent_id')
        .execute();
      for (const row of found) counts.set(row.parent_id!, Number(row.n));
    }
  }
  return rows.map((r) => ({ ...r, children: counts.get(r.id) ?? 0 }));
}

export function findItem(db: Db, id: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findItemWithCount(db: Db, id: string): Promise<ItemWithCount | undefined> {
  const item = await findItem(db, id);
  return item && (await withCounts(db, [item], item.deleted_at !== null))[0];
}

export interface ListOptions {
  sort: Sort;
  limit?: number | undefined;
  after?: Cursor | undefined;
}

/**
 * One folder's items outside the trash (parentId null: home), folders first, then the sort, then id; keyset-paged when
 * `limit` is given (`after` is the last row of the previous page).
 */
export async function listChildren(db: Db, ownerId: string, parentId: string | null, options: ListOptions): Promise<ItemWithCount[]> {
  let query = selectItems(db).where('items.owner_id', '=', ownerId);
  query = parentId === null ? query.where('items.parent_id', 'is', null) : query.where('items.parent_id', '=', parentId);
  query = query.where('items.deleted_at', 'is', null);
  return withCounts(db, await ordered(query, options).execute());
}

/** An item row with the sort key of its location, when the trash is sorted by location. */
export type LocatedRow = ItemRow & { location_key?: string };

/**
 * The trash: at the top (`folderId` null) the items trashed directly, not those trashed with a
 * folder; else a trashed folder's items. Sorted by location, each row carries its `location_key`.
 */
export async function listTrash(db: Db, ownerId: string, folderId: string | null, options: ListOptions): Promise<(ItemWithCount & LocatedRow)[]> {
  // biome-ignore lint/suspicious/noExplicitAny: any selection of items rows; Kysely's builder has no narrower bound
  const inTrash = <Q extends SelectQueryBuilder<Database, 'items', any>>(query: Q): Q => {
    const q = query.where('items.owner_id', '=', ownerId).where('items.deleted_at', 'is not', null);
    return (folderId === null ? q.whereRef('items.deleted_with', '=', 'items.id') : q.where('items.parent_id', '=', folderId)) as Q;
  };
  if (options.sort.field !== 'location') return withCounts(db, await ordered(inTrash(selectItems(db)), options).execute(), true);
  // Each row's key is its folder's path of name keys from home down, '/' before each ('' at home):
  // walked up once per folder the trash's items are in, not once per item (20,000 items in 500
  // folders: 40 ms a page on SQLite instead of 100), then joined to the items and sorted.
  const key = sql<string>`coalesce(loc.key, '')`;
  const query = db
    .withRecursive('loc(start, next, key)', (qb) =>
      qb
        .selectFrom('items as f')
        .where('f.id', 'in', inTrash(qb.selectFrom('items')).select('items.parent_id'))
        .select(['f.id as start', 'f.parent_id as next', sql<string>`'/' || f.name_key`.as('key')])
        .unionAll(qb.selectFrom('loc').innerJoin('items as a', 'a.id', 'loc.next').select(['loc.start', 'a.parent_id as next', sql<string>`'/' || a.name_key || loc.key`.as('key')])),
    )
    .selectFrom('items')
    .leftJoin('loc', (join) => join.onRef('loc.start', '=', 'items.parent_id').on('loc.next', 'is', null))
    .selectAll('items')
    .select(key.as('location_key'));
  return withCounts(db, await inTrash(ordered(query, options, key)).execute(), true);
}

// biome-ignore lint/suspicious/noExplicitAny: any items query, joined or not; Kysely's builder has no narrower bound
function ordered<Q extends SelectQueryBuilder<any, any, any>>(query: Q, { sort, limit, after }: ListOptions, override?: Expression<string>): Q {
  const column = (eb: ItemsEb): Expression<string | number> => override ?? SORT_COLUMN[sort.field as Exclude<SortField, 'location'>](eb);
  const dir = sort.direction;
  let q = query;
  if (after) {
    const [type, value, id] = after;
    const beyond = dir === 'desc' ? '<' : '>';
    // Folders ('folder' > 'file') come first, so the type always runs descending.
    q = q.where((eb: ItemsEb) =>
      eb.or([
        eb('items.type', '<', type as 'file'),
        eb.and([
          eb('items.type', '=', type as 'file'),
          eb.or([eb(column(eb), beyond, value), eb.and([eb(column(eb), '=', value), eb('items.id', beyond, id)])]),
        ]),
      ]),
    ) as Q;
  }
  q = q.orderBy('items.type', 'desc').orderBy((eb: ItemsEb) => column(eb), dir).orderBy('items.id', dir) as Q;
  if (limit) q = q.limit(limit) as Q;
  return q;
}

export function cursorOf(row: LocatedRow, field: SortField): Cursor {
  const value: Record<SortField, string | number> = {
    location: row.location_key ?? '',
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at ?? '',
    name: row.name_key,
    size: row.size,
    type: row.mimetype ?? '',
  };
  return [row.type, value[field], row.id];
}

/** The owner's most recently added files outside the trash. */
export async function listLatestFiles(db: Db, ownerId: string, limit: number): Promise<ItemWithCount[]> {
  const rows = await selectItems(db)
    .where('items.owner_id', '=', ownerId)
    .where('items.type', '=', 'file')
    .where('items.deleted_at', 'is', null)
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(limit)
    .execute();
  return withCounts(db, rows);
}

/** A folder row of the navigation tree, with whether it holds folders of its own (outside the trash). */
export interface TreeFolderRow {
  id: string;
  parent_id: string | null;
  name: string;
  color: string | null;
  emoji: string | null;
  has_folders: number | boolean;
}

/**
 * One level of the navigation tree: the folders outside the trash in `parentId` (null: home), or the
 * folders with these ids (`ids`, a scope's root), by name. Whether each holds folders is an EXISTS
 * on the browse index, so a level costs its own rows and never the subtree below it.
 */
export function listTreeLevel(db: Db, ownerId: string, where: { parentId: string | null } | { ids: string[] }) {
  let query = db
    .selectFrom('items as f')
    .select(['f.id', 'f.parent_id', 'f.name', 'f.color', 'f.emoji'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('items as c')
            .select(sql`1`.as('one'))
            .whereRef('c.owner_id', '=', 'f.owner_id')
            .whereRef('c.parent_id', '=', 'f.id')
            .where('c.type', '=', 'folder')
            .where('c.deleted_at', 'is', null),
        )
        .as('has_folders'),
    )
    .where('f.owner_id', '=', ownerId)
    .where('f.type', '=', 'folder')
    .where('f.deleted_at', 'is', null);
  if ('ids' in where) query = query.where('f.id', 'in', where.ids);
  else query = where.parentId === null ? query.where('f.parent_id', 'is', null) : query.where('f.parent_id', '=', where.parentId);
  return query.orderBy('f.name_key').orderBy('f.id').execute() as Promise<TreeFolderRow[]>;
}

/** The shortest needle the trigram index can serve; shorter ones read the owner's names. */
const TRIGRAM = 3;

/**
 * Items outside the trash whose name contains `needle` (a name key), folders first. The `LIKE`
 * decides; on SQLite the trigram index (migration 20261124150000_search) drives the query: its
 * matches are joined to their rows in that order (CROSS JOIN fixes the order; left to itself SQLite
 * read the owner's rows and looked each up in the matches, 45 ms over 110,000 names whatever the
 * index). On PostgreSQL the pg_trgm index serves the `LIKE` itself.
 */
export async function searchByName(db: Db, ownerId: string, needle: string, limit: number): Promise<ItemWithCount[]> {
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = sql<SqlBool>`items.name_key like ${pattern} escape '\\'`;
  let rows: ItemRow[];
  if (db.getExecutor().adapter instanceof SqliteAdapter && [...needle].length >= TRIGRAM) {
    const phrase = `"${needle.replaceAll('"', '""')}"`;
    const found = await sql<ItemRow>`select items.* from items_fts cross join items_search s on s.id = items_fts.rowid cross join items on items.id = s.item_id
      where items_fts match ${phrase} and items.owner_id = ${ownerId} and items.deleted_at is null and ${like}
      order by items.type desc, items.name_key, items.id limit ${limit}`.execute(db);
    rows = found.rows;
  } else {
    rows = await selectItems(db)
      .where('items.owner_id', '=', ownerId)
      .where('items.deleted_at', 'is', null)
      .where(like)
      .orderBy('items.type', 'desc')
      .orderBy('items.name_key')
      .orderBy('items.id')
      .limit(limit)
      .execute();
  }
  return withCounts(db, rows);
}

/**
 * Which of these name keys are taken in one folder (outside the trash). An equality lookup on the
 * unique name index (its `coalesce(parent_id, '')` included), so its cost does not grow with the folder.
 * The `order by` is what makes SQLite take that index: without statistics it judges a list of keys
 * dearer than `items_owner_deleted (owner_id, deleted_at)` and walked all the owner's live items
 * (0.45 ms a lookup at 3,000 files, growing with them); the index gives the order for free.
 */
export async function takenNameKeys(db: Db, ownerId: string, parentId: string | null, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('items')
    .select('name_key')
    .where('owner_id', '=', ownerId)
    .where(sql<SqlBool>`coalesce(parent_id, '') = ${parentId ?? ''}`)
    .where('name_key', 'in', keys)
    .where('deleted_at', 'is', null)
    .orderBy('name_key')
    .execute();
  return new Set(rows.map((r) => r.name_key));
}

/** Whether one name key is taken in one folder (outside the trash): takenNameKeys of one key, compiled once (an upload's name). */
export async function nameKeyTaken(db: Db, ownerId: string, parentId: string | null, key: string): Promise<boolean> {
  return (await nameKeyHolder(db, ownerId, parentId ?? '', key)).rows.length > 0;
}

const nameKeyHolder = compiledOnce((db, ownerId: string, folder: string, key: string) =>
  db
    .selectFrom('items')
    .select('name_key')
    .where('owner_id', '=', ownerId)
    .where(sql<SqlBool>`coalesce(parent_id, '') = ${folder}`)
    .where('name_key', '=', key)
    .where('deleted_at', 'is', null),
);

/** The id of an item outside the trash in that folder with that name key, if any. */
export async function findByNameKey(db: Db, ownerId: string, parentId: string | null, key: string): Promise<string | undefined> {
  let query = db.selectFrom('items').select('id').where('owner_id', '=', ownerId).where('deleted_at', 'is', null).where('name_key', '=', key);
  query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
  return (await query.executeTakeFirst())?.id;
}

/** The file item holding this blob, if one was recorded (an upload's finish looks for its own). */
export async function findFileByBlobKey(db: Db, blobKey: string): Promise<ItemWithCount | undefined> {
  const row = await db.selectFrom('items').select('id').where('blob_key', '=', blobKey).executeTakeFirst();
  return row ? findItemWithCount(db, row.id) : undefined;
}

/** The item outside the trash in that folder with that name key, with its type, if any. */
export async function findTypedByNameKey(db: Db, ownerId: string, parentId: string | null, key: string): Promise<Pick<ItemRow, 'id' | 'type'> | undefined> {
  let query = db.selectFrom('items').select(['id', 'type']).where('owner_id', '=', ownerId).where('deleted_at', 'is', null).where('name_key', '=', key);
  query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
  return query.executeTakeFirst();
}

/** PostgreSQL: holds one owner's tree changes in line until the transaction ends. */
export async function lockOwnerTree(tx: Db, ownerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${ownerId}))`.execute(tx);
}

/** The item and all its ancestors' ids, nearest first. */
export async function selfAndAncestorIds(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .withRecursive('up(id, parent_id, depth)', (qb) =>
      qb
        .selectFrom('items')
        .select(['id', 'parent_id', sql<number>`0`.as('depth')])
        .where('id', '=', id)
        .unionAll(qb.selectFrom('items').innerJoin('up', 'up.parent_id', 'items.id').select(['items.id', 'items.parent_id', sql<number>`up.depth + 1`.as('depth')])),
    )
    .selectFrom('up')
    .select('id')
    .orderBy('depth')
    .execute();
  return rows.map((r) => r.id);
}

export async function insertItem(db: Db, row: Insertable<ItemsTable>): Promise<void> {
  await db.insertInto('items').values(row).execute();
}

/** The columns a new item names (the others take their defaults). */
type NewItem = Pick<Insertable<ItemsTable>, (typeof NEW_ITEM_COLUMNS)[number]>;
const NEW_ITEM_COLUMNS = ['id', 'owner_id', 'parent_id', 'type', 'name', 'name_key', 'color', 'emoji', 'mimetype', 'size', 'blob_key', 'created_at', 'updated_at', 'deleted_at', 'deleted_with'] as const;

/** An insert of those columns answering the stored row, compiled once (db/compiled-once.ts): every upload runs it. */
const insertNewItem = compiledOnce((db, ...values: unknown[]) =>
  db
    .insertInto('items')
    .values(Object.fromEntries(NEW_ITEM_COLUMNS.map((column, i) => [column, values[i]])) as unknown as Insertable<ItemsTable>)
    .returningAll(),
);

/** Inserts the item and answers the row as stored (the defaults filled in), without reading it again. */
export async function insertItemReturning(db: Db, row: NewItem): Promise<ItemRow> {
  const inserted = (await insertNewItem(db, ...NEW_ITEM_COLUMNS.map((column) => row[column] ?? null))).rows[0];
  if (!inserted) throw new Error('The item insert answered no row.');
  return inserted;
}

export async function updateItem(db: Db, id: string, patch: Updateable<ItemsTable>): Promise<void> {
  await db.updateTable('items').set(patch).where('id', '=', id).execute();
}

/** Adds favourites in one statement per 500 (a favourite already there stays as it was). */
export async function addFavourites(db: Db, userId: string, itemIds: string[], now: string): Promise<void> {
  for (let i = 0; i < itemIds.length; i += 500) {
    await db
      .insertInto('favourites')
      .values(itemIds.slice(i, i + 500).map((itemId) => ({ user_id: userId, item_id: itemId, created_at: now })))
      .onConflict((oc) => oc.columns(['user_id', 'item_id']).doNothing())
      .execute();
  }
}

export async function removeFavourite(db: Db, userId: string, itemId: string): Promise<void> {
  await db.deleteFrom('favourites').where('user_id', '=', userId).where('item_id', '=', itemId).execute();
}

/** The user's favourite folders outside the trash, oldest favourite first (by name when added together). */
export async function listFavouriteFolders(db: Db, userId: string): Promise<ItemWithCount[]> {
  const rows = await selectItems(db)
    .innerJoin('favourites', 'favourites.item_id', 'items.id')
    .where('favourites.user_id', '=', userId)
    .where('items.deleted_at', 'is', null)
    .orderBy('favourites.created_at')
    .orderBy('items.name_key')
    .orderBy('items.id')
    .execute();
  return withCounts(db, rows);
}

/** Bytes per mimetype over all the owner's files, the trash included (its blobs still take space). */
export function bytesByMimetype(db: Db, ownerId: string) {
  return db
    .selectFrom('items')
    .select((eb) => ['mimetype', eb.fn.sum<number>('size').as('bytes')])
    .where('owner_id', '=', ownerId)
    .where('type', '=', 'file')
    .groupBy('mimetype')
    .execute();
}
