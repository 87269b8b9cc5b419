import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { SharesTable } from '../../../db/schema.ts';
import { idIn } from '../files/access-queries.ts';
import type { Db } from '../files/queries.ts';

/** Share link SQL, Kysely only. */

export type ShareRow = Selectable<SharesTable>;

export function findShareByToken(db: Db, token: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('token', '=', token).executeTakeFirst();
}

export function findShareOfItem(db: Db, userId: string, itemId: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('user_id', '=', userId).where('item_id', '=', itemId).executeTakeFirst();
}

/** The user's shares whose item is still there and outside the trash, newest first. */
export function listLiveSharesOf(db: Db, userId: string) {
  return db
    .selectFrom('shares')
    .innerJoin('items', 'items.id', 'shares.item_id')
    .selectAll('shares')
    .where('shares.user_id', '=', userId)
    .where('items.owner_id', '=', userId)
    .where('items.deleted_at', 'is', null)
    .orderBy('shares.created_at', 'desc')
    .orderBy('shares.id')
    .execute();
}

/** The shares among these items (for the shared icon in listings). */
export async function sharesOfItems(db: Db, userId: string, itemIds: string[]): Promise<Map<string, ShareRow>> {
  const found = new Map<string, ShareRow>();
  if (itemIds.length === 0) return found;
  const rows = await db.selectFrom('shares').selectAll().where('user_id', '=', userId).where(idIn(db, sql.ref('item_id'), itemIds)).execute();
  for (const row of rows) found.set(row.item_id, row);
  return found;
}

export async function insertShare(db: Db, row: Insertable<SharesTable>): Promise<void> {
  await db.insertInto('shares').values(row).execute();
}

export async function updateShare(db: Db, id: string, patch: Updateable<SharesTable>): Promise<void> {
  await db.updateTable('shares').set(patch).where('id', '=', id).execute();
}

export async function deleteShares(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('shares').where('id', 'in', ids).execute();
}

export async function insertShareSession(db: Db, row: { id: string; share_id: string; expires_at: string }): Promise<void> {
  await db.insertInto('share_sessions').values(row).execute();
}

export async function findShareSession(db: Db, id: string, shareId: string, now: string): Promise<boolean> {
  const row = await db.selectFrom('share_sessions').select('id').where('id', '=', id).where('share_id', '=', shareId).where('expires_at', '>', now).executeTakeFirst();
  return row !== undefined;
}

/** Ends every browser session unlocked with the share's password. */
export async function deleteShareSessions(db: Db, shareId: string): Promise<void> {
  await db.deleteFrom('share_sessions').where('share_id', '=', shareId).execute();
}
