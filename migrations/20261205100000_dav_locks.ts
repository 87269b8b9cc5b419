import type { Kysely } from 'kysely';

// WebDAV (src/server/dav/): write locks (RFC 4918 §6, §9.10) and dead properties (§4, PROPPATCH).
// Both live in the database so every app node sees the same locks and properties.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dav_locks')
    // The lock token's UUID (the token is `urn:uuid:<id>`).
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The account whose /dav/ namespace holds the locked path.
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The locked path's name keys joined by '/', '' for the home folder (names compare as in the app).
    .addColumn('path_key', 'text', (c) => c.notNull())
    // The path as the client wrote it (the lockroot's href).
    .addColumn('href', 'text', (c) => c.notNull())
    // 'exclusive' or 'shared'; depth '0' or 'infinity'.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('depth', 'text', (c) => c.notNull())
    // The client's DAV:owner element content, serialised XML (may be empty).
    .addColumn('owner_xml', 'text', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dav_locks_owner').on('dav_locks').columns(['owner_id', 'expires_at']).execute();

  await db.schema
    .createTable('dav_properties')
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    // The property's namespace URI ('' for none) and local name.
    .addColumn('ns', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // The element's content as serialised XML (every element carries its own xmlns).
    .addColumn('value_xml', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_properties_pk', ['item_id', 'ns', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dav_properties').execute();
  await db.schema.dropTable('dav_locks').execute();
}
