import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import type { Db } from '../files/queries.ts';

/**
 * Deleting blobs as crash-safely as uploads store them. The keys are written to `blob_deletions`
 * in the transaction that deletes their rows (`recordDeletions`); after the commit the blobs go
 * and then their entries (`finishDeletions`). A process killed in between leaves the list, which
 * the next start works off (`resumeDeletions`), so no blob outlives its rows until the
 * reconciler's grace period. Deleting a blob twice is harmless: any node may finish any entry.
 */

/** Rows per insert: SQLite binds at most 32,766 values, two per row. */
const INSERT_BATCH = 500;
const RESUME_BATCH = 500;

/** Inside the transaction that deletes the rows of `keys`. */
export async function recordDeletions(tx: Db, keys: string[], at: Date | string): Promise<void> {
  const createdAt = typeof at === 'string' ? at : at.toISOString();
  for (let i = 0; i < keys.length; i += INSERT_BATCH) {
    const values = keys.slice(i, i + INSERT_BATCH).map((blob_key) => ({ blob_key, created_at: createdAt }));
    await tx.insertInto('blob_deletions').values(values).onConflict((oc) => oc.column('blob_key').doNothing()).execute();
  }
}

/** After the commit: deletes the blobs, then the entries of those that went; a failure is logged and its entry kept for the next start. */
export async function finishDeletions(ctx: AppContext, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  const failed = new Set<string>();
  for (const { key, error } of await ctx.blobs.deleteMany(keys)) {
    failed.add(key);
    ctx.logger.error({ err: error, key }, 'could not delete a blob');
  }
  const done = keys.filter((key) => !failed.has(key));
  for (let i = 0; i < done.length; i += INSERT_BATCH) await ctx.db.deleteFrom('blob_deletions').where('blob_key', 'in', done.slice(i, i + INSERT_BATCH)).execute();
  return done.length;
}

/** At start: the deletions a crash (or a storage failure) left unfinished. */
export async function resumeDeletions(ctx: AppContext): Promise<number> {
  let finished = 0;
  let after = '';
  for (;;) {
    const rows = await ctx.db.selectFrom('blob_deletions').select('blob_key').where('blob_key', '>', after).orderBy('blob_key').limit(RESUME_BATCH).execute();
    if (!rows.length) break;
    const keys = rows.map((r) => r.blob_key);
    finished += await finishDeletions(ctx, keys);
    after = keys.at(-1)!;
    await yieldToLoop();
  }
  if (finished > 0) ctx.logger.info({ blobs: finished }, 'finished blob deletions a crash interrupted');
  return finished;
}
