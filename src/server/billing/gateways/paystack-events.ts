import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../../http/errors.ts';
import { type BillingEvent, derivedReference, readMetadata, type VerifiedEvent } from './events.ts';

// biome-ignore lint/suspicious/noExplicitAny: a provider's event is untyped JSON, read field by field with checks.
type Obj = Record<string, any>;

/** Paystack signs the raw body: `x-paystack-signature` is its HMAC-SHA512 (hex) under the secret key. */
export function parsePaystackEvent(raw: string, signature: string | null, secretKey: string): VerifiedEvent {
  if (!signature) throw badRequest('Missing the x-paystack-signature header.');
  const expected = createHmac('sha512', secretKey).update(raw).digest();
  const given = Buffer.from(signature, 'hex');
  if (!secretKey || given.length !== expected.length || !timingSafeEqual(given, expected)) throw badRequest('The x-paystack-signature does not match.');
  let event: Obj;
  try {
    event = JSON.parse(raw) as Obj;
  } catch {
    throw badRequest('The webhook body is not JSON.');
  }
  // Paystack events carry no id of their own; a redelivery sends the same body.
  const id = `${event.event}:${createHash('sha256').update(raw).digest('hex').slice(0, 40)}`;
  return { id, type: String(event.event), events: [mapPaystack(event)] };
}

/** Until Paystack names the subscription, a first subscription charge is known by customer and plan. */
export const pendingPaystackRef = (customerCode: string, planCode: string) => `pending:${customerCode}:${planCode}`;

function metadataOf(value: unknown) {
  if (typeof value === 'string') {
    try {
      return readMetadata(JSON.parse(value));
    } catch {
      return null;
    }
  }
  return readMetadata(value);
}

const iso = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null);

function mapPaystack(event: Obj): BillingEvent {
  const d: Obj = event.data ?? {};
  switch (event.event) {
    case 'charge.success': {
      const metadata = metadataOf(d.metadata);
      const currency = String(d.currency ?? '').toUpperCase();
      if (metadata?.purpose === 'subscription') {
        const planCode = d.plan?.plan_code;
        const customer = d.customer?.customer_code;
        const start = iso(d.paid_at) ?? iso(d.paidAt);
        if (typeof planCode !== 'string' || typeof customer !== 'string' || !start) return { kind: 'ignored' };
        return { kind: 'subscription.paid', providerRef: pendingPaystackRef(customer, planCode), metadata, amountMinor: Number(d.amount), currency, periodStart: start, periodEnd: null, reference: metadata.reference };
      }
      // A renewal's charge (no metadata of ours) is recorded from its invoice.update event instead.
      if (!metadata) return { kind: 'ignored' };
      return { kind: 'payment.succeeded', metadata, amountMinor: Number(d.amount), currency };
    }
    case 'subscription.create': {
      const customer = d.customer?.customer_code;
      const planCode = d.plan?.plan_code;
      if (typeof customer !== 'string' || typeof planCode !== 'string' || typeof d.subscription_code !== 'string') return { kind: 'ignored' };
      return { kind: 'subscription.linked', providerRef: pendingPaystackRef(customer, planCode), newRef: d.subscription_code, periodEnd: iso(d.next_payment_date) };
    }
    case 'invoice.update':
    case 'invoice.create': {
      const code = d.subscription?.subscription_code;
      const start = iso(d.period_start);
      if (!d.paid || typeof code !== 'string' || !start) return { kind: 'ignored' };
      return { kind: 'subscription.paid', providerRef: code, metadata: null, amountMinor: Number(d.amount), currency: String(d.transaction?.currency ?? d.currency ?? '').toUpperCase(), periodStart: start, periodEnd: iso(d.period_end), reference: derivedReference('paystack', String(d.invoice_code)), retryIfUnknown: true };
    }
    case 'invoice.payment_failed': {
      const code = d.subscription?.subscription_code;
      if (typeof code !== 'string') return { kind: 'ignored' };
      return { kind: 'subscription.failed', providerRef: code, amountMinor: Number(d.amount), currency: String(d.transaction?.currency ?? d.currency ?? '').toUpperCase(), reason: 'The Paystack payment for the renewal failed.', reference: derivedReference('paystack', `${d.invoice_code}:failed`), debtRef: typeof d.invoice_code === 'string' ? d.invoice_code : null };
    }
    case 'subscription.not_renew':
      return typeof d.subscription_code === 'string' ? { kind: 'subscription.updated', providerRef: d.subscription_code, cancelAtPeriodEnd: true, periodEnd: iso(d.next_payment_date) } : { kind: 'ignored' };
    case 'subscription.disable':
      return typeof d.subscription_code === 'string' ? { kind: 'subscription.ended', providerRef: d.subscription_code, at: iso(d.updatedAt) ?? new Date().toISOString() } : { kind: 'ignored' };
    default:
      return { kind: 'ignored' };
  }
}
