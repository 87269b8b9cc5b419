import type { Kysely } from 'kysely';

// Quota promised to uploads in progress (src/server/uploads/reservations.ts): a tus upload reserves
// its Upload-Length at creation, a plain upload its declared length, until it becomes an item, is
// terminated or expires. Kept in the database, not in memory, so every app node sees them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_reservations')
    // The tus upload id, or `plain:{uuid}` for a plain upload.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // The last sign of life (creation, a PATCH, a sweep that saw the upload still being written).
    .addColumn('touched_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_reservations_owner').on('upload_reservations').columns(['owner_id', 'kind']).execute();
  await db.schema.createIndex('upload_reservations_touched').on('upload_reservations').column('touched_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_reservations').execute();
}
