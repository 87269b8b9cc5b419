import type { Selectable } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { PendingBlobsTable } from '../../../db/schema.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../files/queries.ts';

/**
 * Intents of finishing uploads (the `pending_blobs` table). Every upload path writes one before
 * its bytes reach the blob store and clears it in the same transaction that records the item
 * (finish.ts `claimIntent`), so at any instant a stored upload blob is either an item's, or named
 * by an intent, or on its way out (the blob is deleted before the intent is dropped). After a
 * crash the start-up recovery (recover.ts) finds the intents left: a tus upload is finished (its
 * bytes are complete), a plain upload's blob is removed (its request died with the process).
 * The reconciler (blobs/reconcile.ts) counts an intent's blob as referenced.
 */
export type Intent = Selectable<PendingBlobsTable>;

// Every upload writes and takes one: both compiled once (db/compiled-once.ts).
const insertIntent = compiledOnce((db, blobKey: string, ownerId: string, uploadId: string | null, finish: string | null, createdAt: string, nodeId: string) =>
  db.insertInto('pending_blobs').values({ blob_key: blobKey, owner_id: ownerId, upload_id: uploadId, finish, created_at: createdAt, node_id: nodeId }).onConflict((oc) => oc.column('blob_key').doNothing()),
);
const deleteIntent = compiledOnce((db, blobKey: string) => db.deleteFrom('pending_blobs').where('blob_key', '=', blobKey));

/**
 * Written before the blob exists, with this node's id (the start of another node leaves it alone
 * while this process lives); a second write for the same key (a resumed finish) keeps the first.
 */
export async function recordIntent(ctx: AppContext, intent: Omit<Intent, 'created_at' | 'node_id'>): Promise<void> {
  await insertIntent(ctx.db, intent.blob_key, intent.owner_id, intent.upload_id, intent.finish, ctx.clock.now().toISOString(), ctx.nodeId);
}

export function findIntent(db: Db, blobKey: string): Promise<Intent | undefined> {
  return db.selectFrom('pending_blobs').selectAll().where('blob_key', '=', blobKey).executeTakeFirst();
}

/**
 * Takes the intent inside the transaction that records the item: true once, for the one
 * transaction that removed the row (on PostgreSQL a concurrent one waits for it, then finds none).
 */
export async function claimIntent(tx: Db, blobKey: string): Promise<boolean> {
  const result = await deleteIntent(tx, blobKey);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export async function dropIntent(db: Db, blobKey: string): Promise<void> {
  await db.deleteFrom('pending_blobs').where('blob_key', '=', blobKey).execute();
}

/** A refused or failed upload: the blob first, then its intent, so a crash between leaves an intent without a blob (dropped at start). */
export async function discardBlob(ctx: AppContext, blobKey: string): Promise<void> {
  try {
    await ctx.blobs.delete(blobKey);
    await dropIntent(ctx.db, blobKey);
  } catch (error) {
    ctx.logger.error({ err: error, key: blobKey }, 'could not remove the blob of a failed upload');
  }
}

/** Intents created before `before` (all when null), oldest first, `limit` at a time after `after`. */
export function listIntents(db: Db, options: { before: string | null; after?: { created_at: string; blob_key: string }; limit: number }): Promise<Intent[]> {
  let query = db.selectFrom('pending_blobs').selectAll();
  if (options.before !== null) query = query.where('created_at', '<', options.before);
  const after = options.after;
  if (after) query = query.where((eb) => eb.or([eb('created_at', '>', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('blob_key', '>', after.blob_key)])]));
  return query.orderBy('created_at').orderBy('blob_key').limit(options.limit).execute();
}

/** Which of these keys an intent names. */
export async function keysWithIntent(db: Db, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.selectFrom('pending_blobs').select('blob_key').where('blob_key', 'in', keys).execute();
  return new Set(rows.map((r) => r.blob_key));
}
