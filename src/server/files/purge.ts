import type { AppContext } from '../context.ts';
import { runEvery } from '../jobs/every.ts';
import { getSettings } from '../settings/service.ts';
import { purgeTrashedBefore } from './service.ts';

const DAY = 24 * 60 * 60_000;

/**
 * The trash retention job: removes for good what has been in the trash longer than the
 * `trash_retention_days` setting (0 keeps the trash forever), blobs after the rows are gone.
 */
export async function purgeExpiredTrash(ctx: AppContext): Promise<{ items: number; blobs: number }> {
  const { trash_retention_days: days } = await getSettings(ctx);
  if (!(days > 0)) return { items: 0, blobs: 0 };
  const result = await purgeTrashedBefore(ctx, new Date(ctx.clock.now().getTime() - days * DAY));
  if (result.items > 0) ctx.logger.info({ ...result, days }, 'purged expired trash');
  return result;
}

/** Runs the job at start and then every TRASH_PURGE_SECONDS, on one node at a time (jobs/every.ts); the returned function stops it and waits for a run in flight. */
export function scheduleTrashPurge(ctx: AppContext, intervalMs = ctx.config.trashPurgeMs): () => Promise<void> {
  return runEvery(ctx, 'trash purge', intervalMs, () => purgeExpiredTrash(ctx));
}
