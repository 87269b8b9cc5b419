import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isUniqueViolation } from '../admin/users/queries.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound, validationError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { createNotification } from '../notifications/service.ts';
import { getSettings } from '../settings/service.ts';
import { gatewayFor } from './gateways/gateway.ts';
import { newReference, recordFailedPayment, recordPayment } from './ledger.ts';
import { DRIVERS, type Driver, enabledDrivers } from './payment-settings.ts';
import { activePlanFor, getPlan, type Plan, type Subscription } from './plans.ts';

/**
 * A user's subscription to a fixed plan (SPEC §4: active, cancelled until its period ends, then
 * completed). The user starts a checkout here; the subscription row is made only by the provider's
 * verified webhook (webhooks.ts -> startSubscription), and so are renewals and failed renewals.
 */
const driverField = z.enum(DRIVERS, { error: 'Choose a payment method: stripe, paystack or paypal.' });
const planField = z.string({ error: 'Choose a plan.' }).trim().min(1, 'Choose a plan.').max(64, 'Choose a plan.');
const SubscribeInput = z.strictObject({ plan_id: planField, driver: driverField });
const ChangeInput = z.strictObject({ plan_id: planField });

export const billingPageUrl = (ctx: AppContext, reference: string) => `${ctx.config.appUrl.origin}/user/settings/billing?checkout=${encodeURIComponent(reference)}`;

function presentSubscription(s: Subscription, plan: Plan | null) {
  return {
    id: s.id,
    plan_id: s.plan_id,
    plan_name: plan?.name ?? '',
    status: s.status,
    driver: s.driver,
    amount_minor: s.amount_minor === null ? null : Number(s.amount_minor),
    currency: s.currency,
    interval: s.interval,
    current_period_start: s.current_period_start,
    current_period_end: s.current_period_end,
    ends_at: s.ends_at,
  };
}

function presentPlan(p: Plan) {
  return {
    id: p.id,
    type: p.type,
    name: p.name,
    description: p.description,
    currency: p.currency,
    interval: p.interval,
    amount_minor: Number(p.amount_minor ?? 0),
    storage_bytes: p.storage_bytes === null ? null : Number(p.storage_bytes),
    max_team_members: p.max_team_members,
    // Metered plans: prices in millionths of the major unit per unit, and the monthly fee.
    storage_gb_day_micros: p.storage_gb_day_micros === null ? null : Number(p.storage_gb_day_micros),
    bandwidth_gb_micros: p.bandwidth_gb_micros === null ? null : Number(p.bandwidth_gb_micros),
    member_day_micros: p.member_day_micros === null ? null : Number(p.member_day_micros),
    flat_fee_minor: p.flat_fee_minor === null ? null : Number(p.flat_fee_minor),
  };
}

/**
 * The billing page's state: the current subscription, the plans open to subscribers (metered ones
 * on a metered instance, fixed ones otherwise), the payment methods on offer.
 */
export async function subscriptionState(ctx: AppContext, user: User) {
  const { subscription_type: type } = await getSettings(ctx);
  const planType = type === 'metered' ? 'metered' : 'fixed';
  const [current, plans, drivers] = await Promise.all([
    activePlanFor(ctx, user.id),
    ctx.db.selectFrom('plans').selectAll().where('type', '=', planType).where('status', '=', 'active').orderBy(planType === 'fixed' ? 'amount_minor' : 'flat_fee_minor').orderBy('name').execute(),
    enabledDrivers(ctx),
  ]);
  return {
    data: {
      subscription: current ? presentSubscription(current.subscription, current.plan) : null,
      plans: plans.map(presentPlan),
      drivers,
    },
  };
}

async function openPlan(ctx: AppContext, planId: string): Promise<Plan> {
  const plan = await getPlan(ctx, planId);
  if (plan?.type !== 'fixed') throw validationError({ plan_id: ['This plan does not exist.'] });
  if (plan.status !== 'active') throw validationError({ plan_id: ['This plan is archived and takes no new subscribers.'] });
  return plan;
}

/** Starts the provider's checkout for a plan; the subscription begins when its webhook confirms payment. */
export async function checkoutSubscription(ctx: AppContext, user: User, body: unknown) {
  const input = validate(SubscribeInput, body);
  const plan = await openPlan(ctx, input.plan_id);
  if (await activePlanFor(ctx, user.id)) throw new AppError(409, 'You already have a subscription: change its plan instead.', { code: 'already_subscribed' });
  const gateway = await gatewayFor(ctx, input.driver);
  const reference = newReference();
  const answer = await gateway.subscribe({
    payer: { userId: user.id, email: user.email, name: user.name },
    metadata: { reference, user_id: user.id, purpose: 'subscription', amount_minor: String(plan.amount_minor), currency: plan.currency, plan_id: plan.id },
    plan,
    returnUrl: billingPageUrl(ctx, reference),
  });
  return { data: { driver: input.driver, ...answer, reference } };
}

async function mySubscription(ctx: AppContext, user: User): Promise<{ plan: Plan; subscription: Subscription }> {
  const current = await activePlanFor(ctx, user.id);
  if (!current) throw notFound('You have no subscription.');
  if (current.subscription.driver === 'balance') throw validationError({ subscription: ['This subscription is paid from your balance and has no provider to change.'] });
  return current;
}

const providerOf = (s: Subscription) => s.driver as Driver;

export async function changePlan(ctx: AppContext, user: User, body: unknown) {
  const input = validate(ChangeInput, body);
  const { subscription } = await mySubscription(ctx, user);
  if (subscription.status !== 'active') throw validationError({ plan_id: ['Resume the subscription before changing its plan.'] });
  const plan = await openPlan(ctx, input.plan_id);
  if (plan.id === subscription.plan_id) throw validationError({ plan_id: ['This is already your plan.'] });
  await (await gatewayFor(ctx, providerOf(subscription))).changePlan(subscription, plan);
  // The provider took the change: the new plan's limits apply at once (SPEC §4).
  await ctx.db
    .updateTable('subscriptions')
    .set({ plan_id: plan.id, amount_minor: plan.amount_minor, currency: plan.currency, interval: plan.interval, updated_at: ctx.clock.now().toISOString() })
    .where('id', '=', subscription.id)
    .execute();
  return subscriptionState(ctx, user);
}

export async function cancelSubscription(ctx: AppContext, user: User) {
  const { subscription } = await mySubscription(ctx, user);
  if (subscription.status === 'cancelled') throw validationError({ subscription: ['The subscription is already cancelled.'] });
  await (await gatewayFor(ctx, providerOf(subscription))).cancelAtPeriodEnd(subscription);
  await markCancelled(ctx, subscription, subscription.current_period_end);
  return subscriptionState(ctx, user);
}

export async function resumeSubscription(ctx: AppContext, user: User) {
  const { subscription } = await mySubscription(ctx, user);
  if (subscription.status !== 'cancelled') throw validationError({ subscription: ['Only a cancelled subscription can be resumed.'] });
  await (await gatewayFor(ctx, providerOf(subscription))).resume(subscription);
  await markResumed(ctx, subscription);
  return subscriptionState(ctx, user);
}

export async function markCancelled(ctx: AppContext, s: Subscription, endsAt: string): Promise<void> {
  await ctx.db.updateTable('subscriptions').set({ status: 'cancelled', ends_at: endsAt, updated_at: ctx.clock.now().toISOString() }).where('id', '=', s.id).where('status', '!=', 'completed').execute();
}

export async function markResumed(ctx: AppContext, s: Subscription): Promise<void> {
  await ctx.db.updateTable('subscriptions').set({ status: 'active', ends_at: null, updated_at: ctx.clock.now().toISOString() }).where('id', '=', s.id).where('status', '=', 'cancelled').execute();
}

// ---- called from verified webhooks (and by LEDGER for metered plans with driver 'balance') ----

export async function subscriptionByProviderRef(ctx: AppContext, driver: Driver, providerRef: string): Promise<Subscription | null> {
  return (await ctx.db.selectFrom('subscriptions').selectAll().where('driver', '=', driver).where('provider_ref', '=', providerRef).executeTakeFirst()) ?? null;
}

/**
 * Creates the subscription (price, currency and interval copied from the plan) and tells the user.
 * Idempotent by the provider's subscription id: a second delivery answers the first row's id.
 */
export async function startSubscription(
  ctx: AppContext,
  input: { userId: string; planId: string; driver: Driver | 'balance'; providerRef: string | null; periodStart: string; periodEnd: string },
): Promise<string> {
  if (input.providerRef && input.driver !== 'balance') {
    const existing = await subscriptionByProviderRef(ctx, input.driver, input.providerRef);
    if (existing) return existing.id;
  }
  const plan = await getPlan(ctx, input.planId);
  if (!plan) throw new Error(`startSubscription: no plan ${input.planId}`);
  const id = randomUUID();
  const now = ctx.clock.now().toISOString();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // One running subscription per user: an older one (another provider, a metered plan) completes.
      await trx
        .updateTable('subscriptions')
        .set({ status: 'completed', ends_at: now, updated_at: now })
        .where('user_id', '=', input.userId)
        .where('status', 'in', ['active', 'cancelled'])
        .execute();
      await trx
        .insertInto('subscriptions')
        .values({
          id,
          user_id: input.userId,
          plan_id: plan.id,
          status: 'active',
          driver: input.driver,
          provider_ref: input.providerRef,
          amount_minor: plan.amount_minor,
          currency: plan.currency,
          interval: plan.interval,
          current_period_start: input.periodStart,
          current_period_end: input.periodEnd,
          ends_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    });
  } catch (error) {
    // The unique index on (driver, provider_ref): another delivery of the same first payment made the row meanwhile.
    const winner = input.providerRef && input.driver !== 'balance' && isUniqueViolation(error) ? await subscriptionByProviderRef(ctx, input.driver, input.providerRef) : null;
    if (winner) return winner.id;
    throw error;
  }
  await createNotification(ctx, {
    userId: input.userId,
    category: 'subscription-created',
    title: 'Subscription started',
    description: `Your ${plan.name} plan is active.`,
    action: { type: 'route', params: { id: null, route: 'Billing', button: 'Billing' } },
  });
  return id;
}

export async function endSubscription(ctx: AppContext, subscriptionId: string, at: string): Promise<void> {
  await ctx.db.updateTable('subscriptions').set({ status: 'completed', ends_at: at, updated_at: ctx.clock.now().toISOString() }).where('id', '=', subscriptionId).execute();
}

/**
 * A paid period (a renewal, or the first invoice). The amount must be what this subscriber pays;
 * the period only ever moves forward, so an older event arriving late changes no dates.
 */
export async function recordRenewal(
  ctx: AppContext,
  s: Subscription,
  paid: { amountMinor: number; currency: string; periodStart: string; periodEnd: string; reference: string },
): Promise<'recorded' | 'amount-mismatch'> {
  if (paid.amountMinor !== Number(s.amount_minor) || paid.currency.toUpperCase() !== s.currency.toUpperCase()) return 'amount-mismatch';
  if (paid.periodEnd > s.current_period_end) {
    await ctx.db
      .updateTable('subscriptions')
      .set({ current_period_start: paid.periodStart, current_period_end: paid.periodEnd, updated_at: ctx.clock.now().toISOString() })
      .where('id', '=', s.id)
      .where('current_period_end', '<', paid.periodEnd)
      .execute();
  }
  await recordPayment(ctx, {
    userId: s.user_id,
    amountMinor: paid.amountMinor,
    currency: s.currency,
    driver: providerOf(s),
    reference: paid.reference,
    note: 'Subscription',
    purpose: 'subscription',
    subscriptionId: s.id,
    periodStart: paid.periodStart,
    periodEnd: paid.periodEnd,
  });
  return 'recorded';
}

export async function recordFailedRenewal(ctx: AppContext, s: Subscription, failed: { amountMinor: number; currency: string; reason: string; reference: string; debtRef?: string | null }): Promise<void> {
  await recordFailedPayment(ctx, { userId: s.user_id, subscriptionId: s.id, amountMinor: failed.amountMinor, currency: failed.currency.toUpperCase(), driver: providerOf(s), reason: failed.reason, reference: failed.reference, debtRef: failed.debtRef ?? null });
}
