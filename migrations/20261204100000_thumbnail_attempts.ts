import { sql, type Kysely } from 'kysely';

// Thumbnails a node's in-memory queue never made (the node died or restarted first) are made by a
// leased catch-up job (src/server/previews/catch-up.ts). These columns bound its retries: how many
// times a thumbnail was tried without being made, and when last. A refused or skipped file is
// given up at once (attempts set to the limit), a failed one after three tries.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('items').addColumn('thumbnail_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('items').addColumn('thumbnail_attempted_at', 'text').execute();
  // Files that can never have a thumbnail leave the pending set now, so the index below stays small.
  await sql`update items set thumbnail_attempts = 3
    where type = 'file' and thumbnail_key is null
      and not (lower(coalesce(mimetype, '')) like 'image/%' or lower(coalesce(mimetype, '')) like 'video/%' or lower(coalesce(mimetype, '')) like 'application/pdf%')`.execute(db);
  // The catch-up's pick, keyset by id: only live files without a thumbnail that are not given up on.
  // thumbnail_key leads (always null here) so SQLite prefers it over items_thumbnail_key without statistics.
  await sql`create index items_thumbnail_pending on items (thumbnail_key, id)
    where thumbnail_key is null and type = 'file' and deleted_at is null and thumbnail_attempts < 3`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists items_thumbnail_pending`.execute(db);
  await db.schema.alterTable('items').dropColumn('thumbnail_attempted_at').execute();
  await db.schema.alterTable('items').dropColumn('thumbnail_attempts').execute();
}
