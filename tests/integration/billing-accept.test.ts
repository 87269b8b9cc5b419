import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outstandingFor } from '../../src/server/billing/ledger.ts';
import { planLimitsFor } from '../../src/server/billing/limits.ts';
import { completeEndedSubscriptions } from '../../src/server/billing/subscription-end.ts';
import { startSubscription } from '../../src/server/billing/subscriptions.ts';
import { runBillingDay } from '../../src/server/billing/usage-job.ts';
import type { AppContext } from '../../src/server/context.ts';
import { restrictionsFor } from '../../src/server/users/restrictions.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { at, insertPlan } from '../support/billing-ledger.ts';
import { insertFixedPlan, payStripeCheckout, startPayWorld, type PayWorld } from '../support/billing-pay.ts';
import { Client, registerUser } from '../support/client.ts';
import { withSeed } from '../support/seed.ts';

/**
 * What issue 15's acceptance needed beyond the three parts: a renewal retried by the provider is
 * owed once, cancelled subscriptions complete when their end passes, and one provider subscription
 * is one row (the unique index of migration 20261202100000_billing_refs).
 */
let w: PayWorld;
beforeAll(async () => {
  w = await startPayWorld();
});
afterAll(async () => {
  await w?.stop();
});

const db = <T>(work: (ctx: AppContext) => Promise<T>) => withSeed(w.server, work);
const subscriptionOf = (userId: string) => db((ctx) => ctx.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('created_at').execute());

async function subscribed(amount = 500) {
  const user = await registerUser(w.server.url);
  const planId = await db((ctx) => insertFixedPlan(ctx, { amount_minor: amount }));
  const res = await user.client.post('/api/billing/subscription', { plan_id: planId, driver: 'stripe' });
  expect(res.status, res.text).toBe(200);
  await payStripeCheckout(res.body.data.url);
  const [sub] = await subscriptionOf(user.user.id);
  expect(sub?.status).toBe('active');
  return { ...user, planId, sub: sub! };
}

const restrictionsOf = async (userId: string) => restrictionsFor(await db((ctx) => ctx.db.selectFrom('users').select('restrictions').where('id', '=', userId).executeTakeFirstOrThrow()));

describe('a renewal the provider retries', () => {
  it('counts each failed attempt (3 limit the account) but is owed once; paying that once lifts the limit', async () => {
    const { client, user, sub } = await subscribed(500);
    const tag = sub.id.replaceAll('-', '');
    for (const attempt of [1, 2, 3]) {
      expect((await w.stripe.sendEvent('invoice.payment_failed', w.stripe.invoicePaymentFailed(sub.provider_ref!, { attempt, invoiceId: `in_retry_${tag}` }))).status).toBe(200);
    }
    const failed = await db((ctx) => ctx.db.selectFrom('failed_payments').selectAll().where('user_id', '=', user.id).execute());
    expect(failed).toHaveLength(3);
    expect(new Set(failed.map((f) => f.debt_ref))).toEqual(new Set([`in_retry_${tag}`]));
    expect(await db((ctx) => outstandingFor(ctx, user.id))).toEqual({ amountMinor: 500, currency: 'USD' });
    expect(await restrictionsOf(user.id)).toMatchObject({ canUpload: false, canDownload: false });

    // A second renewal failing is a second debt.
    expect((await w.stripe.sendEvent('invoice.payment_failed', w.stripe.invoicePaymentFailed(sub.provider_ref!, { attempt: 1, invoiceId: `in_next_${tag}` }))).status).toBe(200);
    expect(await db((ctx) => outstandingFor(ctx, user.id))).toEqual({ amountMinor: 1000, currency: 'USD' });

    const checkout = await client.post('/api/billing/checkout', { purpose: 'outstanding', driver: 'stripe' });
    expect(checkout.status, checkout.text).toBe(200);
    const session = [...w.stripe.sessions.values()].find((s) => s.url === checkout.body.data.url)!;
    expect(session.amount_total).toBe(1000);
    await payStripeCheckout(checkout.body.data.url);
    expect(await db((ctx) => outstandingFor(ctx, user.id))).toBeNull();
    // Stripe is told both renewals were paid, so its retries stop and nothing is charged twice.
    const paidAtStripe = w.stripe.requests.filter((r) => /^\/v1\/invoices\/[\w]+\/pay$/.test(r.path) && r.body.paid_out_of_band === 'true').map((r) => r.path);
    expect(paidAtStripe.sort()).toEqual([`/v1/invoices/in_next_${tag}/pay`, `/v1/invoices/in_retry_${tag}/pay`].sort());
    // Stripe then says the invoice is paid, out of band: that payment was recorded already.
    const before = await db((ctx) => ctx.db.selectFrom('transactions').select('id').where('user_id', '=', user.id).execute());
    const outOfBand = { ...w.stripe.invoicePaid(sub.provider_ref!, { invoiceId: `in_retry_${tag}` }), paid_out_of_band: true };
    expect((await w.stripe.sendEvent('invoice.paid', outOfBand)).status).toBe(200);
    expect(await db((ctx) => ctx.db.selectFrom('transactions').select('id').where('user_id', '=', user.id).execute())).toHaveLength(before.length);
    expect(await restrictionsOf(user.id)).toMatchObject({ canUpload: true, canDownload: true });
  });
});

describe('cancelled subscriptions whose end has passed', () => {
  it('become completed in the billing run, once; until then the plan applies, after it does not', async () => {
    const { client, user, sub } = await subscribed();
    expect((await client.request('/api/billing/subscription', { method: 'DELETE' })).status).toBe(200);
    const [cancelled] = await subscriptionOf(user.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', ends_at: sub.current_period_end });
    const fixed = { subscription_type: 'fixed' as const };
    const before = new Date(Date.parse(sub.current_period_end) - 60_000).toISOString();
    const after = new Date(Date.parse(sub.current_period_end) + 60_000).toISOString();

    await db(async (ctx) => {
      expect(await completeEndedSubscriptions(at(ctx, before))).toBe(0);
      expect(await planLimitsFor(at(ctx, before), user.id, fixed)).toMatchObject({ storage_bytes: 1024 ** 3 });
      // The daily run does it along with the metered work; a second run finds nothing left.
      expect((await runBillingDay(at(ctx, after))).completed).toBeGreaterThanOrEqual(1);
      expect(await completeEndedSubscriptions(at(ctx, after))).toBe(0);
      expect(await planLimitsFor(at(ctx, after), user.id, fixed)).toBeNull();
    });
    const [done] = await subscriptionOf(user.id);
    expect(done).toMatchObject({ status: 'completed', ends_at: sub.current_period_end });
  });

  it('leaves active subscriptions and cancelled ones still running alone', async () => {
    const active = await subscribed();
    const running = await subscribed();
    expect((await running.client.request('/api/billing/subscription', { method: 'DELETE' })).status).toBe(200);
    await db(async (ctx) => {
      await completeEndedSubscriptions(ctx);
    });
    expect((await subscriptionOf(active.user.id))[0]?.status).toBe('active');
    expect((await subscriptionOf(running.user.id))[0]?.status).toBe('cancelled');
  });
});

describe('one provider subscription, one row', () => {
  it('the unique index refuses a second row for the same provider id, but not rows without one', async () => {
    const { sub } = await subscribed();
    await db(async (ctx) => {
      const copy = { ...sub, id: randomUUID() };
      await expect(ctx.db.insertInto('subscriptions').values(copy).execute()).rejects.toThrow();
      // Another provider may use the same id; metered rows have none, any number of them.
      await ctx.db.insertInto('subscriptions').values({ ...copy, driver: 'paypal', status: 'completed' }).execute();
      await ctx.db.insertInto('subscriptions').values({ ...copy, id: randomUUID(), driver: 'balance', provider_ref: null, status: 'completed' }).execute();
      await ctx.db.insertInto('subscriptions').values({ ...copy, id: randomUUID(), driver: 'balance', provider_ref: null, status: 'completed' }).execute();
    });
  });

  it('two deliveries of a first payment at once start one subscription and tell the user once', async () => {
    const { user } = await registerUser(w.server.url);
    const planId = await db((ctx) => insertFixedPlan(ctx));
    const input = { userId: user.id, planId, driver: 'stripe' as const, providerRef: `sub_twice_${user.id.slice(0, 8)}`, periodStart: new Date().toISOString(), periodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString() };
    // PostgreSQL: two connections race for the row (the index decides). SQLite's one writer at a
    // time (better-sqlite3 blocks the process): one connection, the two deliveries interleaved.
    const ids =
      w.server.db === 'postgres'
        ? await withSeed(w.server, async (a) => withSeed(w.server, async (b) => Promise.all([startSubscription(a, input), startSubscription(b, input)])))
        : await db((ctx) => Promise.all([startSubscription(ctx, input), startSubscription(ctx, input)]));
    expect(ids[0]).toBe(ids[1]);
    const rows = await subscriptionOf(user.id);
    expect(rows.map((r) => r.id)).toEqual([ids[0]]);
    const told = await db((ctx) => ctx.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).where('category', '=', 'subscription-created').execute());
    expect(told).toHaveLength(1);
  });
});

describe('GET /api/admin/users/{id}/billing (the admin user screen’s subscription tab)', () => {
  it('answers the plan, state, balance, outstanding amount and open failed payments', async () => {
    const { user, sub } = await subscribed(700);
    for (const attempt of [1, 2, 3]) await w.stripe.sendEvent('invoice.payment_failed', w.stripe.invoicePaymentFailed(sub.provider_ref!, { attempt, invoiceId: `in_admin_${sub.id}` }));
    const res = await w.admin.get(`/api/admin/users/${user.id}/billing`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({
      subscription: { plan_id: sub.plan_id, plan_type: 'fixed', status: 'active', driver: 'stripe', amount_minor: 700, currency: 'USD', interval: 'month' },
      balance: { currency: 'USD' },
      outstanding: { amount_minor: 700, currency: 'USD' },
      limited: true,
    });
    expect(res.body.data.attributes.failed_payments).toHaveLength(3);

    // Gifting through the existing route shows on the balance here.
    expect((await w.admin.post(`/api/admin/users/${user.id}/credit`, { amount_minor: 250, note: 'sorry' })).status).toBe(201);
    expect((await w.admin.get(`/api/admin/users/${user.id}/billing`)).body.data.attributes.balance).toEqual({ amount_minor: 250, currency: 'USD' });
  });

  it('answers a user without billing with empty parts', async () => {
    const { user } = await registerUser(w.server.url);
    const res = await w.admin.get(`/api/admin/users/${user.id}/billing`);
    expect(res.body.data.attributes).toEqual({ subscription: null, balance: null, outstanding: null, limited: false, failed_payments: [] });
  });

  it('refuses a signed-out client, a user who is not an admin (even for themselves), and an unknown user', async () => {
    const { client, user } = await registerUser(w.server.url);
    expect((await new Client(w.server.url).get(`/api/admin/users/${user.id}/billing`)).status).toBe(401);
    expect((await client.get(`/api/admin/users/${user.id}/billing`)).status).toBe(403);
    expect((await w.admin.get('/api/admin/users/00000000-0000-4000-8000-000000000000/billing')).status).toBe(404);
    expect((await w.admin.get(`/api/admin/users/${'x'.repeat(150)}/billing`)).status).toBe(404);
  });
});

describe('the plans a user is offered on the billing page', () => {
  it('are the metered ones on a metered instance (with their prices), the fixed ones otherwise', async () => {
    const fixedId = await db((ctx) => insertFixedPlan(ctx));
    const meteredId = await db((ctx) => insertPlan(ctx, { type: 'metered', currency: 'USD', storage_gb_day_micros: 1_000_000, flat_fee_minor: 200 }));
    const { client } = await registerUser(w.server.url);
    const offered = async () => ((await client.get('/api/billing/subscription')).body.data.plans as { id: string }[]).map((p) => p.id);
    expect(await offered()).toContain(fixedId);
    expect(await offered()).not.toContain(meteredId);
    await db((ctx) => putSetting(ctx, 'subscription_type', 'metered'));
    try {
      const plans = (await client.get('/api/billing/subscription')).body.data.plans as { id: string }[];
      expect(plans.map((p) => p.id)).not.toContain(fixedId);
      expect(plans.find((p) => p.id === meteredId)).toMatchObject({ type: 'metered', currency: 'USD', storage_gb_day_micros: 1_000_000, flat_fee_minor: 200, bandwidth_gb_micros: null });
    } finally {
      await db((ctx) => putSetting(ctx, 'subscription_type', 'none'));
    }
  });
});
