import type { Kysely } from 'kysely';

/**
 * Back-off throttles for password checks (sign-in, share-link unlock) and the device cookies that
 * let an owner past the per-account ceiling (src/server/auth/throttle.ts, devices.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('throttles')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('blocked_until', 'text')
    .addColumn('forget_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('throttles_forget_at').on('throttles').column('forget_at').execute();

  await db.schema
    .createTable('sign_in_devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_devices_user').on('sign_in_devices').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_devices').execute();
  await db.schema.dropTable('throttles').execute();
}
