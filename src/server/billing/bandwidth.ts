import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { getSettings } from '../settings/service.ts';
import { dayOf } from './metered.ts';

/** Adds a finished download's bytes to the owner's counter for the day. */
export type BandwidthMeter = (ownerId: string, bytes: number) => Promise<void>;

const notMetered: BandwidthMeter = async () => {};

/**
 * What counts a download's bytes, asked for before the bytes go out (so a setting changed while
 * they do cannot decide it halfway): on an instance that bills by use, one upsert per finished
 * download into the owner's counter for the day (UTC), read by the daily usage job (usage-job.ts);
 * elsewhere nothing, as nobody reads the counters there. Counting is bookkeeping: a failure is
 * logged and never fails the download.
 */
export async function bandwidthMeter(ctx: AppContext): Promise<BandwidthMeter> {
  if ((await getSettings(ctx)).subscription_type !== 'metered') return notMetered;
  return async (ownerId, bytes) => {
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
  };
}
