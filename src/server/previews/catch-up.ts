import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { runEvery } from '../jobs/every.ts';
import { MAX_THUMBNAIL_ATTEMPTS, makeThumbnailsRecorded } from './thumbnails.ts';

/**
 * The thumbnail catch-up: the node that receives an upload makes its thumbnails from an in-memory
 * queue (thumbnails.ts startThumbnailWorker), which a restart or a dead node loses. This leased job
 * (jobs/every.ts, once across nodes) makes the thumbnails of live files that still have none, are of
 * a type thumbnails are made from, are not given up on (thumbnail_attempts, see attemptsAfter) and
 * are older than CATCHUP_GRACE_MS, so the receiving node's own queue goes first.
 */

/** A file younger than this is left to the queue of the node that received it. */
export const CATCHUP_GRACE_MS = 2 * 60_000;
const BATCH = 50;
const CONCURRENCY = 2;

/** The SQL side of thumbnails.ts sourceOf and catchUpPicks: a cheap prefilter (makeThumbnails still decides, and records 'skipped'). */
const thumbnailable = sql<boolean>`(lower(mimetype) like 'image/%' or lower(mimetype) like 'video/%' or lower(mimetype) like 'application/pdf%')`;

/**
 * The partial index's own predicate, word for word and with literals (not bound parameters): only
 * then can SQLite's and PostgreSQL's planners (a generic plan too) prove the index covers the query.
 */
const pendingPredicate = sql<boolean>`(thumbnail_key is null and type = 'file' and deleted_at is null and thumbnail_attempts < ${sql.lit(MAX_THUMBNAIL_ATTEMPTS)})`;

/** One page of pending files after `afterId`, in id order (the partial index items_thumbnail_pending). */
export async function pendingThumbnails(ctx: AppContext, afterId: string | null, limit = BATCH): Promise<string[]> {
  const cutoff = new Date(ctx.clock.now().getTime() - CATCHUP_GRACE_MS).toISOString();
  let query = ctx.db
    .selectFrom('items')
    .select('id')
    .where(pendingPredicate)
    .where('created_at', '<', cutoff)
    .where(thumbnailable)
    .orderBy('id')
    .limit(limit);
  if (afterId !== null) query = query.where('id', '>', afterId);
  return (await query.execute()).map((row) => row.id);
}

/** How many live files wait for thumbnails (the receiving node's queue or the catch-up): the metrics' queue depth. */
export async function countPendingThumbnails(ctx: AppContext): Promise<number> {
  const row = await ctx.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where(pendingPredicate).where(thumbnailable).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One pass over every pending file, CONCURRENCY at a time; answers what happened. */
export async function catchUpThumbnails(ctx: AppContext): Promise<{ tried: number; made: number }> {
  let after: string | null = null;
  let tried = 0;
  let made = 0;
  for (;;) {
    const ids = await pendingThumbnails(ctx, after);
    if (ids.length === 0) break;
    after = ids.at(-1)!;
    const queue = [...ids];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const result = await makeThumbnailsRecorded(ctx, id);
        tried++;
        if (result.outcome === 'made') made++;
        else if (result.outcome !== 'gone') ctx.logger.warn({ itemId: id, ...result }, 'no thumbnail (catch-up)');
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
  if (tried > 0) ctx.logger.info({ tried, made }, 'thumbnail catch-up');
  return { tried, made };
}

/** Runs the catch-up at start and then every THUMBNAIL_CATCHUP_SECONDS, on one node at a time; the returned function stops it and waits for a run in flight. */
export function scheduleThumbnailCatchUp(ctx: AppContext, intervalMs = ctx.config.thumbnailCatchUpMs): () => Promise<void> {
  return runEvery(ctx, 'thumbnail catch-up', intervalMs, () => catchUpThumbnails(ctx));
}
