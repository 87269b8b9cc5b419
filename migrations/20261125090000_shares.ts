import type { Kysely } from 'kysely';

// Share links, their unlocked visitor sessions, and upload requests. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The link token itself (the owner sees the link again later); 192 random bits, base32.
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // No foreign key: a share of a deleted item stays dead, its token never re-attaches.
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('expire_in', 'integer')
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shares_user_item').on('shares').columns(['user_id', 'item_id']).execute();

  await db.schema
    .createTable('share_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_sessions_share').on('share_sessions').column('share_id').execute();

  await db.schema
    .createTable('upload_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('folder_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('notes', 'text')
    .addColumn('email', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_requests_user').on('upload_requests').column('user_id').execute();

  // What an upload request's holder made (uploads, folders): all they may rename, move or remove.
  await db.schema
    .createTable('upload_request_items')
    .addColumn('request_id', 'text', (c) => c.notNull().references('upload_requests.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_request_items_pk', ['request_id', 'item_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_request_items').execute();
  await db.schema.dropTable('upload_requests').execute();
  await db.schema.dropTable('share_sessions').execute();
  await db.schema.dropTable('shares').execute();
}
