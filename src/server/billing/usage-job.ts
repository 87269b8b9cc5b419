import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { faultPoint } from '../faults.ts';
import { runEvery } from '../jobs/every.ts';
import { issueInvoice, lockBilling } from './invoices.ts';
import { accountFor, failPayment, newReference } from './ledger.ts';
import { checkBillingAlert, meteredLines, monthPeriod, previousDay, usageBetween } from './metered.ts';
import type { Plan, Subscription } from './plans.ts';
import { completeEndedSubscriptions } from './subscription-end.ts';

const HOUR_MS = 3_600_000;

/** Balance-driven (metered) subscriptions that count on `at`, with their plans. */
async function meteredSubscriptions(ctx: AppContext, at: string): Promise<{ subscription: Subscription; plan: Plan }[]> {
  const rows = await ctx.db
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .selectAll('subscriptions')
    .select(['plans.id as p_id'])
    .where('subscriptions.driver', '=', 'balance')
    .where('plans.type', '=', 'metered')
    .where((eb) => eb.or([eb('subscriptions.status', '=', 'active'), eb.and([eb('subscriptions.status', '=', 'cancelled'), eb('subscriptions.ends_at', '>', at)])]))
    .orderBy('subscriptions.id')
    .execute();
  const plans = new Map((await ctx.db.selectFrom('plans').selectAll().where('type', '=', 'metered').execute()).map((p) => [p.id, p]));
  return rows.map(({ p_id, ...subscription }) => ({ subscription, plan: plans.get(p_id)! }));
}

/**
 * One row per metered user for `day` (usage_days' key makes a second run a no-op): the bytes they
 * store now, the bytes downloaded from their files that day (bandwidth.ts), the members of their
 * team folders.
 */
export async function recordUsageDay(ctx: AppContext, day: string): Promise<number> {
  const at = ctx.clock.now().toISOString();
  let written = 0;
  for (const { subscription } of await meteredSubscriptions(ctx, at)) {
    // Not for days before the subscription began (a run for an old --date).
    if (subscription.created_at.slice(0, 10) > day) continue;
    const userId = subscription.user_id;
    const [user, bandwidth, members] = await Promise.all([
      ctx.db.selectFrom('users').select('storage_used_bytes').where('id', '=', userId).executeTakeFirst(),
      ctx.db.selectFrom('bandwidth_counters').select('bytes').where('user_id', '=', userId).where('day', '=', day).executeTakeFirst(),
      ctx.db
        .selectFrom('team_members')
        .innerJoin('teams', 'teams.id', 'team_members.team_id')
        .select(sql<number | string>`count(distinct team_members.user_id)`.as('n'))
        .where('teams.owner_id', '=', userId)
        .executeTakeFirst(),
    ]);
    if (!user) continue;
    const result = await ctx.db
      .insertInto('usage_days')
      .values({ user_id: userId, day, storage_bytes: Number(user.storage_used_bytes), bandwidth_bytes: Number(bandwidth?.bytes ?? 0), members: Number(members?.n ?? 0), created_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
      .executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return written;
}

/**
 * Closes a metered period that has ended: its invoice from the usage (one per subscription period,
 * the unique index), charged against the balance, or a failed payment when the balance cannot
 * cover it; then the next period. All in one transaction: a run killed halfway leaves nothing half done.
 */
export async function closePeriod(ctx: AppContext, subscriptionId: string, plan: Plan): Promise<'charged' | 'failed' | 'skipped'> {
  const announce: string[] = [];
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    await lockBilling(ctx, trx);
    const now = ctx.clock.now();
    const at = now.toISOString();
    const sub = await trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).executeTakeFirst();
    if (!sub || sub.current_period_end > at || sub.status === 'completed') return 'skipped' as const;
    let result: 'charged' | 'failed' | 'skipped' = 'skipped';
    const issued = await trx.selectFrom('invoices').select('id').where('subscription_id', '=', sub.id).where('period_start', '=', sub.current_period_start).executeTakeFirst();
    if (!issued) {
      const usage = await usageBetween(trx, sub.user_id, sub.current_period_start.slice(0, 10), sub.current_period_end.slice(0, 10));
      const lines = meteredLines(plan, usage, sub.currency);
      const total = lines.reduce((s, l) => s + l.amount_minor, 0);
      const account = await accountFor(trx, sub.user_id, sub.currency, at);
      const covered = account.balance_minor >= total;
      const invoice = await issueInvoice(trx, { userId: sub.user_id, subscriptionId: sub.id, currency: sub.currency, lines, periodStart: sub.current_period_start, periodEnd: sub.current_period_end, status: covered ? 'paid' : 'unpaid', at });
      const note = `${plan.name}: ${sub.current_period_start.slice(0, 7)}`;
      if (covered) {
        if (total > 0) {
          await trx.updateTable('billing_accounts').set({ balance_minor: account.balance_minor - total, updated_at: at }).where('user_id', '=', sub.user_id).execute();
          await trx
            .insertInto('transactions')
            .values({ id: randomUUID(), user_id: sub.user_id, reference: newReference(), type: 'charge', status: 'completed', amount_minor: total, currency: sub.currency, driver: 'balance', note, invoice_id: invoice.id, created_at: at })
            .execute();
        }
        result = 'charged';
      } else {
        const failed = await failPayment(ctx, trx, { userId: sub.user_id, subscriptionId: sub.id, amountMinor: total, currency: sub.currency, driver: 'balance', reason: `Insufficient balance for ${note}`, reference: newReference(), invoiceId: invoice.id }, at);
        if (failed?.notificationId) announce.push(failed.notificationId);
        result = 'failed';
      }
    }
    const next = monthPeriod(new Date(sub.current_period_end));
    const ends = sub.status === 'cancelled' && sub.ends_at !== null && sub.ends_at <= next.start;
    await trx
      .updateTable('subscriptions')
      .set(ends ? { status: 'completed', updated_at: at } : { current_period_start: next.start, current_period_end: next.end, updated_at: at })
      .where('id', '=', sub.id)
      .execute();
    return result;
  });
  const userId = (await ctx.db.selectFrom('subscriptions').select('user_id').where('id', '=', subscriptionId).executeTakeFirst())?.user_id;
  for (const notificationId of announce) if (userId) ctx.events.emit('notification.created', { userId, notificationId });
  return outcome;
}

/**
 * The daily metered run, for the day before `ctx.clock` (the last complete UTC day): usage rows,
 * then the periods that have ended, then the billing alerts, then the cancelled subscriptions whose
 * end has passed (subscription-end.ts). Every step is idempotent, so the
 * hourly schedule, a restart or `npm run billing:run` twice never charges twice.
 */
export async function runBillingDay(ctx: AppContext): Promise<{ day: string; usage: number; charged: number; failed: number; alerts: number; completed: number }> {
  const now = ctx.clock.now();
  const day = previousDay(now);
  const usage = await recordUsageDay(ctx, day);
  faultPoint(ctx, 'billing-after-usage');
  let charged = 0;
  let failed = 0;
  let alerts = 0;
  for (const { subscription, plan } of await meteredSubscriptions(ctx, now.toISOString())) {
    // A subscription months behind (the server was off) closes each period in turn.
    for (let i = 0; i < 24 && subscription.current_period_end <= now.toISOString(); i += 1) {
      const outcome = await closePeriod(ctx, subscription.id, plan);
      if (outcome === 'charged') charged += 1;
      if (outcome === 'failed') failed += 1;
      const fresh = await ctx.db.selectFrom('subscriptions').selectAll().where('id', '=', subscription.id).executeTakeFirstOrThrow();
      Object.assign(subscription, fresh);
      if (outcome === 'skipped' && fresh.current_period_end <= now.toISOString()) break;
    }
    if (subscription.status !== 'completed' && (await checkBillingAlert(ctx, subscription, plan, now))) alerts += 1;
  }
  const completed = await completeEndedSubscriptions(ctx);
  return { day, usage, charged, failed, alerts, completed };
}

/** Runs the metered day hourly (the day's rows are written once; later runs find them). */
export function scheduleBillingDay(ctx: AppContext, intervalMs = HOUR_MS): () => Promise<void> {
  return runEvery(ctx, 'metered billing', intervalMs, () => runBillingDay(ctx));
}

