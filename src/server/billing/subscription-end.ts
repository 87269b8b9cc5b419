import type { AppContext } from '../context.ts';

/**
 * SPEC §4: a cancelled subscription runs until its period's end, then it is completed. Providers
 * usually say so with a webhook (customer.subscription.deleted, BILLING.SUBSCRIPTION.CANCELLED);
 * this catches the ones that never arrive. Run with the other billing jobs (usage-job.ts); one
 * conditional update, so running it twice or from two processes at once changes each row once.
 * Metered subscriptions (driver `balance`) are left to closePeriod, which invoices their last
 * period before completing them.
 */
export async function completeEndedSubscriptions(ctx: AppContext): Promise<number> {
  const at = ctx.clock.now().toISOString();
  const result = await ctx.db
    .updateTable('subscriptions')
    .set({ status: 'completed', updated_at: at })
    .where('status', '=', 'cancelled')
    .where('ends_at', 'is not', null)
    .where('ends_at', '<=', at)
    .where('driver', '!=', 'balance')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
