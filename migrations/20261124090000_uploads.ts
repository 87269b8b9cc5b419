import type { Kysely } from 'kysely';

// Portable column types only: text, integer, bigint. Timestamps are ISO strings.
export async function up(db: Kysely<any>): Promise<void> {
  // The notification centre arrives later; remote uploads store their "done" notices now.
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // JSON text: { type: 'route' | 'invitation', params: { id, route, button } }, or null.
    .addColumn('action', 'text')
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user_created').on('notifications').columns(['user_id', 'created_at']).execute();

  // Import-from-URL jobs: one row per request, its URLs and what became of each (JSON text).
  await db.schema
    .createTable('remote_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('urls', 'text', (c) => c.notNull())
    .addColumn('results', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('remote_uploads_status').on('remote_uploads').column('status').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('remote_uploads').execute();
  await db.schema.dropTable('notifications').execute();
}
