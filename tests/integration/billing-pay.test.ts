import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFixedPlan, payStripeCheckout, startPayWorld, type PayWorld } from '../support/billing-pay.ts';
import { Client, registerUser } from '../support/client.ts';
import { signStripe } from '../support/fake-stripe.ts';
import { withSeed } from '../support/seed.ts';

let w: PayWorld;
beforeAll(async () => {
  w = await startPayWorld();
});
afterAll(async () => {
  await w?.stop();
});

const db = <T>(work: Parameters<typeof withSeed<T>>[1]) => withSeed(w.server, work);
const plan = (values: Parameters<typeof insertFixedPlan>[1] = {}) => db((ctx) => insertFixedPlan(ctx, values));
const transactionsOf = (userId: string) => db((ctx) => ctx.db.selectFrom('transactions').selectAll().where('user_id', '=', userId).orderBy('created_at').execute());
const subscriptionOf = (userId: string) => db((ctx) => ctx.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst());
const failedOf = (userId: string) => db((ctx) => ctx.db.selectFrom('failed_payments').selectAll().where('user_id', '=', userId).execute());
const balanceOf = async (userId: string) => Number((await db((ctx) => ctx.db.selectFrom('billing_accounts').select('balance_minor').where('user_id', '=', userId).executeTakeFirst()))?.balance_minor ?? 0);

/** A user subscribed to a new plan through the fake Stripe checkout. */
async function subscribed(amount = 500) {
  const user = await registerUser(w.server.url);
  const planId = await plan({ amount_minor: amount });
  const res = await user.client.post('/api/billing/subscription', { plan_id: planId, driver: 'stripe' });
  expect(res.status, res.text).toBe(200);
  await payStripeCheckout(res.body.data.url);
  const sub = await subscriptionOf(user.user.id);
  expect(sub?.status).toBe('active');
  return { ...user, planId, sub: sub!, providerRef: sub!.provider_ref! };
}

describe('admin payment settings', () => {
  it('never answers a secret, only whether it is set; the page config shows public keys only', async () => {
    const res = await w.admin.get('/api/admin/payments/payments');
    expect(res.status).toBe(200);
    expect(res.body.data.stripe).toEqual({ enabled: true, public_key: w.stripe.publicKey, secret_key: { set: true }, webhook_secret: { set: true } });
    expect(res.body.data.paypal.client_secret).toEqual({ set: true });
    for (const secret of [w.stripe.secretKey, w.stripe.webhookSecret, w.paystack.secretKey, w.paypal.clientSecret]) expect(res.text).not.toContain(secret);

    const page = (await new Client(w.server.url).request('/sign-in', { headers: { Accept: 'text/html' }, xrw: false })).text;
    const config = JSON.parse(/id="app-config"[^>]*>(.*?)<\/script>/s.exec(page)![1]!);
    expect(config).toMatchObject({ stripe_public_key: w.stripe.publicKey, paystack_public_key: w.paystack.publicKey, paypal_client_id: w.paypal.clientId });
    for (const secret of [w.stripe.secretKey, w.stripe.webhookSecret, w.paystack.secretKey, w.paypal.clientSecret]) expect(page).not.toContain(secret);
  });

  it('stores secrets encrypted and audits changes with secrets redacted', async () => {
    const stored = await db((ctx) => ctx.db.selectFrom('settings').select(['key', 'value']).where('key', 'in', ['stripe_secret_key', 'paystack_secret_key', 'paypal_client_secret', 'stripe_webhook_secret']).execute());
    expect(stored).toHaveLength(4);
    for (const row of stored) expect(JSON.parse(row.value)).toMatch(/^enc:v1:/);
    const audit = await w.admin.get('/api/admin/audit?target_type=setting&target_id=payments');
    const entry = audit.body.data[0].attributes;
    expect(entry.after['stripe.enabled']).toBe(true);
    expect(entry.after['stripe.secret_key']).toBe('[redacted]');
    expect(audit.text).not.toContain(w.stripe.secretKey);
  });

  it('refuses non-admins (403) and signed-out clients (401) on every admin payments call', async () => {
    const { client } = await registerUser(w.server.url);
    const anon = new Client(w.server.url);
    for (const path of ['/api/admin/payments/payments', '/api/admin/payments/billings']) {
      expect((await client.get(path)).status).toBe(403);
      expect((await client.request(path, { method: 'PUT', json: {} })).status).toBe(403);
      expect((await anon.get(path)).status).toBe(401);
      expect((await anon.request(path, { method: 'PUT', json: {} })).status).toBe(401);
    }
    const user = await client.request('/api/admin/payments/payments', { method: 'PUT', json: { stripe: { enabled: false } } });
    expect(user.status).toBe(403);
    expect((await w.admin.get('/api/admin/payments/payments')).body.data.stripe.enabled).toBe(true);
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const before = (await w.admin.get('/api/admin/payments/payments')).body;
    const cases: [unknown, string][] = [
      [{ stripe: { enabled: 'yes' } }, 'stripe.enabled'],
      [{ stripe: { public_key: 'has space' } }, 'stripe.public_key'],
      [{ stripe: { secret_key: 12 } }, 'stripe.secret_key'],
      [{ stripe: { secret_key: null } }, 'stripe.secret_key'],
      [{ paypal: { webhook_id: '' } }, 'paypal.webhook_id'],
      [{ bitcoin: { enabled: true } }, 'bitcoin'],
    ];
    for (const [body, field] of cases) {
      const res = await w.admin.request('/api/admin/payments/payments', { method: 'PUT', json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(`${Object.keys(res.body.errors).join(' ')} ${res.body.message}`, JSON.stringify(body)).toContain(field);
    }
    expect((await w.admin.get('/api/admin/payments/payments')).body).toEqual(before);
  });

  it('keeps the billing details for invoices, countries from Intl', async () => {
    const details = { name: 'Acme Ltd', address: '1 Main St', city: 'Berlin', postal_code: '10115', country: 'DE', vat_id: 'DE123456789', email: 'billing@acme.test', phone: '+49 30 123456' };
    const res = await w.admin.request('/api/admin/payments/billings', { method: 'PUT', json: details });
    expect(res.status, res.text).toBe(200);
    expect((await w.admin.get('/api/admin/payments/billings')).body.data).toEqual(details);
    for (const [body, field] of [
      [{ country: 'XX' }, 'country'],
      [{ country: 'germany' }, 'country'],
      [{ email: 'not-an-email' }, 'email'],
      [{ phone: 'call me' }, 'phone'],
      [{ name: 'x'.repeat(121) }, 'name'],
      [{ iban: 'DE00' }, 'iban'],
    ] as const) {
      const bad = await w.admin.request('/api/admin/payments/billings', { method: 'PUT', json: body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(`${Object.keys(bad.body.errors).join(' ')} ${bad.body.message}`).toContain(field);
    }
    expect((await w.admin.get('/api/admin/payments/billings')).body.data).toEqual(details);
  });
});

describe('subscribing through Stripe', () => {
  it('starts the subscription only when the signed webhook arrives, with a notification and a payment', async () => {
    const user = await registerUser(w.server.url);
    const planId = await plan({ amount_minor: 700, name: 'One GB' });
    const res = await user.client.post('/api/billing/subscription', { plan_id: planId, driver: 'stripe' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ driver: 'stripe', url: expect.stringContaining(w.stripe.url) });
    expect(res.body.data.reference).toMatch(/^[A-Za-z0-9]{10}$/);
    // The browser coming back proves nothing: no subscription until the provider says so.
    expect((await user.client.get('/api/billing/subscription')).body.data.subscription).toBeNull();
    const back = await payStripeCheckout(res.body.data.url);
    expect(back).toContain('/user/settings/billing?checkout=');
    const state = (await user.client.get('/api/billing/subscription')).body.data;
    expect(state.subscription).toMatchObject({ plan_id: planId, status: 'active', driver: 'stripe', amount_minor: 700, currency: 'USD' });
    const tx = await transactionsOf(user.user.id);
    expect(tx).toHaveLength(1);
    expect(tx[0]).toMatchObject({ type: 'credit', status: 'completed', driver: 'stripe' });
    expect(Number(tx[0]!.amount_minor)).toBe(700);
    const notes = await db((ctx) => ctx.db.selectFrom('notifications').select('category').where('user_id', '=', user.user.id).execute());
    expect(notes.map((n) => n.category)).toContain('subscription-created');
  });

  it('refuses an archived plan, an unknown plan, a second subscription and a provider that is off', async () => {
    const user = await registerUser(w.server.url);
    const archived = await plan({ status: 'archived' });
    for (const [body, field] of [
      [{ plan_id: archived, driver: 'stripe' }, 'plan_id'],
      [{ plan_id: 'nope', driver: 'stripe' }, 'plan_id'],
      [{ plan_id: archived, driver: 'bitcoin' }, 'driver'],
      [{ driver: 'stripe' }, 'plan_id'],
    ] as const) {
      const res = await user.client.post('/api/billing/subscription', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    expect(await subscriptionOf(user.user.id)).toBeUndefined();
    const { client, planId } = await subscribed();
    const again = await client.post('/api/billing/subscription', { plan_id: planId, driver: 'stripe' });
    expect(again.status).toBe(409);
    expect((await new Client(w.server.url).post('/api/billing/subscription', { plan_id: planId, driver: 'stripe' })).status).toBe(401);
  });

  it('cancels at the period end, resumes before it, and changes plan with proration at Stripe', async () => {
    const { client, user, sub, providerRef } = await subscribed();
    const cancel = await client.request('/api/billing/subscription', { method: 'DELETE' });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.data.subscription).toMatchObject({ status: 'cancelled', ends_at: sub.current_period_end });
    expect(w.stripe.subscriptions.get(providerRef)!.cancel_at_period_end).toBe(true);
    expect((await client.request('/api/billing/subscription', { method: 'DELETE' })).status).toBe(422);
    const resume = await client.post('/api/billing/subscription/resume', {});
    expect(resume.body.data.subscription).toMatchObject({ status: 'active', ends_at: null });
    expect(w.stripe.subscriptions.get(providerRef)!.cancel_at_period_end).toBe(false);
    expect((await client.post('/api/billing/subscription/resume', {})).status).toBe(422);

    const bigger = await plan({ amount_minor: 1500, storage_bytes: 10 * 1024 **3 });
    const change = await client.request('/api/billing/subscription', { method: 'PATCH', json: { plan_id: bigger } });
    expect(change.status, change.text).toBe(200);
    expect(change.body.data.subscription).toMatchObject({ plan_id: bigger, amount_minor: 1500 });
    const update = w.stripe.requests.filter((r) => r.path === `/v1/subscriptions/${providerRef}` && r.method === 'POST').at(-1)!;
    expect(update.body.proration_behavior).toBe('create_prorations');
    expect((await subscriptionOf(user.id))!.plan_id).toBe(bigger);
    const archived = await plan({ status: 'archived' });
    expect((await client.request('/api/billing/subscription', { method: 'PATCH', json: { plan_id: archived } })).status).toBe(422);
  });

  it('a webhook cancelling at the provider marks it cancelled; a deletion completes it', async () => {
    const { user, providerRef } = await subscribed();
    const end = Math.floor(Date.now() / 1000) + 3600;
    expect((await w.stripe.sendEvent('customer.subscription.updated', { id: providerRef, cancel_at_period_end: true, items: { data: [{ current_period_end: end }] } })).status).toBe(200);
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'cancelled', ends_at: new Date(end * 1000).toISOString() });
    expect((await w.stripe.sendEvent('customer.subscription.deleted', { id: providerRef, ended_at: end })).status).toBe(200);
    expect((await subscriptionOf(user.id))!.status).toBe('completed');
  });
});

describe('Stripe webhooks', () => {
  it('refuses a missing, wrong, stale or foreign signature with 400 and changes nothing', async () => {
    const { user, providerRef, sub } = await subscribed();
    const object = w.stripe.invoicePaid(providerRef, { periodStart: Date.parse(sub.current_period_end) / 1000, periodEnd: Date.parse(sub.current_period_end) / 1000 + 30 * 86400 });
    const body = JSON.stringify({ id: 'evt_x', type: 'invoice.paid', data: { object } });
    for (const signature of [null, 'garbage', signStripe(body, 'whsec_wrong'), signStripe(body, w.stripe.webhookSecret, Math.floor(Date.now() / 1000) - 3600)]) {
      const res = await w.stripe.sendEvent('invoice.paid', object, { signature: signature === null ? null : signature });
      expect(res.status, String(signature)).toBe(400);
    }
    expect(await transactionsOf(user.id)).toHaveLength(1);
    expect((await subscriptionOf(user.id))!.current_period_end).toBe(sub.current_period_end);
    expect(await db((ctx) => ctx.db.selectFrom('payment_events').select('event_id').where('event_id', '=', 'evt_x').execute())).toEqual([]);
  });

  it('acts once on a replayed event, and once on the same invoice under another event id', async () => {
    const { user, providerRef, sub } = await subscribed();
    const start = Date.parse(sub.current_period_end) / 1000;
    const invoice = w.stripe.invoicePaid(providerRef, { periodStart: start, periodEnd: start + 30 * 86400 });
    const first = await w.stripe.sendEvent('invoice.paid', invoice, { id: 'evt_replay_1' + user.id.slice(0, 8) });
    expect(first).toMatchObject({ status: 200, body: { received: true } });
    const again = await w.stripe.sendEvent('invoice.paid', invoice, { id: 'evt_replay_1' + user.id.slice(0, 8) });
    expect(again).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    expect((await w.stripe.sendEvent('invoice.paid', invoice)).status).toBe(200);
    expect(await transactionsOf(user.id)).toHaveLength(2);
    expect((await subscriptionOf(user.id))!.current_period_end).toBe(new Date((start + 30 * 86400) * 1000).toISOString());
  });

  it('is safe out of order: an older period arriving late records its payment but moves no dates back', async () => {
    const { user, providerRef, sub } = await subscribed();
    const p2 = Date.parse(sub.current_period_end) / 1000;
    const p3 = p2 + 30 * 86400;
    await w.stripe.sendEvent('invoice.paid', w.stripe.invoicePaid(providerRef, { periodStart: p3, periodEnd: p3 + 30 * 86400 }));
    await w.stripe.sendEvent('invoice.paid', w.stripe.invoicePaid(providerRef, { periodStart: p2, periodEnd: p3 }));
    const after = (await subscriptionOf(user.id))!;
    expect(after.current_period_end).toBe(new Date((p3 + 30 * 86400) * 1000).toISOString());
    expect(await transactionsOf(user.id)).toHaveLength(3);
  });

  it('a renewal paid first starts the subscription when it arrives before the checkout event', async () => {
    const user = await registerUser(w.server.url);
    const planId = await plan({ amount_minor: 900 });
    const start = Math.floor(Date.now() / 1000);
    const metadata = { reference: 'Abcde12345', user_id: user.user.id, purpose: 'subscription', amount_minor: '900', currency: 'USD', plan_id: planId };
    const invoice = w.stripe.invoicePaid('sub_early', { amount: 900, periodStart: start, periodEnd: start + 30 * 86400 });
    invoice.currency = 'usd';
    invoice.parent.subscription_details.metadata = metadata;
    expect((await w.stripe.sendEvent('invoice.paid', invoice)).status).toBe(200);
    expect(await subscriptionOf(user.user.id)).toMatchObject({ status: 'active', plan_id: planId, provider_ref: 'sub_early' });
  });

  it('ignores (200, logged) an unknown customer and changes nothing', async () => {
    const before = await db((ctx) => ctx.db.selectFrom('transactions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow());
    const unknownSub = await w.stripe.sendEvent('invoice.paid', w.stripe.invoicePaid('sub_nobody', { amount: 500 }));
    expect(unknownSub.status).toBe(200);
    const unknownUser = await w.stripe.sendEvent('checkout.session.completed', {
      id: 'cs_x',
      mode: 'payment',
      payment_status: 'paid',
      amount_total: 1000,
      currency: 'usd',
      metadata: { reference: 'Zzzzz11111', user_id: 'no-such-user', purpose: 'top-up', amount_minor: '1000', currency: 'USD' },
    });
    expect(unknownUser.status).toBe(200);
    const failed = await w.stripe.sendEvent('invoice.payment_failed', { id: 'in_nobody', amount_due: 500, currency: 'usd', parent: { subscription_details: { subscription: 'sub_nobody' } } });
    expect(failed.status).toBe(200);
    const after = await db((ctx) => ctx.db.selectFrom('transactions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow());
    expect(Number(after.n)).toBe(Number(before.n));
    // The server's log reaches the test through a pipe, after the answer: wait for the line.
    await expect.poll(() => w.server.logs.join('\n')).toContain('payment webhook ignored: unknown customer');
  });

  it('changes nothing for an amount that differs from what was asked', async () => {
    const { user, client, providerRef, sub } = await subscribed(500);
    const start = Date.parse(sub.current_period_end) / 1000;
    expect((await w.stripe.sendEvent('invoice.paid', w.stripe.invoicePaid(providerRef, { amount: 1, periodStart: start, periodEnd: start + 30 * 86400 }))).status).toBe(200);
    expect(await transactionsOf(user.id)).toHaveLength(1);
    expect((await subscriptionOf(user.id))!.current_period_end).toBe(sub.current_period_end);

    const top = await client.post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 2000, driver: 'stripe' });
    const session = w.stripe.sessions.get(top.body.data.url.split('/').at(-1))!;
    const res = await w.stripe.sendEvent('checkout.session.completed', { ...session, payment_status: 'paid', amount_total: 20 });
    expect(res.status).toBe(200);
    // The same amount in another currency is another amount.
    expect((await w.stripe.sendEvent('checkout.session.completed', { ...session, payment_status: 'paid', currency: 'eur' })).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(0);
    // The server's log reaches the test through a pipe, after the answer: wait for the line.
    await expect.poll(() => w.server.logs.join('\n')).toContain('payment webhook ignored: amount differs from the checkout');
  });

  it('two deliveries of one event at once add the money once', async () => {
    const { client, user } = await registerUser(w.server.url);
    const top = await client.post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 1500, driver: 'stripe' });
    const session = { ...w.stripe.sessions.get(top.body.data.url.split('/').at(-1))!, payment_status: 'paid' };
    const id = `evt_twice_${user.id.slice(0, 8)}`;
    const answers = await Promise.all([w.stripe.sendEvent('checkout.session.completed', session, { id }), w.stripe.sendEvent('checkout.session.completed', session, { id })]);
    // One acts; the other finds it done (200) or still being handled (409, so Stripe sends it again).
    expect(answers.map((a) => a.status)).toContain(200);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(await w.stripe.sendEvent('checkout.session.completed', session, { id })).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(await balanceOf(user.id)).toBe(1500);
    expect(await transactionsOf(user.id)).toHaveLength(1);
  });

  it('records a failed renewal once, and the outstanding amount comes from the server', async () => {
    const { user, client, providerRef } = await subscribed(500);
    const failed = { id: 'in_fail_1', attempt_count: 1, amount_due: 500, currency: 'usd', parent: { subscription_details: { subscription: providerRef } } };
    expect((await w.stripe.sendEvent('invoice.payment_failed', failed)).status).toBe(200);
    expect((await w.stripe.sendEvent('invoice.payment_failed', failed)).status).toBe(200);
    expect(await failedOf(user.id)).toHaveLength(1);

    expect((await client.post('/api/billing/checkout', { purpose: 'outstanding', driver: 'stripe', amount_minor: 1 })).status).toBe(422);
    const pay = await client.post('/api/billing/checkout', { purpose: 'outstanding', driver: 'stripe' });
    expect(pay.status, pay.text).toBe(200);
    const session = w.stripe.sessions.get(pay.body.data.url.split('/').at(-1))!;
    expect(session.amount_total).toBe(500);
    await payStripeCheckout(pay.body.data.url);
    expect((await failedOf(user.id))[0]!.resolved_at).not.toBeNull();
    expect((await client.post('/api/billing/checkout', { purpose: 'outstanding', driver: 'stripe' })).status).toBe(422);
  });
});

describe('top-up checkout', () => {
  it('refuses bad amounts and purposes with 422, and signed-out clients with 401', async () => {
    const { client } = await registerUser(w.server.url);
    for (const body of [
      { purpose: 'top-up', amount_minor: -500, driver: 'stripe' },
      { purpose: 'top-up', amount_minor: 10.5, driver: 'stripe' },
      { purpose: 'top-up', amount_minor: '1000', driver: 'stripe' },
      { purpose: 'top-up', amount_minor: 0, driver: 'stripe' },
      { purpose: 'top-up', amount_minor: 10 ** 12, driver: 'stripe' },
      { purpose: 'top-up', driver: 'stripe' },
      { purpose: 'top-up', amount_minor: 1000, driver: 'cash' },
      { purpose: 'gift', amount_minor: 1000, driver: 'stripe' },
      { purpose: 'outstanding', driver: 'stripe' },
    ]) {
      const res = await client.post('/api/billing/checkout', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await new Client(w.server.url).post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 1000, driver: 'stripe' })).status).toBe(401);
  });

  it('adds to the balance once through Stripe, Paystack and PayPal, only from the webhook', async () => {
    const { client, user } = await registerUser(w.server.url);
    const stripe = await client.post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 1000, driver: 'stripe' });
    expect(stripe.status).toBe(200);
    expect(await balanceOf(user.id)).toBe(0);
    await payStripeCheckout(stripe.body.data.url);
    expect(await balanceOf(user.id)).toBe(1000);

    const paystack = await client.post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 700, driver: 'paystack' });
    expect(paystack.status, paystack.text).toBe(200);
    expect(paystack.body.data.url).toContain(w.paystack.url);
    const charge = w.paystack.chargeSuccess(paystack.body.data.reference);
    expect((await w.paystack.sendEvent('charge.success', charge)).status).toBe(200);
    expect((await w.paystack.sendEvent('charge.success', charge)).body).toMatchObject({ duplicate: true });
    expect(await balanceOf(user.id)).toBe(1700);

    const paypal = await client.post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 250, driver: 'paypal' });
    expect(paypal.status, paypal.text).toBe(200);
    const orderId = new URL(paypal.body.data.url).searchParams.get('token')!;
    expect(w.paypal.orders.get(orderId)!.purchase_units[0].amount).toEqual({ currency_code: 'USD', value: '2.50' });
    expect((await w.paypal.sendEvent('CHECKOUT.ORDER.APPROVED', { id: orderId, status: 'APPROVED' })).status).toBe(200);
    expect(w.paypal.captured).toContain(orderId);
    expect(await balanceOf(user.id)).toBe(1700);
    const capture = w.paypal.captureOf(orderId);
    expect((await w.paypal.sendEvent('PAYMENT.CAPTURE.COMPLETED', capture, { id: `WH-cap-${orderId}` })).status).toBe(200);
    expect((await w.paypal.sendEvent('PAYMENT.CAPTURE.COMPLETED', capture)).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(1950);
    expect(await transactionsOf(user.id)).toHaveLength(3);
  });
});

describe('Paystack and PayPal webhooks', () => {
  it('Paystack: refuses a missing or wrong signature, ignores a wrong amount', async () => {
    const { client, user } = await registerUser(w.server.url);
    const init = await client.post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 900, driver: 'paystack' });
    const charge = w.paystack.chargeSuccess(init.body.data.reference);
    expect((await w.paystack.sendEvent('charge.success', charge, { signature: null })).status).toBe(400);
    expect((await w.paystack.sendEvent('charge.success', charge, { secret: 'sk_test_wrong' })).status).toBe(400);
    expect((await w.paystack.sendEvent('charge.success', charge, { signature: 'ab'.repeat(64) })).status).toBe(400);
    expect((await w.paystack.sendEvent('charge.success', { ...charge, amount: 1 })).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(0);
    expect(await transactionsOf(user.id)).toHaveLength(0);
  });

  it('PayPal: refuses missing transmission headers and a signature over another body', async () => {
    const { client, user } = await registerUser(w.server.url);
    const order = await client.post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 300, driver: 'paypal' });
    const orderId = new URL(order.body.data.url).searchParams.get('token')!;
    const capture = w.paypal.captureOf(orderId);
    expect((await w.paypal.sendEvent('PAYMENT.CAPTURE.COMPLETED', capture, { omitHeaders: true })).status).toBe(400);
    expect((await w.paypal.sendEvent('PAYMENT.CAPTURE.COMPLETED', capture, { tamper: true })).status).toBe(400);
    expect((await w.paypal.sendEvent('PAYMENT.CAPTURE.COMPLETED', w.paypal.captureOf(orderId, { value: '0.01' }))).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it('a provider switched off refuses its webhooks and its checkout', async () => {
    const off = await w.admin.request('/api/admin/payments/payments', { method: 'PUT', json: { paystack: { enabled: false } } });
    expect(off.status).toBe(200);
    try {
      const { client } = await registerUser(w.server.url);
      const res = await client.post('/api/billing/checkout', { purpose: 'top-up', amount_minor: 900, driver: 'paystack' });
      expect(res.status).toBe(422);
      expect((await w.paystack.sendEvent('charge.success', { reference: 'x' })).status).toBe(400);
      expect((await new Client(w.server.url).request('/sign-in', { headers: { Accept: 'text/html' }, xrw: false })).text).not.toContain(w.paystack.publicKey);
    } finally {
      await w.admin.request('/api/admin/payments/payments', { method: 'PUT', json: { paystack: { enabled: true } } });
    }
  });
});
