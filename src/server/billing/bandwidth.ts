import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { dayOf } from './metered.ts';

/**
 * Adds a finished download's bytes to the owner's counter for the day (UTC): one upsert per
 * download, read by the daily usage job (usage-job.ts). Counting is bookkeeping: a failure is
 * logged and never fails the download.
 */
export async function countDownload(ctx: AppContext, ownerId: string, bytes: number): Promise<void> {
  if (!(bytes > 0)) return;
  try {
    await ctx.db
      .insertInto('bandwidth_counters')
      .values({ user_id: ownerId, day: dayOf(ctx.clock.now()), bytes })
      .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet({ bytes: sql`bandwidth_counters.bytes + excluded.bytes` }))
      .execute();
  } catch (error) {
    ctx.logger.warn({ err: error, ownerId }, 'could not count download bandwidth');
  }
}
