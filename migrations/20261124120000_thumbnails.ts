import type { Kysely } from 'kysely';

// A file's thumbnails, once made: the blob key prefix their sizes hang off (`{prefix}-{size}.webp`).
// null until made, and for files that get none (not an image, refused, no tool for the type).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('items').addColumn('thumbnail_key', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('items').dropColumn('thumbnail_key').execute();
}
