import Stripe from 'stripe';
import { badRequest } from '../../http/errors.ts';
import { type BillingEvent, derivedReference, isoFromUnix, readMetadata, type VerifiedEvent } from './events.ts';

// biome-ignore lint/suspicious/noExplicitAny: a provider's event is untyped JSON, read field by field with checks.
type Obj = Record<string, any>;

/**
 * A Stripe webhook: the `Stripe-Signature` header checked by the SDK (`t=…,v1=HMAC-SHA256` of
 * `${t}.${body}` under the endpoint's signing secret, within five minutes), then mapped.
 */
export function parseStripeEvent(raw: string, signature: string | null, webhookSecret: string): VerifiedEvent {
  if (!signature) throw badRequest('Missing the Stripe-Signature header.');
  let event: Obj;
  try {
    event = Stripe.webhooks.constructEvent(raw, signature, webhookSecret) as unknown as Obj;
  } catch {
    throw badRequest('The Stripe-Signature does not match.');
  }
  return { id: String(event.id), type: String(event.type), events: [mapStripe(event)] };
}

function subscriptionIdOf(invoice: Obj): string | null {
  const ref = invoice.parent?.subscription_details?.subscription ?? invoice.subscription;
  return typeof ref === 'string' ? ref : typeof ref?.id === 'string' ? ref.id : null;
}

function mapStripe(event: Obj): BillingEvent {
  const o: Obj = event.data?.object ?? {};
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      if (o.mode !== 'payment' || o.payment_status !== 'paid') return { kind: 'ignored' };
      return { kind: 'payment.succeeded', metadata: readMetadata(o.metadata), amountMinor: Number(o.amount_total), currency: String(o.currency ?? '').toUpperCase() };
    case 'invoice.paid': {
      // Paid out of band: a renewal the user settled through us (settle-provider.ts), recorded then.
      if (o.paid_out_of_band === true) return { kind: 'ignored' };
      const providerRef = subscriptionIdOf(o);
      const period = o.lines?.data?.[0]?.period ?? {};
      const periodStart = isoFromUnix(period.start);
      const periodEnd = isoFromUnix(period.end);
      if (!providerRef || !periodStart || !periodEnd) return { kind: 'ignored' };
      const metadata = readMetadata(o.parent?.subscription_details?.metadata ?? o.subscription_details?.metadata);
      return { kind: 'subscription.paid', providerRef, metadata, amountMinor: Number(o.amount_paid), currency: String(o.currency ?? '').toUpperCase(), periodStart, periodEnd, reference: derivedReference('stripe', String(o.id)) };
    }
    case 'invoice.payment_failed': {
      const providerRef = subscriptionIdOf(o);
      if (!providerRef) return { kind: 'ignored' };
      return { kind: 'subscription.failed', providerRef, amountMinor: Number(o.amount_due), currency: String(o.currency ?? '').toUpperCase(), reason: 'The card payment for the renewal failed.', reference: derivedReference('stripe', `${o.id}:${o.attempt_count ?? 1}`), debtRef: typeof o.id === 'string' ? o.id : null };
    }
    case 'customer.subscription.updated':
      return { kind: 'subscription.updated', providerRef: String(o.id), cancelAtPeriodEnd: o.cancel_at_period_end === true, periodEnd: isoFromUnix(o.items?.data?.[0]?.current_period_end ?? o.current_period_end) };
    case 'customer.subscription.deleted':
      return { kind: 'subscription.ended', providerRef: String(o.id), at: isoFromUnix(o.ended_at) ?? new Date().toISOString() };
    default:
      return { kind: 'ignored' };
  }
}
