import type { Kysely } from 'kysely';

// The app node (AppContext.nodeId) whose process has an upload in flight: its finishing intent and
// its quota reservation. A node starting settles only what dead nodes left (src/server/cluster/node.ts);
// rows from before this column have none and count as a dead process's.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pending_blobs').addColumn('node_id', 'text').execute();
  await db.schema.alterTable('upload_reservations').addColumn('node_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('upload_reservations').dropColumn('node_id').execute();
  await db.schema.alterTable('pending_blobs').dropColumn('node_id').execute();
}
