import type { Db } from '../files/queries.ts';

/** What a zip needs of a folder's live children (trashed items stay out). */
export function listLiveChildrenForZip(db: Db, ownerId: string, parentId: string) {
  return db
    .selectFrom('items')
    .select(['id', 'type', 'name', 'mimetype', 'size', 'blob_key', 'updated_at'])
    .where('owner_id', '=', ownerId)
    .where('parent_id', '=', parentId)
    .where('deleted_at', 'is', null)
    .orderBy('type', 'desc')
    .orderBy('name_key')
    .orderBy('id')
    .execute();
}
