import { currencyDigits, decimalText, parseDecimal } from '../../../components/billing/money.ts';
import type { AppContext } from '../../context.ts';
import type { DriverKeys } from '../payment-settings.ts';
import type { Plan } from '../plans.ts';
import { type CheckoutMetadata, type Gateway, providerError, providerRefs, saveProviderRef } from './gateway.ts';

/**
 * PayPal through its REST API (https://developer.paypal.com/api/rest/). `@paypal/paypal-server-sdk`
 * only knows PayPal's own sandbox and live hosts, so it could not be pointed at PAYPAL_API_BASE.
 * Orders for single charges (captured when the buyer approves), Subscriptions for plans.
 */
export function paypalApi(ctx: AppContext, keys: Pick<DriverKeys['paypal'], 'clientId' | 'clientSecret'>) {
  const base = ctx.config.paymentApiBases.paypal.replace(/\/$/, '');
  const send = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    try {
      return await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(20_000) });
    } catch (error) {
      throw providerError('paypal', error instanceof Error ? error.message : 'unreachable');
    }
  };
  async function token(): Promise<string> {
    const basic = Buffer.from(`${keys.clientId}:${keys.clientSecret}`).toString('base64');
    const res = await send('POST', '/v1/oauth2/token', { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials');
    const answer = (await res.json().catch(() => null)) as { access_token?: string } | null;
    if (!res.ok || !answer?.access_token) throw providerError('paypal', `could not get an access token (HTTP ${res.status})`);
    return answer.access_token;
  }
  return async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await send(method, path, { Authorization: `Bearer ${await token()}`, 'Content-Type': 'application/json' }, body === undefined ? undefined : JSON.stringify(body));
    const answer = (await res.json().catch(() => ({}))) as T & { message?: string };
    if (!res.ok) throw providerError('paypal', answer.message ?? `HTTP ${res.status}`);
    return answer;
  };
}

/** Minor units as PayPal's decimal string ("10.00"), without floats. */
export function toDecimal(amountMinor: number, currency: string): string {
  return decimalText(amountMinor, currencyDigits(currency));
}

/** PayPal's decimal string ("10.00": digits, a point, digits) back to minor units; null when it is not one. */
export function fromDecimal(value: string, currency: string): number | null {
  return /^\d+(?:\.\d+)?$/.test(value) ? parseDecimal(value, currencyDigits(currency)) : null;
}

/** The checkout metadata in PayPal's custom_id (at most 127 characters): `reference|user|purpose|amount|currency|plan`. */
export const packMetadata = (m: CheckoutMetadata) => [m.reference, m.user_id, m.purpose, m.amount_minor, m.currency, m.plan_id ?? ''].join('|');
export function unpackMetadata(customId: unknown): CheckoutMetadata | null {
  if (typeof customId !== 'string') return null;
  const [reference, user_id, purpose, amount_minor, currency, plan_id] = customId.split('|');
  if (!reference || !user_id || !purpose || !amount_minor || !currency) return null;
  return { reference, user_id, purpose: purpose as CheckoutMetadata['purpose'], amount_minor, currency, ...(plan_id ? { plan_id } : {}) };
}

const approveLink = (links: { rel: string; href: string }[] | undefined) => links?.find((l) => l.rel === 'approve' || l.rel === 'payer-action')?.href;

export function paypalGateway(ctx: AppContext, keys: DriverKeys['paypal']): Gateway {
  const api = paypalApi(ctx, keys);

  async function planId(plan: Plan): Promise<string> {
    const key = `paypal_plan_${plan.amount_minor}_${plan.currency}_${plan.interval}`;
    const known = providerRefs(plan)[key];
    if (known) return known;
    const product = await api<{ id: string }>('POST', '/v1/catalogs/products', { name: plan.name, type: 'SERVICE' });
    const made = await api<{ id: string }>('POST', '/v1/billing/plans', {
      product_id: product.id,
      name: plan.name,
      billing_cycles: [
        {
          frequency: { interval_unit: plan.interval === 'year' ? 'YEAR' : 'MONTH', interval_count: 1 },
          tenure_type: 'REGULAR',
          sequence: 1,
          total_cycles: 0,
          pricing_scheme: { fixed_price: { value: toDecimal(Number(plan.amount_minor), plan.currency), currency_code: plan.currency } },
        },
      ],
      payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 3 },
    });
    await saveProviderRef(ctx, plan, key, made.id);
    return made.id;
  }

  return {
    driver: 'paypal',
    async charge(r) {
      const order = await api<{ id: string; links?: { rel: string; href: string }[] }>('POST', '/v2/checkout/orders', {
        intent: 'CAPTURE',
        purchase_units: [{ reference_id: r.metadata.reference, custom_id: packMetadata(r.metadata), description: r.description, amount: { currency_code: r.currency, value: toDecimal(r.amountMinor, r.currency) } }],
        payment_source: { paypal: { experience_context: { return_url: r.returnUrl, cancel_url: r.returnUrl, user_action: 'PAY_NOW' } } },
      });
      return { url: approveLink(order.links) };
    },
    async subscribe(r) {
      const sub = await api<{ id: string; links?: { rel: string; href: string }[] }>('POST', '/v1/billing/subscriptions', {
        plan_id: await planId(r.plan),
        custom_id: packMetadata(r.metadata),
        subscriber: { email_address: r.payer.email },
        application_context: { return_url: r.returnUrl, cancel_url: r.returnUrl, user_action: 'SUBSCRIBE_NOW' },
      });
      return { url: approveLink(sub.links) };
    },
    async changePlan(s, plan) {
      await api('POST', `/v1/billing/subscriptions/${encodeURIComponent(s.provider_ref ?? '')}/revise`, { plan_id: await planId(plan) });
    },
    // Suspended, not cancelled: PayPal cannot reactivate a cancelled subscription, and resuming must work until the period ends.
    async cancelAtPeriodEnd(s) {
      await api('POST', `/v1/billing/subscriptions/${encodeURIComponent(s.provider_ref ?? '')}/suspend`, { reason: 'Cancelled by the customer at the end of the period.' });
    },
    async resume(s) {
      await api('POST', `/v1/billing/subscriptions/${encodeURIComponent(s.provider_ref ?? '')}/activate`, { reason: 'Resumed by the customer.' });
    },
  };
}
