import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFixedPlan, startPayWorld, type PayWorld } from '../support/billing-pay.ts';
import { registerUser } from '../support/client.ts';
import { withSeed } from '../support/seed.ts';

// Subscriptions through Paystack and PayPal: started, renewed, failed and ended only by their webhooks.
let w: PayWorld;
beforeAll(async () => {
  w = await startPayWorld();
});
afterAll(async () => {
  await w?.stop();
});

const db = <T>(work: Parameters<typeof withSeed<T>>[1]) => withSeed(w.server, work);
const subscriptionOf = (userId: string) => db((ctx) => ctx.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst());
const countOf = (table: 'transactions' | 'failed_payments', userId: string) =>
  db(async (ctx) => Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n));
const DAY = 86_400_000;

describe('Paystack subscriptions', () => {
  it('starts from the first charge, takes its code in whatever order the events come, renews once, records a failure', async () => {
    const { client, user, email } = await registerUser(w.server.url);
    const planId = await db((ctx) => insertFixedPlan(ctx, { amount_minor: 250_000, currency: 'NGN' }));
    const checkout = await client.post('/api/billing/subscription', { plan_id: planId, driver: 'paystack' });
    expect(checkout.status, checkout.text).toBe(200);
    const init = w.paystack.transactions.get(checkout.body.data.reference)!;
    expect(init).toMatchObject({ email, amount: 250_000, currency: 'NGN', plan: expect.stringMatching(/^PLN_/) });
    const charge = w.paystack.chargeSuccess(checkout.body.data.reference);
    const created = { subscription_code: 'SUB_abc123', email_token: 'tok', next_payment_date: new Date(Date.now() + 30 * DAY).toISOString(), customer: charge.customer, plan: { plan_code: init.plan } };

    // subscription.create before the charge: not known yet, so Paystack is asked to deliver it again.
    const early = await w.paystack.sendEvent('subscription.create', created);
    expect(early.status).toBe(409);
    expect(await subscriptionOf(user.id)).toBeUndefined();

    expect((await w.paystack.sendEvent('charge.success', charge)).status).toBe(200);
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active', driver: 'paystack', plan_id: planId });
    expect(await countOf('transactions', user.id)).toBe(1);

    expect((await w.paystack.sendEvent('subscription.create', created)).status).toBe(200);
    const linked = (await subscriptionOf(user.id))!;
    expect(linked.provider_ref).toBe('SUB_abc123');
    expect(linked.current_period_end).toBe(created.next_payment_date);

    const start = new Date(Date.now() + 30 * DAY).toISOString();
    const end = new Date(Date.now() + 60 * DAY).toISOString();
    const invoice = { invoice_code: 'INV_1', paid: true, amount: 250_000, period_start: start, period_end: end, subscription: { subscription_code: 'SUB_abc123' }, transaction: { currency: 'NGN' } };
    expect((await w.paystack.sendEvent('invoice.update', invoice)).status).toBe(200);
    expect((await w.paystack.sendEvent('invoice.update', invoice)).status).toBe(200);
    expect(await countOf('transactions', user.id)).toBe(2);
    expect((await subscriptionOf(user.id))!.current_period_end).toBe(end);

    const failed = { invoice_code: 'INV_2', amount: 250_000, subscription: { subscription_code: 'SUB_abc123' }, transaction: { currency: 'NGN' } };
    expect((await w.paystack.sendEvent('invoice.payment_failed', failed)).status).toBe(200);
    expect(await countOf('failed_payments', user.id)).toBe(1);

    // Paystack cannot change a running plan; cancelling disables it there.
    const other = await db((ctx) => insertFixedPlan(ctx, { amount_minor: 500_000, currency: 'NGN' }));
    expect((await client.request('/api/billing/subscription', { method: 'PATCH', json: { plan_id: other } })).status).toBe(422);
    const cancel = await client.request('/api/billing/subscription', { method: 'DELETE' });
    expect(cancel.status, cancel.text).toBe(200);
    expect(w.paystack.requests).toContain('POST /subscription/disable');
    expect((await subscriptionOf(user.id))!.status).toBe('cancelled');
  });

  it('asks again for a renewal of a subscription it does not know yet, and ignores a subscription.create nobody paid for', async () => {
    const invoice = { invoice_code: 'INV_x', paid: true, amount: 100, period_start: new Date().toISOString(), subscription: { subscription_code: 'SUB_unknown' }, transaction: { currency: 'NGN' } };
    expect((await w.paystack.sendEvent('invoice.update', invoice)).status).toBe(409);
    expect((await w.paystack.sendEvent('invoice.payment_failed', invoice)).status).toBe(200);
  });
});

describe('PayPal subscriptions', () => {
  it('starts from the first sale with our custom id, renews by the next one, fails and ends by its events', async () => {
    const { client, user } = await registerUser(w.server.url);
    const planId = await db((ctx) => insertFixedPlan(ctx, { amount_minor: 1200, currency: 'EUR', interval: 'year' }));
    const checkout = await client.post('/api/billing/subscription', { plan_id: planId, driver: 'paypal' });
    expect(checkout.status, checkout.text).toBe(200);
    const subId = new URL(checkout.body.data.url).searchParams.get('ba_token')!;
    const custom = w.paypal.subscriptions.get(subId)!.custom_id as string;
    expect(custom.length).toBeLessThanOrEqual(127);

    const first = { id: 'SALE-1', billing_agreement_id: subId, custom, amount: { total: '12.00', currency: 'EUR' }, create_time: new Date().toISOString() };
    expect((await w.paypal.sendEvent('PAYMENT.SALE.COMPLETED', first)).status).toBe(200);
    const sub = (await subscriptionOf(user.id))!;
    expect(sub).toMatchObject({ status: 'active', driver: 'paypal', provider_ref: subId, interval: 'year' });
    expect(Date.parse(sub.current_period_end) - Date.parse(sub.current_period_start)).toBeGreaterThanOrEqual(365 * DAY);

    const renewal = { id: 'SALE-2', billing_agreement_id: subId, amount: { total: '12.00', currency: 'EUR' }, create_time: sub.current_period_end };
    expect((await w.paypal.sendEvent('PAYMENT.SALE.COMPLETED', renewal)).status).toBe(200);
    expect((await w.paypal.sendEvent('PAYMENT.SALE.COMPLETED', renewal)).status).toBe(200);
    expect(await countOf('transactions', user.id)).toBe(2);
    expect((await subscriptionOf(user.id))!.current_period_start).toBe(sub.current_period_end);

    const cheap = { id: 'SALE-3', billing_agreement_id: subId, amount: { total: '0.12', currency: 'EUR' }, create_time: new Date().toISOString() };
    expect((await w.paypal.sendEvent('PAYMENT.SALE.COMPLETED', cheap)).status).toBe(200);
    expect(await countOf('transactions', user.id)).toBe(2);

    const failed = { id: subId, billing_info: { last_failed_payment: { amount: { value: '12.00', currency_code: 'EUR' } } } };
    expect((await w.paypal.sendEvent('BILLING.SUBSCRIPTION.PAYMENT.FAILED', failed)).status).toBe(200);
    expect(await countOf('failed_payments', user.id)).toBe(1);

    expect((await client.request('/api/billing/subscription', { method: 'DELETE' })).status).toBe(200);
    expect(w.paypal.subscriptionActions).toContain(`${subId} suspend`);
    expect((await client.post('/api/billing/subscription/resume', {})).status).toBe(200);
    expect(w.paypal.subscriptionActions).toContain(`${subId} activate`);
    expect((await w.paypal.sendEvent('BILLING.SUBSCRIPTION.CANCELLED', { id: subId, status_update_time: new Date().toISOString() })).status).toBe(200);
    expect((await subscriptionOf(user.id))!.status).toBe('completed');
  });
});
