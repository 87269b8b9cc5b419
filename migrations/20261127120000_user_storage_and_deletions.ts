import type { Kysely } from 'kysely';

// An admin's per-user storage limit, and the deletion of an account as a job that survives a crash.
//
// users.storage_limit_bytes: null uses the instance default (the `default_storage_limit_bytes`
// setting), 0 is no limit, anything else is the user's own limit in bytes.
// users.deletion_started_at: set when an admin starts deleting the account; from then on it
// cannot sign in and no session or token of it is accepted, until the row itself goes.
// user_deletions: one row per deletion, written before anything is removed and kept afterwards
// as the record of what went; the deletion job resumes every row still `running` after a restart.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('storage_limit_bytes', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('deletion_started_at', 'text').execute();
  await db.schema
    .createTable('user_deletions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // No foreign keys: the record outlives the account, and the admin who asked may go later too.
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_by_name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('files', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('folders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('shares', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('upload_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('user_deletions_user').on('user_deletions').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('user_deletions_state').on('user_deletions').column('state').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_deletions').execute();
  await db.schema.alterTable('users').dropColumn('deletion_started_at').execute();
  await db.schema.alterTable('users').dropColumn('storage_limit_bytes').execute();
}
