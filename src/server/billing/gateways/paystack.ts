import type { AppContext } from '../../context.ts';
import { validationError } from '../../http/errors.ts';
import type { DriverKeys } from '../payment-settings.ts';
import type { Plan } from '../plans.ts';
import { type Gateway, providerError, providerRefs, saveProviderRef } from './gateway.ts';

/**
 * Paystack through its REST API (https://paystack.com/docs/api/): transaction/initialize for a
 * hosted payment page, plans and subscriptions. Every answer is `{ status, message, data }`.
 */
export function paystackApi(ctx: AppContext, secretKey: string) {
  const base = ctx.config.paymentApiBases.paystack.replace(/\/$/, '');
  return async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
    } catch (error) {
      throw providerError('paystack', error instanceof Error ? error.message : 'unreachable');
    }
    const answer = (await res.json().catch(() => null)) as { status?: boolean; message?: string; data?: T } | null;
    if (!res.ok || !answer?.status) throw providerError('paystack', answer?.message ?? `HTTP ${res.status}`);
    return answer.data as T;
  };
}

export function paystackGateway(ctx: AppContext, keys: DriverKeys['paystack']): Gateway {
  const api = paystackApi(ctx, keys.secretKey);

  async function planCode(plan: Plan): Promise<string> {
    const key = `paystack_plan_${plan.amount_minor}_${plan.currency}_${plan.interval}`;
    const known = providerRefs(plan)[key];
    if (known) return known;
    const made = await api<{ plan_code: string }>('POST', '/plan', {
      name: plan.name,
      interval: plan.interval === 'year' ? 'annually' : 'monthly',
      amount: Number(plan.amount_minor),
      currency: plan.currency,
    });
    await saveProviderRef(ctx, plan, key, made.plan_code);
    return made.plan_code;
  }

  const toggle = async (code: string, action: 'enable' | 'disable') => {
    const sub = await api<{ email_token: string }>('GET', `/subscription/${encodeURIComponent(code)}`);
    await api('POST', `/subscription/${action}`, { code, token: sub.email_token });
  };

  return {
    driver: 'paystack',
    async charge(r) {
      const data = await api<{ authorization_url: string; access_code: string }>('POST', '/transaction/initialize', {
        email: r.payer.email,
        amount: r.amountMinor,
        currency: r.currency,
        reference: r.metadata.reference,
        callback_url: r.returnUrl,
        metadata: r.metadata,
      });
      return { url: data.authorization_url, client_secret: data.access_code };
    },
    async subscribe(r) {
      const plan = await planCode(r.plan);
      const data = await api<{ authorization_url: string; access_code: string }>('POST', '/transaction/initialize', {
        email: r.payer.email,
        amount: Number(r.plan.amount_minor),
        currency: r.plan.currency,
        reference: r.metadata.reference,
        callback_url: r.returnUrl,
        plan,
        metadata: r.metadata,
      });
      return { url: data.authorization_url, client_secret: data.access_code };
    },
    changePlan() {
      // Paystack has no plan change on a running subscription (and no proration).
      throw validationError({ plan_id: ['Paystack cannot change the plan of a running subscription: cancel it and subscribe to the other plan when it ends.'] });
    },
    cancelAtPeriodEnd: (s) => toggle(s.provider_ref ?? '', 'disable'),
    resume: (s) => toggle(s.provider_ref ?? '', 'enable'),
  };
}
