import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { faultPoint } from '../faults.ts';
import type { Db } from '../files/queries.ts';
import { lockOwnerTree } from '../files/queries.ts';
import { yieldToOthers } from '../files/sets.ts';
import { thumbnailBlobKeys } from '../previews/sizes.ts';
import { discardChunkedUpload } from '../uploads/chunks.ts';
import { discardBlob } from '../uploads/intents.ts';
import { discardTusUpload } from '../uploads/tus.ts';
import { AVATAR_SIZES } from './presenter.ts';

/**
 * Removes everything of one account for its deletion job (admin/users/deletion.ts), in steps that
 * can each be run again after a crash: every step deletes in bounded batches, each batch in its own
 * short transaction that also adds what it removed to the job's counts, so the counts stay exact
 * however often the work is interrupted. Blobs go before the rows that name them: a crash between
 * leaves rows whose blobs are gone, which the next run deletes (removing a missing blob is no
 * error); never a blob nothing refers to.
 *
 * What links the account to others goes first (share links, upload requests), then what it has
 * open (uploads in progress), then its items, deepest first, then the row itself, whose foreign
 * keys take the small rest with it (favourites, sessions, tokens, devices).
 */

const BATCH = 100;

export interface ErasedJob {
  id: string;
  user_id: string;
}

type Counter = 'files' | 'folders' | 'bytes' | 'shares' | 'upload_requests';

async function addCounts(tx: Db, ctx: AppContext, jobId: string, counts: Partial<Record<Counter, number>>): Promise<void> {
  const entries = Object.entries(counts).filter(([, n]) => n) as [Counter, number][];
  if (!entries.length) return;
  const set = Object.fromEntries(entries.map(([column, n]) => [column, sql`${sql.ref(column)} + ${n}`]));
  await tx.updateTable('user_deletions').set({ ...set, updated_at: ctx.clock.now().toISOString() }).where('id', '=', jobId).execute();
}

/** Deletes the rows of `table` that belong to the user, BATCH at a time; answers how many. */
async function deleteOwnedRows(ctx: AppContext, job: ErasedJob, table: 'shares' | 'upload_requests' | 'notifications' | 'remote_uploads', counter?: Counter): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await ctx.db.transaction().execute(async (tx) => {
      const ids = (await tx.selectFrom(table).select('id').where('user_id', '=', job.user_id).limit(BATCH).execute()).map((r) => r.id);
      if (!ids.length) return 0;
      const result = await tx.deleteFrom(table).where('id', 'in', ids).executeTakeFirst();
      const n = Number(result.numDeletedRows);
      if (counter) await addCounts(tx, ctx, job.id, { [counter]: n });
      return n;
    });
    if (!removed) return total;
    total += removed;
    await yieldToOthers();
  }
}

/** Batched (blobs/store.ts deleteMany); a blob that could not go fails the step, which is run again. */
async function deleteBlobs(ctx: AppContext, keys: string[]): Promise<void> {
  const [failed] = await ctx.blobs.deleteMany(keys);
  if (failed) throw failed.error;
}

/** Uploads in progress: tus and chunked partials with their reservations, plain reservations, and intents with their blobs. */
async function discardOpenUploads(ctx: AppContext, job: ErasedJob): Promise<void> {
  const reservations = await ctx.db.selectFrom('upload_reservations').select(['id', 'kind']).where('owner_id', '=', job.user_id).execute();
  for (const r of reservations) {
    if (r.kind === 'tus') await discardTusUpload(ctx, r.id);
    else if (r.kind === 'chunk') await discardChunkedUpload(ctx, r.id);
  }
  await ctx.db.deleteFrom('upload_reservations').where('owner_id', '=', job.user_id).execute();
  for (;;) {
    const intents = await ctx.db.selectFrom('pending_blobs').select('blob_key').where('owner_id', '=', job.user_id).limit(BATCH).execute();
    if (!intents.length) return;
    for (const intent of intents) await discardBlob(ctx, intent.blob_key);
    // discardBlob logs a blob it could not remove and keeps its intent: do not spin on it.
    const left = await ctx.db.selectFrom('pending_blobs').select('blob_key').where('blob_key', 'in', intents.map((i) => i.blob_key)).execute();
    if (left.length) throw new Error(`could not remove ${left.length} blobs of uploads in progress`);
  }
}

/**
 * Every item of the user, leaves first: a batch of items with nothing below them, their blobs and
 * thumbnails removed, then the rows (again only those still without children, in case one got a
 * child meanwhile) with the counts, in one transaction under the owner's tree lock.
 */
async function deleteItems(ctx: AppContext, job: ErasedJob): Promise<void> {
  for (let batch = 0; ; batch += 1) {
    const leaves = await sql<{ id: string; blob_key: string | null; thumbnail_key: string | null }>`
      select i.id as id, i.blob_key as blob_key, i.thumbnail_key as thumbnail_key from items i
      where i.owner_id = ${job.user_id} and not exists (select 1 from items c where c.parent_id = i.id) limit ${BATCH}`.execute(ctx.db);
    if (!leaves.rows.length) {
      const left = await ctx.db.selectFrom('items').select('id').where('owner_id', '=', job.user_id).limit(1).executeTakeFirst();
      if (left) throw new Error('items are left whose folders hold items of someone else');
      return;
    }
    await deleteBlobs(ctx, leaves.rows.flatMap((r) => (r.blob_key ? [r.blob_key, ...thumbnailBlobKeys(r.thumbnail_key)] : [])));
    const ids = leaves.rows.map((r) => r.id);
    await ctx.db.transaction().execute(async (tx) => {
      if (ctx.config.database.dialect === 'postgres') await lockOwnerTree(tx, job.user_id);
      const { rows } = await sql<{ type: string; size: number | string }>`
        delete from items where id in (${sql.join(ids)}) and not exists (select 1 from items c where c.parent_id = items.id)
        returning type, size`.execute(tx);
      const files = rows.filter((r) => r.type === 'file');
      await addCounts(tx, ctx, job.id, { files: files.length, folders: rows.length - files.length, bytes: files.reduce((sum, r) => sum + Number(r.size), 0) });
    });
    if (batch === 0) faultPoint(ctx, 'user-deletion-after-batch');
    await yieldToOthers();
  }
}

/** Runs every step for the job's account; the last removes the user row itself and marks the job done. */
export async function eraseAccount(ctx: AppContext, job: ErasedJob): Promise<void> {
  await deleteOwnedRows(ctx, job, 'shares', 'shares');
  await deleteOwnedRows(ctx, job, 'upload_requests', 'upload_requests');
  await discardOpenUploads(ctx, job);
  await deleteOwnedRows(ctx, job, 'remote_uploads');
  await deleteOwnedRows(ctx, job, 'notifications');
  await deleteItems(ctx, job);
  const user = await ctx.db.selectFrom('users').select('avatar_key').where('id', '=', job.user_id).executeTakeFirst();
  if (user?.avatar_key) await deleteBlobs(ctx, Object.keys(AVATAR_SIZES).map((size) => `avatars/${job.user_id}/${user.avatar_key}-${size}.webp`));
  await ctx.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('users').where('id', '=', job.user_id).execute();
    const at = ctx.clock.now().toISOString();
    await tx.updateTable('user_deletions').set({ state: 'done', updated_at: at, finished_at: at }).where('id', '=', job.id).execute();
  });
}
