import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribeMetered } from '../../src/server/billing/metered.ts';
import { runBillingDay } from '../../src/server/billing/usage-job.ts';
import type { AppContext } from '../../src/server/context.ts';
import { putSettings } from '../../src/server/settings/service.ts';
import { at, insertPlan, topUp } from '../support/billing-ledger.ts';
import { Client, registerUser } from '../support/client.ts';
import { seedContext, seedFile, userById } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/**
 * LEDGER's metered billing (issue 15 §3): subscribing to a metered plan, the daily usage job
 * (idempotent per user and day, a run killed halfway finishes on the next), the monthly invoice
 * charged from the balance or recorded as a failed payment, the estimate, the billing alert, and
 * the bandwidth counter downloads feed. Days come from an injected clock (the CLI's --date).
 */
let server: RunningServer;
let seed: AppContext;
beforeAll(async () => {
  server = await startServer();
  seed = await seedContext(server);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

// 1e12 millionths of a euro per GB is 0.1 cent per byte: tiny files give readable totals.
const PRICES = { storage_gb_day_micros: 1e12, bandwidth_gb_micros: 1e12, member_day_micros: 0, flat_fee_minor: 500 };

/** `npm run billing:run -- --date …` against the test server's database, with an optional fault. */
function billingRun(date: string, fault?: string) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' };
  if (server.databaseUrl) env.DATABASE_URL = server.databaseUrl;
  if (fault) env.CLOUD_DRIVE_FAULT = fault;
  delete env.NODE_OPTIONS;
  return spawnSync(process.execPath, ['scripts/billing-run.ts', '--date', date], { env, encoding: 'utf8' });
}

async function meteredUser(planId: string, subscribedAt: string) {
  const { client, user } = await registerUser(server.url);
  const res = await subscribeMetered(at(seed, subscribedAt), await userById(seed, user.id), { plan_id: planId });
  return { client, user, subscriptionId: res.data.id };
}

const usageOf = (userId: string) => seed.db.selectFrom('usage_days').selectAll().where('user_id', '=', userId).orderBy('day').execute();
const invoicesOf = (userId: string) => seed.db.selectFrom('invoices').selectAll().where('user_id', '=', userId).orderBy('issued_at').execute();
const chargesOf = (userId: string) => seed.db.selectFrom('transactions').selectAll().where('user_id', '=', userId).where('type', '=', 'charge').execute();
const balanceOf = async (userId: string) => Number((await seed.db.selectFrom('billing_accounts').select('balance_minor').where('user_id', '=', userId).executeTakeFirstOrThrow()).balance_minor);

describe('subscribing to a metered plan', () => {
  it('takes active metered plans only, one subscription at a time, charged from the balance', async () => {
    const active = await insertPlan(seed, { type: 'metered', ...PRICES });
    const archived = await insertPlan(seed, { type: 'metered', status: 'archived', ...PRICES });
    const fixed = await insertPlan(seed, { type: 'fixed' });
    const { client, user } = await registerUser(server.url);
    const url = '/api/billing/subscription/metered';
    expect((await client.post(url, { plan_id: archived })).status).toBe(422);
    expect((await client.post(url, { plan_id: fixed })).status).toBe(404);
    expect((await client.post(url, { plan_id: 'nope' })).status).toBe(404);
    expect((await client.post(url, {})).status).toBe(422);
    expect((await new Client(server.url).post(url, { plan_id: active })).status).toBe(401);
    const res = await client.post(url, { plan_id: active });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ driver: 'balance', status: 'active' });
    expect((await client.post(url, { plan_id: active })).status).toBe(409);
    const rows = await seed.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ driver: 'balance', provider_ref: null, currency: 'EUR' });
    expect(await seed.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).where('category', '=', 'subscription-created').execute()).toHaveLength(1);
  });
});

describe('the daily usage job', () => {
  it('run twice writes one row per day; killed halfway, the next run closes the month once; the estimate is the month so far', async () => {
    const planId = await insertPlan(seed, { type: 'metered', ...PRICES });
    const { client, user } = await meteredUser(planId, '2030-03-10T12:00:00Z');
    await seedFile(seed, user.id, { name: 'a.bin', content: Buffer.alloc(1000, 7) });
    await seed.db.insertInto('bandwidth_counters').values({ user_id: user.id, day: '2030-03-10', bytes: 2000 }).execute();
    await topUp(seed, user.id, 1000);

    const day = at(seed, '2030-03-11T00:30:00Z');
    expect((await runBillingDay(day)).day).toBe('2030-03-10');
    await runBillingDay(day);
    expect(await usageOf(user.id)).toMatchObject([{ day: '2030-03-10', storage_bytes: 1000, bandwidth_bytes: 2000, members: 0 }]);
    // 1000 byte-days (100) + 2000 bytes downloaded (200) + the flat fee (500).
    expect((await client.get('/api/user')).body.data.meta.usages.costEstimate).toMatchObject({ amount_minor: 800, currency: 'EUR' });

    // The run for March 31 dies after writing the day's usage, before closing March.
    const killed = billingRun('2030-03-31', 'billing-after-usage');
    expect(killed.signal).toBe('SIGKILL');
    expect((await usageOf(user.id)).map((u) => u.day)).toEqual(['2030-03-10', '2030-03-31']);
    expect(await invoicesOf(user.id)).toHaveLength(1); // the top-up's

    const again = billingRun('2030-03-31');
    expect(again.status, again.stderr).toBe(0);
    expect(billingRun('2030-03-31').status).toBe(0);
    const invoices = await invoicesOf(user.id);
    expect(invoices).toHaveLength(2);
    const march = invoices[1]!;
    expect(march).toMatchObject({ status: 'paid', period_start: '2030-03-01T00:00:00.000Z', period_end: '2030-04-01T00:00:00.000Z', currency: 'EUR' });
    // Storage 2000 byte-days (200) + bandwidth 2000 (200) + flat fee 500.
    expect(Number(march.total_minor)).toBe(900);
    expect(march.number).toMatch(/^2030-\d{5}$/);
    expect(await chargesOf(user.id)).toMatchObject([{ status: 'completed', amount_minor: 900, driver: 'balance', invoice_id: march.id }]);
    expect(await balanceOf(user.id)).toBe(100);
    const sub = await seed.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ current_period_start: '2030-04-01T00:00:00.000Z', current_period_end: '2030-05-01T00:00:00.000Z', status: 'active' });
  });

  it('a month the balance cannot cover is an unpaid invoice and a failed payment with `insufficient-balance`', async () => {
    const planId = await insertPlan(seed, { type: 'metered', ...PRICES });
    const { client, user } = await meteredUser(planId, '2030-06-02T08:00:00Z');
    await topUp(seed, user.id, 100);
    await runBillingDay(at(seed, '2030-07-01T00:30:00Z'));
    await runBillingDay(at(seed, '2030-07-01T05:30:00Z'));
    const invoices = await invoicesOf(user.id);
    expect(invoices.map((i) => i.status)).toEqual(['paid', 'unpaid']);
    expect(Number(invoices[1]!.total_minor)).toBe(500);
    expect(await chargesOf(user.id)).toMatchObject([{ status: 'error', amount_minor: 500, invoice_id: invoices[1]!.id }]);
    expect(await balanceOf(user.id)).toBe(100);
    const me = (await client.get('/api/user')).body.data;
    expect(me.relationships.failedPayments.data).toHaveLength(1);
    expect(me.meta.restrictions.canUpload).toBe(true);
    expect(me.relationships.unreadNotifications.data.filter((n: { attributes: { category: string } }) => n.attributes.category === 'insufficient-balance')).toHaveLength(1);
    expect((await client.get('/api/billing/balance')).body.data.attributes.outstanding).toEqual({ amount_minor: 500, currency: 'EUR' });
  });
});

describe('the billing alert', () => {
  it('sends `billing-alert` once a month when the estimate passes it; bad input is refused', async () => {
    const planId = await insertPlan(seed, { type: 'metered', ...PRICES });
    const { client, user } = await meteredUser(planId, '2030-09-01T10:00:00Z');
    for (const amount_minor of [-1, 0, 2.5, '300', undefined]) {
      expect((await client.request('/api/billing/alert', { method: 'PATCH', json: { amount_minor } })).status, String(amount_minor)).toBe(422);
    }
    expect((await client.request('/api/billing/alert', { method: 'PATCH', json: { amount_minor: 400, other: 1 } })).status).toBe(422);
    const stranger = await registerUser(server.url);
    expect((await stranger.client.request('/api/billing/alert', { method: 'PATCH', json: { amount_minor: 400 } })).status).toBe(422);
    expect((await new Client(server.url).request('/api/billing/alert', { method: 'PATCH', json: { amount_minor: 400 } })).status).toBe(401);
    const res = await client.request('/api/billing/alert', { method: 'PATCH', json: { amount_minor: 400 } });
    expect(res.status, res.text).toBe(200);
    const alerts = () => seed.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).where('category', '=', 'billing-alert').execute();
    // The flat fee alone (500) passes 400 with the first day's usage.
    await runBillingDay(at(seed, '2030-09-02T00:30:00Z'));
    await runBillingDay(at(seed, '2030-09-03T00:30:00Z'));
    expect(await alerts()).toHaveLength(1);
    expect((await client.request('/api/billing/alert', { method: 'PATCH', json: { amount_minor: null } })).status).toBe(200);
    await runBillingDay(at(seed, '2030-09-04T00:30:00Z'));
    expect(await alerts()).toHaveLength(1);
  });
});

describe('bandwidth', () => {
  it('a finished download adds its bytes to the owner’s counter for the day, on a metered instance only', async () => {
    const { client, user } = await registerUser(server.url);
    const file = await seedFile(seed, user.id, { name: 'b.bin', content: Buffer.alloc(4321, 1) });
    const today = new Date().toISOString().slice(0, 10);
    const cookie = { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    // Not billed by use: nothing is counted (nobody would read it).
    await putSettings(seed, { subscription_type: 'fixed' });
    const before = await fetch(`${server.url}/file/${file.id}`, { headers: cookie });
    expect(before.status).toBe(200);
    await before.arrayBuffer();
    await putSettings(seed, { subscription_type: 'metered' });
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${server.url}/file/${file.id}`, { headers: { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const counted = async () => Number((await seed.db.selectFrom('bandwidth_counters').select('bytes').where('user_id', '=', user.id).where('day', '=', today).executeTakeFirst())?.bytes ?? 0);
    await expect.poll(counted).toBe(8642);
    // A zip counts the bytes of the files it carried.
    const zip = await fetch(`${server.url}/api/zip?items=${encodeURIComponent(`${file.id}|file`)}`, { headers: { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();
    await expect.poll(counted).toBe(3 * 4321);
    await putSettings(seed, { subscription_type: 'none' });
  });
});
