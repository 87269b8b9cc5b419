import Stripe from 'stripe';
import type { AppContext } from '../../context.ts';
import type { DriverKeys } from '../payment-settings.ts';
import type { Plan, Subscription } from '../plans.ts';
import { type Gateway, providerError, providerRefs, saveProviderRef } from './gateway.ts';

/** The SDK pointed at STRIPE_API_BASE (the real API by default, a local fake in tests). */
export function stripeClient(ctx: AppContext, secretKey: string): Stripe {
  const base = new URL(ctx.config.paymentApiBases.stripe);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, { host: base.hostname, port: base.port || (protocol === 'http' ? 80 : 443), protocol, maxNetworkRetries: 1, telemetry: false, timeout: 20_000 });
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw providerError('stripe', error instanceof Error ? error.message : 'unknown error');
  }
}

/** Card payments through Stripe Checkout: hosted pages for single charges and subscriptions. */
export function stripeGateway(ctx: AppContext, keys: DriverKeys['stripe']): Gateway {
  const stripe = stripeClient(ctx, keys.secretKey);

  /** The plan's recurring price at Stripe, made once (a product and a price) and kept in provider_refs. */
  async function priceFor(plan: Plan): Promise<string> {
    const known = providerRefs(plan)[`stripe_price_${plan.amount_minor}_${plan.currency}_${plan.interval}`];
    if (known) return known;
    const price = await call(() =>
      stripe.prices.create({
        currency: plan.currency.toLowerCase(),
        unit_amount: Number(plan.amount_minor),
        recurring: { interval: plan.interval === 'year' ? 'year' : 'month' },
        product_data: { name: plan.name },
        metadata: { plan_id: plan.id },
      }),
    );
    await saveProviderRef(ctx, plan, `stripe_price_${plan.amount_minor}_${plan.currency}_${plan.interval}`, price.id);
    return price.id;
  }

  const setCancel = (subscription: Subscription, cancel: boolean) =>
    call(() => stripe.subscriptions.update(subscription.provider_ref ?? '', { cancel_at_period_end: cancel })).then(() => undefined);

  return {
    driver: 'stripe',
    async charge(r) {
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'payment',
          client_reference_id: r.metadata.reference,
          customer_email: r.payer.email,
          line_items: [{ quantity: 1, price_data: { currency: r.currency.toLowerCase(), unit_amount: r.amountMinor, product_data: { name: r.description } } }],
          metadata: { ...r.metadata },
          payment_intent_data: { metadata: { ...r.metadata } },
          success_url: r.returnUrl,
          cancel_url: r.returnUrl,
        }),
      );
      return { url: session.url ?? undefined };
    },
    async subscribe(r) {
      const price = await priceFor(r.plan);
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          client_reference_id: r.metadata.reference,
          customer_email: r.payer.email,
          line_items: [{ price, quantity: 1 }],
          metadata: { ...r.metadata },
          subscription_data: { metadata: { ...r.metadata } },
          success_url: r.returnUrl,
          cancel_url: r.returnUrl,
        }),
      );
      return { url: session.url ?? undefined };
    },
    async changePlan(subscription, plan) {
      const price = await priceFor(plan);
      const current = await call(() => stripe.subscriptions.retrieve(subscription.provider_ref ?? ''));
      const item = current.items.data[0];
      if (!item) throw providerError('stripe', 'the subscription has no item to change');
      await call(() =>
        stripe.subscriptions.update(subscription.provider_ref ?? '', {
          items: [{ id: item.id, price }],
          proration_behavior: 'create_prorations',
          metadata: { plan_id: plan.id, amount_minor: String(plan.amount_minor), currency: plan.currency },
        }),
      );
    },
    cancelAtPeriodEnd: (subscription) => setCancel(subscription, true),
    resume: (subscription) => setCancel(subscription, false),
  };
}
