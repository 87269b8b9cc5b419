import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import type { BillingEvent, VerifiedEvent } from './gateways/events.ts';
import type { CheckoutMetadata } from './gateways/gateway.ts';
import { paypalApi } from './gateways/paypal.ts';
import { parsePaypalEvent } from './gateways/paypal-events.ts';
import { parsePaystackEvent } from './gateways/paystack-events.ts';
import { parseStripeEvent } from './gateways/stripe-events.ts';
import { recordPayment } from './ledger.ts';
import { driverKeys, type Driver } from './payment-settings.ts';
import { getPlan } from './plans.ts';
import { openProviderDebts, settleProviderDebts } from './settle-provider.ts';
import { endSubscription, markCancelled, markResumed, recordFailedRenewal, recordRenewal, startSubscription, subscriptionByProviderRef } from './subscriptions.ts';

/**
 * The providers' webhooks: the only place payment state changes. Each event is verified as its
 * provider signs it (400 otherwise, nothing changes), then acted on once: its id is claimed in
 * payment_events before acting (a second delivery meanwhile gets 409 and comes again; one after
 * gets 200), and every action is idempotent on its own too (payments by reference, subscriptions
 * by the provider's id), so a redelivery, two at once or an older event arriving late do no harm. Events we cannot place (an unknown customer, an amount we did not ask for) are
 * answered 200 so the provider stops resending, logged, and change nothing.
 */
export async function receiveWebhook(ctx: AppContext, driver: Driver, raw: string, headers: Headers): Promise<{ received: true; duplicate?: true }> {
  const verified = await verify(ctx, driver, raw, headers);
  const claim = await claimEvent(ctx, driver, verified);
  if (claim === 'done') return { received: true, duplicate: true };
  if (claim === 'busy') throw new AppError(409, 'This event is being handled; deliver it again later.', { code: 'retry_later' });
  try {
    for (const event of verified.events) await act(ctx, driver, verified, event);
  } catch (error) {
    // Not handled: let the provider's next delivery try again.
    await ctx.db.deleteFrom('payment_events').where('provider', '=', driver).where('event_id', '=', verified.id).execute();
    throw error;
  }
  await ctx.db.updateTable('payment_events').set({ type: verified.type.slice(0, 100) }).where('provider', '=', driver).where('event_id', '=', verified.id).execute();
  return { received: true };
}

const PROCESSING = 'processing:';
/** A claim older than this belongs to a process that died while handling it: the next delivery takes it over. */
const STALE_CLAIM_MS = 5 * 60_000;

/**
 * The event's row in payment_events, claimed before acting so two deliveries at once (two
 * processes, or two requests in one) do not both act: 'mine' to handle it, 'done' when it was
 * handled before, 'busy' while another delivery handles it.
 */
async function claimEvent(ctx: AppContext, driver: Driver, verified: VerifiedEvent): Promise<'mine' | 'done' | 'busy'> {
  const now = ctx.clock.now();
  const type = `${PROCESSING}${verified.type}`.slice(0, 100);
  const inserted = await ctx.db
    .insertInto('payment_events')
    .values({ provider: driver, event_id: verified.id, type, received_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  if (inserted) return 'mine';
  const row = await ctx.db.selectFrom('payment_events').select(['type', 'received_at']).where('provider', '=', driver).where('event_id', '=', verified.id).executeTakeFirst();
  if (!row) return 'busy';
  if (!row.type.startsWith(PROCESSING)) return 'done';
  if (now.getTime() - Date.parse(row.received_at) < STALE_CLAIM_MS) return 'busy';
  const taken = await ctx.db
    .updateTable('payment_events')
    .set({ received_at: now.toISOString() })
    .where('provider', '=', driver)
    .where('event_id', '=', verified.id)
    .where('received_at', '=', row.received_at)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? 'mine' : 'busy';
}

async function verify(ctx: AppContext, driver: Driver, raw: string, headers: Headers): Promise<VerifiedEvent> {
  // A provider switched off (or without its secret) has nobody to verify against: refused like a bad signature.
  const off = () => new AppError(400, `Payment by ${driver} is not configured.`);
  if (driver === 'stripe') {
    const keys = await driverKeys(ctx, 'stripe');
    if (!keys?.webhookSecret) throw off();
    return parseStripeEvent(raw, headers.get('stripe-signature'), keys.webhookSecret);
  }
  if (driver === 'paystack') {
    const keys = await driverKeys(ctx, 'paystack');
    if (!keys?.secretKey) throw off();
    return parsePaystackEvent(raw, headers.get('x-paystack-signature'), keys.secretKey);
  }
  const keys = await driverKeys(ctx, 'paypal');
  if (!keys?.clientSecret) throw off();
  return parsePaypalEvent(ctx, raw, headers, keys);
}

/**
 * An event about a subscription whose first charge has not arrived yet (Paystack sends them in no
 * set order): 409 and not recorded as seen, so the provider delivers it again later.
 */
const notYet = () => new AppError(409, 'This event refers to a subscription not known yet; deliver it again later.', { code: 'retry_later' });

function ignore(ctx: AppContext, driver: Driver, verified: VerifiedEvent, reason: string, details: Record<string, unknown> = {}): void {
  ctx.logger.warn({ provider: driver, event_id: verified.id, type: verified.type, ...details }, `payment webhook ignored: ${reason}`);
}

async function knownUser(ctx: AppContext, metadata: CheckoutMetadata | null): Promise<string | null> {
  if (!metadata) return null;
  const user = await ctx.db.selectFrom('users').select('id').where('id', '=', metadata.user_id).executeTakeFirst();
  return user?.id ?? null;
}

const addInterval = (startIso: string, interval: string | null) => {
  const d = new Date(startIso);
  if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString();
};

async function act(ctx: AppContext, driver: Driver, verified: VerifiedEvent, event: BillingEvent): Promise<void> {
  switch (event.kind) {
    case 'ignored':
      return;
    case 'payment.succeeded': {
      const m = event.metadata;
      const userId = await knownUser(ctx, m);
      if (!m || !userId) return ignore(ctx, driver, verified, 'unknown customer');
      if (m.purpose === 'subscription') return ignore(ctx, driver, verified, 'a subscription payment arrives as its own event');
      if (String(event.amountMinor) !== m.amount_minor || event.currency !== m.currency.toUpperCase()) {
        return ignore(ctx, driver, verified, 'amount differs from the checkout', { expected: `${m.amount_minor} ${m.currency}`, paid: `${event.amountMinor} ${event.currency}` });
      }
      const debts = m.purpose === 'outstanding' ? await openProviderDebts(ctx, userId) : [];
      await recordPayment(ctx, {
        userId,
        amountMinor: event.amountMinor,
        currency: event.currency,
        driver,
        reference: m.reference,
        note: m.purpose === 'top-up' ? 'Balance top-up' : 'Outstanding payments',
        purpose: m.purpose,
      });
      // The renewals it settled are closed at their provider too, so they are not charged again.
      await settleProviderDebts(ctx, userId, debts);
      return;
    }
    case 'subscription.paid': {
      let subscription = await subscriptionByProviderRef(ctx, driver, event.providerRef);
      if (!subscription) {
        // The first paid period starts the subscription; the checkout's metadata says for whom and which plan.
        const m = event.metadata;
        if (!m && event.retryIfUnknown) throw notYet();
        const userId = await knownUser(ctx, m);
        const plan = m?.plan_id ? await getPlan(ctx, m.plan_id) : null;
        if (!m || !userId || !plan) return ignore(ctx, driver, verified, 'unknown customer or subscription', { provider_ref: event.providerRef });
        if (String(event.amountMinor) !== String(plan.amount_minor) || event.currency !== plan.currency.toUpperCase()) {
          return ignore(ctx, driver, verified, 'amount differs from the plan', { expected: `${plan.amount_minor} ${plan.currency}`, paid: `${event.amountMinor} ${event.currency}` });
        }
        const periodEnd = event.periodEnd ?? addInterval(event.periodStart, plan.interval);
        const id = await startSubscription(ctx, { userId, planId: plan.id, driver, providerRef: event.providerRef, periodStart: event.periodStart, periodEnd });
        subscription = (await ctx.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) ?? null;
      }
      const periodEnd = event.periodEnd ?? addInterval(event.periodStart, subscription.interval);
      const result = await recordRenewal(ctx, subscription, { amountMinor: event.amountMinor, currency: event.currency, periodStart: event.periodStart, periodEnd, reference: event.reference });
      if (result === 'amount-mismatch') ignore(ctx, driver, verified, 'amount differs from the subscription', { subscription: subscription.id, paid: `${event.amountMinor} ${event.currency}` });
      return;
    }
    case 'subscription.linked': {
      const subscription = await subscriptionByProviderRef(ctx, driver, event.providerRef);
      if (!subscription) {
        if (await subscriptionByProviderRef(ctx, driver, event.newRef)) return;
        throw notYet();
      }
      await ctx.db
        .updateTable('subscriptions')
        .set({ provider_ref: event.newRef, ...(event.periodEnd && event.periodEnd > subscription.current_period_end ? { current_period_end: event.periodEnd } : {}), updated_at: ctx.clock.now().toISOString() })
        .where('id', '=', subscription.id)
        .execute();
      return;
    }
    case 'subscription.failed': {
      const subscription = await subscriptionByProviderRef(ctx, driver, event.providerRef);
      if (!subscription) return ignore(ctx, driver, verified, 'unknown subscription', { provider_ref: event.providerRef });
      await recordFailedRenewal(ctx, subscription, event);
      return;
    }
    case 'subscription.updated': {
      const subscription = await subscriptionByProviderRef(ctx, driver, event.providerRef);
      if (!subscription) return ignore(ctx, driver, verified, 'unknown subscription', { provider_ref: event.providerRef });
      if (event.cancelAtPeriodEnd && subscription.status === 'active') await markCancelled(ctx, subscription, event.periodEnd ?? subscription.current_period_end);
      if (!event.cancelAtPeriodEnd && subscription.status === 'cancelled') await markResumed(ctx, subscription);
      return;
    }
    case 'subscription.ended': {
      const subscription = await subscriptionByProviderRef(ctx, driver, event.providerRef);
      if (!subscription) return ignore(ctx, driver, verified, 'unknown subscription', { provider_ref: event.providerRef });
      if (subscription.status !== 'completed') await endSubscription(ctx, subscription.id, event.at);
      return;
    }
    case 'order.approved': {
      const keys = await driverKeys(ctx, 'paypal');
      if (!keys) return;
      // Capturing is how PayPal moves the money; its PAYMENT.CAPTURE.COMPLETED webhook records it.
      try {
        await paypalApi(ctx, keys)('POST', `/v2/checkout/orders/${encodeURIComponent(event.orderId)}/capture`, {});
      } catch (error) {
        // Already captured (a redelivery), or PayPal refused: nothing was paid through us either way.
        ignore(ctx, driver, verified, 'the order could not be captured', { order: event.orderId, error: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
  }
}
