import type { Kysely } from 'kysely';

// Intents of uploads that are finishing (src/server/uploads/intents.ts): a row is written before an
// upload's bytes reach the blob store and removed in the transaction that records the item, so a
// crash in between leaves a row that the start-up recovery finishes or undoes, and the reconciler
// never takes such a blob for an orphan.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pending_blobs')
    .addColumn('blob_key', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    // The tus upload id; null for a plain upload or an import (their request is gone after a crash).
    .addColumn('upload_id', 'text')
    // JSON text: what a tus upload becomes (name, folder, type, size, binding), fixed before the bytes move.
    .addColumn('finish', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pending_blobs_created').on('pending_blobs').column('created_at').execute();
  // The reconciler asks, a batch of listed blobs at a time, which of them rows refer to.
  await db.schema.createIndex('items_blob_key').on('items').column('blob_key').execute();
  await db.schema.createIndex('items_thumbnail_key').on('items').column('thumbnail_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('items_thumbnail_key').execute();
  await db.schema.dropIndex('items_blob_key').execute();
  await db.schema.dropTable('pending_blobs').execute();
}
