import { badRequest } from '../../http/errors.ts';
import type { AppContext } from '../../context.ts';
import type { DriverKeys } from '../payment-settings.ts';
import { type BillingEvent, derivedReference, type VerifiedEvent } from './events.ts';
import { fromDecimal, paypalApi, unpackMetadata } from './paypal.ts';

// biome-ignore lint/suspicious/noExplicitAny: a provider's event is untyped JSON, read field by field with checks.
type Obj = Record<string, any>;
const HEADERS = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'] as const;

/**
 * PayPal webhooks are verified by PayPal itself: POST /v1/notifications/verify-webhook-signature
 * with the transmission headers, our webhook id and the event must answer SUCCESS.
 */
export async function parsePaypalEvent(ctx: AppContext, raw: string, headers: Headers, keys: DriverKeys['paypal']): Promise<VerifiedEvent> {
  const values = HEADERS.map((h) => headers.get(h));
  if (values.some((v) => !v)) throw badRequest('Missing the PayPal transmission headers.');
  let event: Obj;
  try {
    event = JSON.parse(raw) as Obj;
  } catch {
    throw badRequest('The webhook body is not JSON.');
  }
  const [auth_algo, cert_url, transmission_id, transmission_sig, transmission_time] = values as string[];
  const answer = await paypalApi(ctx, keys)<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', {
    auth_algo,
    cert_url,
    transmission_id,
    transmission_sig,
    transmission_time,
    webhook_id: keys.webhookId,
    webhook_event: event,
  });
  if (answer.verification_status !== 'SUCCESS') throw badRequest('The PayPal signature does not verify.');
  return { id: String(event.id), type: String(event.event_type), events: [mapPaypal(event)] };
}

const iso = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null);
const minor = (amount: Obj | undefined, field: 'value' | 'total') => {
  const currency = String(amount?.currency_code ?? amount?.currency ?? '').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return null;
  const value = fromDecimal(String(amount?.[field] ?? ''), currency);
  return value === null ? null : { amountMinor: value, currency };
};

function mapPaypal(event: Obj): BillingEvent {
  const r: Obj = event.resource ?? {};
  switch (event.event_type) {
    case 'CHECKOUT.ORDER.APPROVED':
      return typeof r.id === 'string' ? { kind: 'order.approved', orderId: r.id } : { kind: 'ignored' };
    case 'PAYMENT.CAPTURE.COMPLETED': {
      const paid = minor(r.amount, 'value');
      return paid ? { kind: 'payment.succeeded', metadata: unpackMetadata(r.custom_id), ...paid } : { kind: 'ignored' };
    }
    case 'PAYMENT.SALE.COMPLETED': {
      const paid = minor(r.amount, 'total');
      const start = iso(r.create_time);
      if (!paid || typeof r.billing_agreement_id !== 'string' || !start) return { kind: 'ignored' };
      return { kind: 'subscription.paid', providerRef: r.billing_agreement_id, metadata: unpackMetadata(r.custom), ...paid, periodStart: start, periodEnd: null, reference: derivedReference('paypal', String(r.id)) };
    }
    case 'BILLING.SUBSCRIPTION.PAYMENT.FAILED': {
      const failed = minor(r.billing_info?.last_failed_payment?.amount, 'value');
      if (!failed || typeof r.id !== 'string') return { kind: 'ignored' };
      return { kind: 'subscription.failed', providerRef: r.id, ...failed, reason: 'The PayPal payment for the renewal failed.', reference: derivedReference('paypal', `${event.id}`), debtRef: null };
    }
    case 'BILLING.SUBSCRIPTION.SUSPENDED':
      return typeof r.id === 'string' ? { kind: 'subscription.updated', providerRef: r.id, cancelAtPeriodEnd: true, periodEnd: null } : { kind: 'ignored' };
    case 'BILLING.SUBSCRIPTION.CANCELLED':
    case 'BILLING.SUBSCRIPTION.EXPIRED':
      return typeof r.id === 'string' ? { kind: 'subscription.ended', providerRef: r.id, at: iso(r.status_update_time) ?? new Date().toISOString() } : { kind: 'ignored' };
    default:
      return { kind: 'ignored' };
  }
}
