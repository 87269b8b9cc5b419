import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { activePlanFor, assertPlanTakesSubscribers, getPlan } from '../../src/server/billing/plans.ts';
import { putSettings } from '../../src/server/settings/service.ts';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { createTeam, invite } from '../support/teams.ts';
import { uploadForm } from '../support/uploads.ts';

/**
 * Plans (issue 15, PLANS): the admin's plan API with its validation, archive and delete rules,
 * the subscription type setting, the public plan list and the limits a fixed plan gives its
 * subscribers. Subscriptions are inserted as rows here; the payment flow that makes them is PAY's.
 */
const ADMIN = { email: 'plans-admin@example.test', password: 'plans admin password' };
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

let server: RunningServer;
let seed: AppContext;
let admin: Client;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Plans Admin' } });
  seed = await seedContext(server);
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

const FIXED = { type: 'fixed', name: 'Basic', description: 'For one person.', currency: 'EUR', interval: 'month', amount_minor: 499, storage_bytes: GiB, max_team_members: 3 };
const METERED = { type: 'metered', name: 'Pay as you go', currency: 'USD', storage_gb_day_micros: 3300, bandwidth_gb_micros: 10_000, member_day_micros: 50_000, flat_fee_minor: 200 };

const planRow = (id: string) => seed.db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
const planCount = async () => Number((await seed.db.selectFrom('plans').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const auditOf = (id: string) => seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).orderBy('created_at').execute();
const patch = (id: string, json: unknown) => admin.request(`/api/admin/plans/${id}`, { method: 'PATCH', json });

async function createPlan(body: Record<string, unknown> = FIXED): Promise<string> {
  const res = await admin.post('/api/admin/plans', body);
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

/** A subscription row as PAY's webhook would write it: the plan's price copied onto it. */
async function subscribe(userId: string, planId: string, over: Partial<{ status: 'active' | 'cancelled' | 'completed'; ends_at: string | null }> = {}): Promise<string> {
  const plan = (await planRow(planId))!;
  const at = new Date().toISOString();
  const id = randomUUID();
  await seed.db
    .insertInto('subscriptions')
    .values({
      id,
      user_id: userId,
      plan_id: planId,
      status: over.status ?? 'active',
      driver: 'stripe',
      provider_ref: `sub_${id.slice(0, 8)}`,
      amount_minor: plan.amount_minor,
      currency: plan.currency,
      interval: plan.interval,
      current_period_start: at,
      current_period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      ends_at: over.ends_at ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** The config the signed-in app gets with its page (SPEC §3). */
async function pageConfig(client: Client): Promise<{ subscriptionType: string; storageLimit: number }> {
  const page = await client.request('/platform/files', { headers: { Accept: 'text/html' }, xrw: false });
  const json = /<script type="application\/json" id="app-config">(.*?)<\/script>/s.exec(page.text)?.[1];
  return JSON.parse(json!);
}

async function withSubscriptionType(type: 'none' | 'fixed' | 'metered', work: () => Promise<void>) {
  await putSettings(seed, { subscription_type: type });
  try {
    await work();
  } finally {
    await putSettings(seed, { subscription_type: 'none' });
  }
}

describe('creating plans', () => {
  it('creates a fixed and a metered plan, audited, listed with their subscriber counts', async () => {
    const fixed = await admin.post('/api/admin/plans', FIXED);
    expect(fixed.status, fixed.text).toBe(201);
    expect(fixed.body.data.attributes).toMatchObject({ plan_type: 'fixed', name: 'Basic', status: 'active', currency: 'EUR', interval: 'month', amount_minor: 499, storage_bytes: GiB, max_team_members: 3, flat_fee_minor: null, subscriber_count: 0 });
    const metered = await admin.post('/api/admin/plans', { ...METERED, currency: 'usd' });
    expect(metered.status, metered.text).toBe(201);
    expect(metered.body.data.attributes).toMatchObject({ plan_type: 'metered', currency: 'USD', storage_gb_day_micros: 3300, bandwidth_gb_micros: 10_000, member_day_micros: 50_000, flat_fee_minor: 200, amount_minor: null, interval: null, storage_bytes: null });

    const list = await admin.get('/api/admin/plans');
    expect(list.status).toBe(200);
    const ids = list.body.data.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([fixed.body.data.id, metered.body.data.id]));
    const onlyMetered = await admin.get('/api/admin/plans?type=metered');
    expect(onlyMetered.body.data.every((p: { attributes: { plan_type: string } }) => p.attributes.plan_type === 'metered')).toBe(true);
    expect((await admin.get(`/api/admin/plans/${fixed.body.data.id}`)).body.data.attributes.name).toBe('Basic');

    const [entry] = await auditOf(fixed.body.data.id);
    expect(entry).toMatchObject({ action: 'plan.create', target_type: 'plan', target_label: 'Basic' });
    expect(JSON.parse(entry!.after!)).toMatchObject({ amount_minor: 499, currency: 'EUR' });
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['no type', { ...FIXED, type: undefined }, 'The plan type must be fixed or metered.'],
    ['an unknown type', { ...FIXED, type: 'lifetime' }, 'The plan type must be fixed or metered.'],
    ['an empty name', { ...FIXED, name: '   ' }, 'The name is required.'],
    ['a long name', { ...FIXED, name: 'x'.repeat(81) }, 'The name may not be greater than 80 characters.'],
    ['a made-up currency', { ...FIXED, currency: 'XYZ' }, 'The currency must be an ISO 4217 code, such as USD.'],
    ['a currency that is no text', { ...FIXED, currency: 840 }, 'The currency must be an ISO 4217 code, such as USD.'],
    ['a negative price', { ...FIXED, amount_minor: -100 }, 'The price must be greater than 0.'],
    ['a zero price', { ...FIXED, amount_minor: 0 }, 'The price must be greater than 0.'],
    ['a fractional price', { ...FIXED, amount_minor: 4.99 }, 'The price must be a whole number.'],
    ['a price as text', { ...FIXED, amount_minor: '499' }, 'The price must be a number.'],
    ['another interval', { ...FIXED, interval: 'week' }, 'The interval must be month or year.'],
    ['no storage', { ...FIXED, storage_bytes: undefined }, 'The storage capacity must be a number.'],
    ['fractional storage', { ...FIXED, storage_bytes: 1.5 }, 'The storage capacity must be a whole number.'],
    ['no member limit', { ...FIXED, max_team_members: 0 }, 'The team member limit must be greater than 0.'],
    ['a metered field on a fixed plan', { ...FIXED, flat_fee_minor: 100 }, 'flat_fee_minor is not a field of a fixed plan.'],
    ['a negative unit price', { ...METERED, storage_gb_day_micros: -1 }, 'The storage price per GB-day may not be negative.'],
    ['a fractional unit price', { ...METERED, bandwidth_gb_micros: 0.5 }, 'The bandwidth price per GB must be a whole number.'],
    ['a fractional flat fee', { ...METERED, flat_fee_minor: 1.25 }, 'The flat fee must be a whole number.'],
    ['a fixed field on a metered plan', { ...METERED, amount_minor: 100 }, 'amount_minor is not a field of a metered plan.'],
  ];
  it.each(bad)('refuses %s with a 422 and creates nothing', async (_case, body, message) => {
    const before = await planCount();
    const res = await admin.post('/api/admin/plans', body);
    expect(res.status, res.text).toBe(422);
    expect(res.body.message).toBe(message);
    expect(await planCount()).toBe(before);
  });

  it('refuses a non-admin (403) and a signed-out client (401) on every plan route, changing nothing', async () => {
    const id = await createPlan();
    const { client } = await registerUser(server.url);
    const anonymous = new Client(server.url);
    for (const [who, status] of [[client, 403], [anonymous, 401]] as const) {
      expect((await who.get('/api/admin/plans')).status).toBe(status);
      expect((await who.post('/api/admin/plans', FIXED)).status).toBe(status);
      expect((await who.get(`/api/admin/plans/${id}`)).status).toBe(status);
      expect((await who.request(`/api/admin/plans/${id}`, { method: 'PATCH', json: { amount_minor: 1 } })).status).toBe(status);
      expect((await who.request(`/api/admin/plans/${id}`, { method: 'DELETE' })).status).toBe(status);
      expect((await who.get(`/api/admin/plans/${id}/subscribers`)).status).toBe(status);
      expect((await who.get('/api/admin/subscriptions')).status).toBe(status);
    }
    expect((await planRow(id))!.amount_minor).toBe(499);
  });

  it('answers 404 for a plan that does not exist', async () => {
    const missing = randomUUID();
    expect((await admin.get(`/api/admin/plans/${missing}`)).status).toBe(404);
    expect((await patch(missing, { name: 'X' })).status).toBe(404);
    expect((await admin.request(`/api/admin/plans/${missing}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin.get(`/api/admin/plans/${missing}/subscribers`)).status).toBe(404);
  });
});

describe('changing, archiving and deleting plans', () => {
  it('a price change keeps what existing subscribers pay; new ones get the new price', async () => {
    const id = await createPlan();
    const { user } = await registerUser(server.url);
    const sub = await subscribe(user.id, id);
    const res = await patch(id, { amount_minor: 999, name: 'Basic plus' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ amount_minor: 999, name: 'Basic plus', subscriber_count: 1 });
    const row = await seed.db.selectFrom('subscriptions').select(['amount_minor', 'currency']).where('id', '=', sub).executeTakeFirstOrThrow();
    expect(Number(row.amount_minor)).toBe(499);
    const entries = await auditOf(id);
    expect(entries.at(-1)).toMatchObject({ action: 'plan.update' });
    expect(JSON.parse(entries.at(-1)!.before!)).toEqual({ name: 'Basic', amount_minor: 499 });
    const subscribers = await admin.get(`/api/admin/plans/${id}/subscribers`);
    expect(subscribers.body.data).toHaveLength(1);
    expect(subscribers.body.data[0].attributes).toMatchObject({ amount_minor: 499, status: 'active' });
  });

  it('refuses bad changes with a 422 and leaves the plan as it was', async () => {
    const id = await createPlan();
    for (const [body, message] of [
      [{}, 'Send at least one field to change.'],
      [{ amount_minor: -5 }, 'The price must be greater than 0.'],
      [{ amount_minor: 1.5 }, 'The price must be a whole number.'],
      [{ currency: 'EURO' }, 'The currency must be an ISO 4217 code, such as USD.'],
      [{ status: 'deleted' }, 'The status must be active or archived.'],
      [{ type: 'metered' }, 'type is not a field of a fixed plan.'],
    ] as const) {
      const res = await patch(id, body);
      expect(res.status, res.text).toBe(422);
      expect(res.body.message).toBe(message);
    }
    expect(await planRow(id)).toMatchObject({ amount_minor: 499, currency: 'EUR', status: 'active', type: 'fixed' });
  });

  it('refuses deleting a plan with subscribers (archive instead); archived plans leave the public list', async () => {
    const id = await createPlan({ ...FIXED, name: 'Popular' });
    const { user } = await registerUser(server.url);
    await subscribe(user.id, id, { status: 'completed' });
    const refused = await admin.request(`/api/admin/plans/${id}`, { method: 'DELETE' });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body).toMatchObject({ code: 'plan_has_subscribers' });
    expect(refused.body.message).toContain('Archive it instead');
    expect(await planRow(id)).toBeDefined();

    await withSubscriptionType('fixed', async () => {
      expect((await new Client(server.url).get('/api/billing/plans')).body.data.map((p: { id: string }) => p.id)).toContain(id);
      const archived = await patch(id, { status: 'archived' });
      expect(archived.status).toBe(200);
      expect(archived.body.data.attributes.status).toBe('archived');
      expect((await new Client(server.url).get('/api/billing/plans')).body.data.map((p: { id: string }) => p.id)).not.toContain(id);
    });
    expect((await admin.get('/api/admin/plans?status=archived')).body.data.map((p: { id: string }) => p.id)).toContain(id);
    // PAY's checkout asks before subscribing anyone: an archived plan takes no new subscribers.
    const archivedPlan = await getPlan(seed, id);
    expect(() => assertPlanTakesSubscribers(archivedPlan!)).toThrow('This plan is archived and takes no new subscribers.');
    expect((await admin.get('/api/admin/plans?status=gone')).status).toBe(400);
  });

  it('deletes a plan nobody subscribed to, audited', async () => {
    const id = await createPlan({ ...FIXED, name: 'Unused' });
    const res = await admin.request(`/api/admin/plans/${id}`, { method: 'DELETE' });
    expect(res.status, res.text).toBe(204);
    expect(await planRow(id)).toBeUndefined();
    expect((await auditOf(id)).at(-1)).toMatchObject({ action: 'plan.delete', target_label: 'Unused' });
  });
});

describe('subscriptions list', () => {
  it('filters by plan and state, and refuses bad filters', async () => {
    const a = await createPlan({ ...FIXED, name: 'Filter A' });
    const b = await createPlan({ ...FIXED, name: 'Filter B' });
    const one = await registerUser(server.url);
    const two = await registerUser(server.url);
    const s1 = await subscribe(one.user.id, a);
    const s2 = await subscribe(two.user.id, b, { status: 'cancelled', ends_at: new Date(Date.now() + 86_400_000).toISOString() });
    const byPlan = await admin.get(`/api/admin/subscriptions?plan=${a}`);
    expect(byPlan.status).toBe(200);
    expect(byPlan.body.data.map((s: { id: string }) => s.id)).toEqual([s1]);
    expect(byPlan.body.data[0].relationships).toMatchObject({ user: { email: one.email }, plan: { id: a, name: 'Filter A' } });
    const cancelled = await admin.get('/api/admin/subscriptions?status=cancelled');
    expect(cancelled.body.data.map((s: { id: string }) => s.id)).toContain(s2);
    expect(cancelled.body.data.every((s: { attributes: { status: string } }) => s.attributes.status === 'cancelled')).toBe(true);
    expect((await admin.get('/api/admin/subscriptions?status=paused')).status).toBe(400);
    expect((await admin.get(`/api/admin/subscriptions?plan=${randomUUID()}`)).status).toBe(400);
    expect((await admin.get('/api/admin/subscriptions?cursor=nonsense')).status).toBe(400);
    expect((await admin.get('/api/admin/subscriptions?limit=0')).status).toBe(400);
  });
});

describe('the subscription type', () => {
  it('is changed in the admin settings, audited, and reaches the client config', async () => {
    const res = await admin.request('/api/admin/settings/others', { method: 'PUT', json: { subscription_type: 'metered' } });
    expect(res.status, res.text).toBe(200);
    try {
      expect(res.body.data.attributes.subscription_type).toBe('metered');
      const entry = await seed.db.selectFrom('audit_log').selectAll().where('action', '=', 'setting.update').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      expect(JSON.parse(entry.after!)).toEqual({ subscription_type: 'metered' });
      expect((await pageConfig(admin)).subscriptionType).toBe('metered');
      const refused = await admin.request('/api/admin/settings/others', { method: 'PUT', json: { subscription_type: 'lifetime' } });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toBe('The subscription type must be none, fixed or metered.');
    } finally {
      await putSettings(seed, { subscription_type: 'none' });
    }
  });

  it('a non-admin cannot change it', async () => {
    const { client } = await registerUser(server.url);
    expect((await client.request('/api/admin/settings/others', { method: 'PUT', json: { subscription_type: 'fixed' } })).status).toBe(403);
  });
});

describe('the plan form options', () => {
  it('offers every ISO 4217 currency Intl knows, with its minor-unit digits', async () => {
    const res = await admin.get('/api/admin/plans/options');
    expect(res.status).toBe(200);
    const codes = res.body.data.currencies.map((c: { code: string }) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['EUR', 'USD', 'NGN', 'JPY']));
    expect(res.body.data.currencies.find((c: { code: string }) => c.code === 'JPY')).toMatchObject({ digits: 0 });
    expect(res.body.data.intervals).toEqual(['month', 'year']);
  });
});

describe('the public plan list', () => {
  it('lists the active plans of the instance type with public fields only; none when it sells nothing', async () => {
    const fixed = await createPlan({ ...FIXED, name: 'Public fixed' });
    const metered = await createPlan({ ...METERED, name: 'Public metered' });
    const anonymous = new Client(server.url);
    expect((await anonymous.get('/api/billing/plans')).body.data).toEqual([]);
    await withSubscriptionType('fixed', async () => {
      const res = await anonymous.get('/api/billing/plans');
      expect(res.status).toBe(200);
      const ids = res.body.data.map((p: { id: string }) => p.id);
      expect(ids).toContain(fixed);
      expect(ids).not.toContain(metered);
      const shown = res.body.data.find((p: { id: string }) => p.id === fixed);
      expect(shown.attributes).toMatchObject({ name: 'Public fixed', amount_minor: 499, currency: 'EUR', storage_bytes: GiB });
      expect(shown.attributes).not.toHaveProperty('subscriber_count');
      expect(shown.attributes).not.toHaveProperty('provider_refs');
    });
    await withSubscriptionType('metered', async () => {
      const ids = (await anonymous.get('/api/billing/plans')).body.data.map((p: { id: string }) => p.id);
      expect(ids).toContain(metered);
      expect(ids).not.toContain(fixed);
    });
  });

  it('shows on the homepage as a pricing table while there are plans to sell, unless switched off, and on /pricing', async () => {
    const page = async (path: string) => new Client(server.url).request(path, { headers: { Accept: 'text/html' }, xrw: false });
    // Nothing to sell: no pricing on the homepage, no pricing page, no link to one.
    expect((await page('/')).text).not.toContain('data-section="pricing"');
    expect((await page('/pricing')).status).toBe(404);
    expect((await page('/sitemap.xml')).text).not.toContain('/pricing');
    const id = await createPlan({ ...FIXED, name: 'Homepage plan' });
    await withSubscriptionType('fixed', async () => {
      // On by default: the table shows as soon as a plan is active.
      const home = (await page('/')).text;
      expect(home).toContain('data-section="pricing"');
      expect(home).toContain('Homepage plan');
      expect(home).toContain('€4.99');
      expect(home).toContain('href="/pricing"');
      const pricing = await page('/pricing');
      expect(pricing.status).toBe(200);
      expect(pricing.text).toMatch(/<h1 id="pricing"[^>]*>/);
      expect(pricing.text).toContain('Homepage plan');
      expect((await page('/sitemap.xml')).text).toContain(`${server.url}/pricing`);
      const off = await admin.request('/api/admin/settings/homepage', { method: 'PUT', json: { home_show_pricing: false } });
      expect(off.status, off.text).toBe(200);
      try {
        expect((await page('/')).text).not.toContain('data-section="pricing"');
        // The pricing page stays: the switch is the homepage's.
        expect((await page('/pricing')).status).toBe(200);
        expect((await admin.request('/api/admin/settings/homepage', { method: 'PUT', json: { home_show_pricing: 'yes' } })).status).toBe(422);
      } finally {
        await putSettings(seed, { home_show_pricing: true });
      }
    });
    await patch(id, { status: 'archived' });
    expect((await page('/pricing')).status).toBe(404);
  });
});

describe('limits from the fixed plan', () => {
  it('the plan’s storage is the capacity everywhere; an admin-set limit still wins; no plan is the default', async () => {
    const id = await createPlan({ ...FIXED, name: 'One MiB', storage_bytes: MiB });
    const { client, user } = await registerUser(server.url);
    await subscribe(user.id, id);
    // With subscription type none, plans set nothing.
    expect((await client.get('/api/user/storage')).body.data.attributes.capacity).toBe(5 * GiB);
    await withSubscriptionType('fixed', async () => {
      expect((await client.get('/api/user/storage')).body.data.attributes.capacity).toBe(MiB);
      expect((await admin.get(`/api/admin/users/${user.id}/storage`)).body.data.attributes.capacity).toBe(MiB);
      expect(await pageConfig(client)).toMatchObject({ subscriptionType: 'fixed', storageLimit: MiB });
      const over = await uploadForm(client, Buffer.alloc(2 * MiB, 7), { filename: 'big.bin' });
      expect(over.status, over.text).toBe(423);
      expect(over.body.code).toBe('storage_limit_exceeded');
      expect((await uploadForm(client, 'small', { filename: 'small.txt' })).status).toBe(201);

      const own = await admin.request(`/api/admin/users/${user.id}/storage`, { method: 'PATCH', json: { storage_limit_bytes: 4 * MiB } });
      expect(own.status).toBe(200);
      expect((await client.get('/api/user/storage')).body.data.attributes.capacity).toBe(4 * MiB);

      const nobody = await registerUser(server.url);
      expect((await nobody.client.get('/api/user/storage')).body.data.attributes.capacity).toBe(5 * GiB);
    });
  });

  it('a cancelled subscription keeps the plan until it ends; a completed one does not', async () => {
    const id = await createPlan({ ...FIXED, name: 'Two MiB', storage_bytes: 2 * MiB });
    const ending = await registerUser(server.url);
    const ended = await registerUser(server.url);
    await subscribe(ending.user.id, id, { status: 'cancelled', ends_at: new Date(Date.now() + 86_400_000).toISOString() });
    await subscribe(ended.user.id, id, { status: 'cancelled', ends_at: new Date(Date.now() - 1000).toISOString() });
    await withSubscriptionType('fixed', async () => {
      expect((await ending.client.get('/api/user/storage')).body.data.attributes.capacity).toBe(2 * MiB);
      expect((await ended.client.get('/api/user/storage')).body.data.attributes.capacity).toBe(5 * GiB);
    });
    expect((await activePlanFor(seed, ending.user.id))?.plan.id).toBe(id);
    expect(await activePlanFor(seed, ended.user.id)).toBeNull();
  });

  it('the plan’s member limit applies to team invitations', async () => {
    const id = await createPlan({ ...FIXED, name: 'Two members', max_team_members: 2 });
    const owner = await registerUser(server.url);
    await subscribe(owner.user.id, id);
    await withSubscriptionType('fixed', async () => {
      const folder = await createTeam(owner.client, 'Planned', { invitations: [{ email: uniqueEmail('one'), permission: 'can_edit' }] });
      await invite(owner.client, folder, uniqueEmail('two'));
      const over = await owner.client.post(`/api/teams/folders/${folder}/invitations`, { email: uniqueEmail('three'), permission: 'can_edit' });
      expect(over.status).toBe(403);
      expect(over.body.code).toBe('max_team_members_reached');
      expect((await owner.client.get('/api/user')).body.data.meta.limitations.max_team_members).toMatchObject({ total: 2, use: 2 });
    });
  });
});
