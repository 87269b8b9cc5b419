import type { Kysely } from 'kysely';

// Blobs whose rows are gone for good and whose bytes are being deleted (src/server/blobs/deletions.ts):
// written in the transaction that deletes the rows, removed once the blob is, so a crash in between
// leaves a list the next start finishes instead of orphans waiting for the reconciler's grace period.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('blob_deletions')
    .addColumn('blob_key', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blob_deletions').execute();
}
