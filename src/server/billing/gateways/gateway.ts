import type { AppContext } from '../../context.ts';
import { AppError, validationError } from '../../http/errors.ts';
import { driverKeys, type Driver } from '../payment-settings.ts';
import type { Plan, Subscription } from '../plans.ts';

/**
 * One interface over the payment providers. A gateway only starts things at the provider (a
 * checkout, a plan change, a cancellation); whether money moved is learnt from the provider's
 * verified webhook (billing/webhooks.ts), never from the browser coming back.
 *
 * Every checkout carries the same metadata, which the webhook reads back from the signed event:
 * who pays, for what, and how much we asked for (an event for another amount changes nothing).
 */
export interface CheckoutMetadata {
  reference: string;
  user_id: string;
  purpose: 'top-up' | 'outstanding' | 'subscription';
  amount_minor: string;
  currency: string;
  plan_id?: string;
}

export interface Payer {
  userId: string;
  email: string;
  name: string;
}

export interface ChargeRequest {
  payer: Payer;
  metadata: CheckoutMetadata;
  amountMinor: number;
  currency: string;
  description: string;
  /** Where the provider sends the browser back (the billing page); it changes nothing by itself. */
  returnUrl: string;
}

export interface SubscribeRequest {
  payer: Payer;
  metadata: CheckoutMetadata;
  plan: Plan;
  returnUrl: string;
}

/** What the browser needs to pay: the provider's hosted page, or a client secret for an embedded form. */
export interface CheckoutAnswer {
  url?: string;
  client_secret?: string;
}

export interface Gateway {
  readonly driver: Driver;
  charge(request: ChargeRequest): Promise<CheckoutAnswer>;
  subscribe(request: SubscribeRequest): Promise<CheckoutAnswer>;
  /** Moves the subscription to another plan at the provider (prorated where the provider supports it). */
  changePlan(subscription: Subscription, plan: Plan): Promise<void>;
  cancelAtPeriodEnd(subscription: Subscription): Promise<void>;
  resume(subscription: Subscription): Promise<void>;
}

/** The provider answered with an error or could not be reached: 502, the message says which. */
export const providerError = (driver: Driver, detail: string) => new AppError(502, `The payment provider (${driver}) refused the request: ${detail}`.slice(0, 300), { code: 'payment_provider_error' });

export const driverOff = (driver: Driver) => validationError({ driver: [`Payment by ${driver} is not available.`] });

export async function gatewayFor(ctx: AppContext, driver: Driver): Promise<Gateway> {
  if (driver === 'stripe') {
    const keys = await driverKeys(ctx, 'stripe');
    if (!keys) throw driverOff(driver);
    return (await import('./stripe.ts')).stripeGateway(ctx, keys);
  }
  if (driver === 'paystack') {
    const keys = await driverKeys(ctx, 'paystack');
    if (!keys) throw driverOff(driver);
    return (await import('./paystack.ts')).paystackGateway(ctx, keys);
  }
  const keys = await driverKeys(ctx, 'paypal');
  if (!keys) throw driverOff(driver);
  return (await import('./paypal.ts')).paypalGateway(ctx, keys);
}

/** A plan's ids at the providers (plans.provider_refs). */
export function providerRefs(plan: Plan): Record<string, string> {
  try {
    const refs: unknown = JSON.parse(plan.provider_refs);
    return refs && typeof refs === 'object' ? (refs as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export async function saveProviderRef(ctx: AppContext, plan: Plan, key: string, value: string): Promise<void> {
  const refs = { ...providerRefs(plan), [key]: value };
  await ctx.db.updateTable('plans').set({ provider_refs: JSON.stringify(refs) }).where('id', '=', plan.id).execute();
  plan.provider_refs = JSON.stringify(refs);
}
