import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/index.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { createNotification } from '../notifications/service.ts';
import type { InvoiceLine } from './invoices.ts';
import { accountFor } from './ledger.ts';
import { currencyDigits, formatMinor } from '../../components/billing/money.ts';
import { activePlanFor, getPlan, type Plan, type Subscription } from './plans.ts';
import { startSubscription } from './subscriptions.ts';
import { lockBilling } from './invoices.ts';

const DAY_MS = 86_400_000;
const GB = 1_000_000_000n;
const MICROS = 1_000_000n;

/** 'YYYY-MM-DD' of a time, UTC. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
/** The first instant of the month `at` falls in, and of the next (UTC): a metered period. */
export function monthPeriod(at: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start: start.toISOString(), end: end.toISOString() };
}
export const previousDay = (at: Date) => dayOf(new Date(at.getTime() - DAY_MS));

/** units × price in millionths of the major unit, as minor units, rounded half up once (migration's rule). */
function priced(units: bigint, unitDivisor: bigint, micros: number | null, currency: string): number {
  if (!micros) return 0;
  const den = unitDivisor * MICROS;
  const num = units * BigInt(micros) * 10n ** BigInt(currencyDigits(currency));
  return Number((num + den / 2n) / den);
}

export interface UsageTotals {
  days: number;
  storageByteDays: bigint;
  bandwidthBytes: bigint;
  memberDays: bigint;
}

export async function usageBetween(db: Kysely<Database>, userId: string, fromDay: string, toDay: string): Promise<UsageTotals> {
  const rows = await db.selectFrom('usage_days').select(['storage_bytes', 'bandwidth_bytes', 'members']).where('user_id', '=', userId).where('day', '>=', fromDay).where('day', '<', toDay).execute();
  return {
    days: rows.length,
    storageByteDays: rows.reduce((s, r) => s + BigInt(r.storage_bytes), 0n),
    bandwidthBytes: rows.reduce((s, r) => s + BigInt(r.bandwidth_bytes), 0n),
    memberDays: rows.reduce((s, r) => s + BigInt(r.members), 0n),
  };
}

/** A metered period's invoice lines: storage GB-days, bandwidth GB, member-days at the plan's prices, and the flat fee. */
export function meteredLines(plan: Plan, usage: UsageTotals, currency: string): InvoiceLine[] {
  const gb = (bytes: bigint) => Number((bytes * 1000n) / GB) / 1000;
  const lines: InvoiceLine[] = [
    { description: 'Storage', quantity: gb(usage.storageByteDays), unit: 'GB-day', amount_minor: priced(usage.storageByteDays, GB, plan.storage_gb_day_micros, currency) },
    { description: 'Bandwidth', quantity: gb(usage.bandwidthBytes), unit: 'GB', amount_minor: priced(usage.bandwidthBytes, GB, plan.bandwidth_gb_micros, currency) },
    { description: 'Team members', quantity: Number(usage.memberDays), unit: 'member-day', amount_minor: priced(usage.memberDays, 1n, plan.member_day_micros, currency) },
  ];
  if (plan.flat_fee_minor) lines.push({ description: 'Monthly fee', quantity: 1, unit: 'month', amount_minor: Number(plan.flat_fee_minor) });
  return lines;
}

/** SPEC §3 `costEstimate`: what the metered period so far costs; null without a metered plan. */
export async function costEstimate(ctx: AppContext, userId: string): Promise<{ amount_minor: number; currency: string; period_start: string; period_end: string } | null> {
  const active = await activePlanFor(ctx, userId);
  if (active?.plan.type !== 'metered') return null;
  return estimateFor(ctx.db, active.plan, active.subscription);
}

async function estimateFor(db: Kysely<Database>, plan: Plan, subscription: Subscription) {
  const usage = await usageBetween(db, subscription.user_id, subscription.current_period_start.slice(0, 10), subscription.current_period_end.slice(0, 10));
  const total = meteredLines(plan, usage, subscription.currency).reduce((s, l) => s + l.amount_minor, 0);
  return { amount_minor: total, currency: subscription.currency, period_start: subscription.current_period_start, period_end: subscription.current_period_end };
}

const SubscribeInput = z.strictObject({ plan_id: z.string({ error: 'Choose a plan.' }).min(1, 'Choose a plan.').max(64) });

/**
 * Subscribes the user to a metered plan, charged from their balance (driver `balance`, no provider):
 * active plans only, one subscription at a time; the period is the calendar month (UTC).
 */
export async function subscribeMetered(ctx: AppContext, user: User, body: unknown) {
  const input = validate(SubscribeInput, body);
  const plan = await getPlan(ctx, input.plan_id);
  if (plan?.type !== 'metered') throw notFound('The plan was not found.');
  if (plan.status !== 'active') throw new AppError(422, 'This plan takes no new subscribers.', { errors: { plan_id: ['This plan takes no new subscribers.'] } });
  if (await activePlanFor(ctx, user.id)) throw new AppError(409, 'You already have a subscription. Cancel it first.', { code: 'subscription_exists' });
  const at = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockBilling(ctx, trx);
    await accountFor(trx, user.id, plan.currency, at.toISOString());
  });
  const period = monthPeriod(at);
  const id = await startSubscription(ctx, { userId: user.id, planId: plan.id, driver: 'balance', providerRef: null, periodStart: period.start, periodEnd: period.end });
  return { data: { id, type: 'subscription', attributes: { plan_id: plan.id, driver: 'balance', status: 'active', current_period_start: period.start, current_period_end: period.end } } };
}

const AlertInput = z.strictObject({
  amount_minor: z.union([z.number({ error: 'The alert must be a positive whole number of minor units, or null.' }).int('The alert must be a whole number of minor units.').positive('The alert must be more than 0.').max(Number.MAX_SAFE_INTEGER), z.null()], {
    error: 'The alert must be a positive whole number of minor units, or null.',
  }),
});

/** The user's billing alert (PATCH /api/billing/alert): a `billing-alert` once a month when the estimate passes it; null turns it off. */
export async function setBillingAlert(ctx: AppContext, user: User, body: unknown) {
  const input = validate(AlertInput, body);
  const account = await ctx.db.selectFrom('billing_accounts').select('currency').where('user_id', '=', user.id).executeTakeFirst();
  if (!account) throw new AppError(422, 'Subscribe to a plan or top up your balance first.', { errors: { amount_minor: ['Subscribe to a plan or top up your balance first.'] } });
  await ctx.db.updateTable('billing_accounts').set({ alert_minor: input.amount_minor, alert_sent_month: null, updated_at: ctx.clock.now().toISOString() }).where('user_id', '=', user.id).execute();
  return { data: { alert_minor: input.amount_minor, currency: account.currency } };
}

/** Sends the month's `billing-alert` to a metered user whose estimate has passed their alert (once per month). */
export async function checkBillingAlert(ctx: AppContext, subscription: Subscription, plan: Plan, at: Date): Promise<boolean> {
  const account = await ctx.db.selectFrom('billing_accounts').select(['alert_minor', 'alert_sent_month']).where('user_id', '=', subscription.user_id).executeTakeFirst();
  const month = dayOf(at).slice(0, 7);
  if (!account?.alert_minor || account.alert_sent_month === month) return false;
  const estimate = await estimateFor(ctx.db, plan, subscription);
  if (estimate.amount_minor < Number(account.alert_minor)) return false;
  // Claimed with the month in the condition, so two runs at once send it once.
  const claimed = await ctx.db
    .updateTable('billing_accounts')
    .set({ alert_sent_month: month })
    .where('user_id', '=', subscription.user_id)
    .where((eb) => eb.or([eb('alert_sent_month', 'is', null), eb('alert_sent_month', '!=', month)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return false;
  await createNotification(ctx, {
    userId: subscription.user_id,
    category: 'billing-alert',
    title: 'Billing alert',
    description: `This month's estimated cost is ${formatMinor(estimate.amount_minor, estimate.currency, 'en')}, past your alert of ${formatMinor(Number(account.alert_minor), estimate.currency, 'en')}.`,
    action: { type: 'route', params: { id: null, route: 'Billing', button: 'Billing' } },
  });
  return true;
}
