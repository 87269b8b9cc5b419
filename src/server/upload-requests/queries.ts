import type { Insertable, Selectable, Updateable } from 'kysely';
import type { UploadRequestsTable } from '../../../db/schema.ts';
import type { Db } from '../files/queries.ts';

/** Upload request SQL, Kysely only. */

export type UploadRequestRow = Selectable<UploadRequestsTable>;

export function findRequestByToken(db: Db, token: string): Promise<UploadRequestRow | undefined> {
  return db.selectFrom('upload_requests').selectAll().where('token', '=', token).executeTakeFirst();
}

export function findRequestById(db: Db, id: string): Promise<UploadRequestRow | undefined> {
  return db.selectFrom('upload_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertRequest(db: Db, row: Insertable<UploadRequestsTable>): Promise<void> {
  await db.insertInto('upload_requests').values(row).execute();
}

export async function updateRequest(db: Db, id: string, patch: Updateable<UploadRequestsTable>): Promise<void> {
  await db.updateTable('upload_requests').set(patch).where('id', '=', id).execute();
}

export async function recordItem(db: Db, requestId: string, itemId: string): Promise<void> {
  await db.insertInto('upload_request_items').values({ request_id: requestId, item_id: itemId }).onConflict((oc) => oc.columns(['request_id', 'item_id']).doNothing()).execute();
}

/** The ids of the items made through the request, as a subquery (the access check's scope uses it). */
export function recordedItemIds(db: Db, requestId: string) {
  return db.selectFrom('upload_request_items').select('item_id').where('request_id', '=', requestId);
}
