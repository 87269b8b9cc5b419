import { sql, type Kysely } from 'kysely';

// Portable column types only: text, integer, bigint. Timestamps are ISO strings, flags 0/1.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // No cascade: a delete must name the whole subtree, so no file row (and its blob) goes unnoticed.
    .addColumn('parent_id', 'text', (c) => c.references('items.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('emoji', 'text')
    .addColumn('mimetype', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('blob_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    // The id of the item whose trashing trashed this one (itself for an item trashed directly):
    // what is trashed together is restored together.
    .addColumn('deleted_with', 'text')
    .execute();
  // Names are unique per folder among items not in the trash; home is parent ''.
  await sql`create unique index items_unique_name on items (owner_id, coalesce(parent_id, ''), name_key) where deleted_at is null`.execute(db);
  // Browsing a folder in the default order (folders first, newest first) walks this index and stops at the page.
  await sql`create index items_browse on items (owner_id, parent_id, type, created_at, id) where deleted_at is null`.execute(db);
  await db.schema.createIndex('items_parent').on('items').column('parent_id').execute();
  await db.schema.createIndex('items_owner_deleted').on('items').columns(['owner_id', 'deleted_at']).execute();
  await db.schema.createIndex('items_deleted_at').on('items').column('deleted_at').execute();
  await db.schema.createIndex('items_owner_created').on('items').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('favourites')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('favourites_pk', ['user_id', 'item_id'])
    .execute();
  await db.schema.createIndex('favourites_item').on('favourites').column('item_id').execute();

  // Per-user restriction overrides (SPEC §3 meta.restrictions), JSON text; null means none.
  await db.schema.alterTable('users').addColumn('restrictions', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('restrictions').execute();
  await db.schema.dropTable('favourites').execute();
  await db.schema.dropTable('items').execute();
}
