import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/server/admin/audit.ts';
import { runEvery } from '../../src/server/jobs/every.ts';
import { Client, registerUser } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { seedFile, userById, withSeed } from '../support/seed.ts';
import { share } from '../support/shares.ts';

const ADMIN = { email: 'owner@example.test', password: 'owner password 1' };
let server: RunningServer;
let adminId: string;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Owner' } });
  adminId = (await signInAdmin()).id;
});
afterAll(async () => {
  await server?.stop();
});

async function signInAdmin(): Promise<Client & { id: string }> {
  const client = new Client(server.url);
  const res = await client.post('/login', ADMIN);
  expect(res.status).toBe(200);
  return Object.assign(client, { id: res.body.data.id as string });
}

describe('admin dashboard', () => {
  it('gives an admin the figures, the newest accounts and the warnings, straight from the database', async () => {
    const admin = await signInAdmin();
    const before = (await admin.get('/api/admin/dashboard')).body.data;
    const { client, user } = await registerUser(server.url, { name: 'Newcomer' });
    const folder = await mkdir(client, 'Holiday');
    await share(client, folder);
    await withSeed(server, (seed) => seedFile(seed, user.id, { name: 'notes.txt', content: 'x'.repeat(1000) }));

    const res = await admin.get('/api/admin/dashboard');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ admins: 1, database: server.db, version: expect.any(String), mail_driver: 'log' });
    expect(data.users).toBe(before.users + 1);
    expect(data.new_this_week).toBe(before.new_this_week + 1);
    expect(data.uploads_today).toBe(before.uploads_today + 1);
    expect(data.shares).toBe(before.shares + 1);
    expect(data.storage.used).toBe(before.storage.used + 1000);
    expect(data.storage.disk_total).toBeGreaterThan(0);
    expect(data.newest[0]).toMatchObject({ name: 'Newcomer', id: user.id });
    // The test server sends mail to the log and runs on the default name and a loopback address.
    expect(data.warnings).toEqual(expect.arrayContaining([{ code: 'mail_log' }, { code: 'defaults', fields: ['app_name', 'app_url'], app_url: server.url }]));
    expect(JSON.stringify(res.body)).not.toContain('password');
  });

  it('warns about a background job whose last run failed, and stops when it runs well again', async () => {
    const admin = await signInAdmin();
    const jobWarning = async () => (await admin.get('/api/admin/dashboard')).body.data.warnings.find((w: any) => w.code === 'job_failed' && w.job === 'dashboard test job');
    await withSeed(server, (seed) => runEvery(seed, 'dashboard test job', 60 * 60_000, async () => {
      throw new Error('the disk is on fire');
    })());
    expect(await jobWarning()).toMatchObject({ error: 'the disk is on fire', at: expect.any(String) });
    await withSeed(server, (seed) => runEvery(seed, 'dashboard test job', 60 * 60_000, async () => undefined)());
    expect(await jobWarning()).toBeUndefined();
  });

  it('refuses a user who is not an admin, a wrong bearer token and a signed-out client', async () => {
    const { client } = await registerUser(server.url);
    expect((await client.get('/api/admin/dashboard')).status).toBe(403);
    expect((await new Client(server.url).get('/api/admin/dashboard', { bearer: 'cd_notarealtoken', origin: null, xrw: false })).status).toBe(401);
    expect((await new Client(server.url).get('/api/admin/dashboard')).status).toBe(401);
  });

  it('serves the admin page to an admin and the real 404 for paths the app does not know', async () => {
    const admin = await signInAdmin();
    const page = await admin.request('/admin/dashboard', { headers: { Accept: 'text/html' }, xrw: false });
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="app-config"');
    for (const path of ['/admin/nope', '/platform/unknown/place', '/user/settings/nothing']) {
      const res = await admin.request(path, { headers: { Accept: 'text/html' }, xrw: false });
      expect(res.status, path).toBe(404);
    }
  });
});

describe('admin audit log', () => {
  const targets = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
  let otherAdminId: string;
  beforeAll(async () => {
    const { user } = await registerUser(server.url, { name: 'Second Admin' });
    otherAdminId = user.id;
    await withSeed(server, async (seed) => {
      const owner = await userById(seed, adminId);
      const second = { ...(await userById(seed, otherAdminId)), role: 'admin' as const };
      for (let i = 0; i < 5; i++) {
        await recordAudit(seed, seed.db, i % 2 ? second : owner, {
          action: 'user.quota',
          target_type: 'user',
          target_id: targets[i % 2],
          target_label: `user-${i % 2}@example.test`,
          before: { storage_limit_bytes: i },
          after: { storage_limit_bytes: i + 1 },
        });
      }
      await recordAudit(seed, seed.db, owner, { action: 'setting.update', target_type: 'setting', target_label: 'email', before: { host: 'a', password: 'old-secret' }, after: { host: 'b', password: 'new-secret' } });
    });
  });

  it('lists changes newest first with who, what and the values before and after, secrets redacted', async () => {
    const res = await (await signInAdmin()).get('/api/admin/audit');
    expect(res.status).toBe(200);
    expect(res.body.data[0].attributes).toMatchObject({
      actor: { id: adminId, name: 'Owner' },
      action: 'setting.update',
      target: { type: 'setting', label: 'email' },
      before: { host: 'a', password: '[redacted]' },
      after: { host: 'b', password: '[redacted]' },
    });
    expect(res.text).not.toContain('secret');
  });

  it('pages with an opaque cursor without repeating or skipping an entry', async () => {
    const admin = await signInAdmin();
    const seen: string[] = [];
    let url: string | null = '/api/admin/audit?limit=2&target_type=user';
    while (url) {
      const res: { status: number; body: any } = await admin.get(url);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: any) => e.attributes.before.storage_limit_bytes));
      url = res.body.links.next;
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
  });

  it('filters by acting admin and by target', async () => {
    const admin = await signInAdmin();
    const byOther = await admin.get(`/api/admin/audit?actor=${otherAdminId}`);
    expect(byOther.body.data.map((e: any) => e.attributes.before.storage_limit_bytes)).toEqual([3, 1]);
    const aboutFirst = await admin.get(`/api/admin/audit?target_type=user&target_id=${targets[0]}`);
    expect(aboutFirst.body.data.map((e: any) => e.attributes.before.storage_limit_bytes)).toEqual([4, 2, 0]);
  });

  it('answers bad paging and filters with 400 and cannot be edited', async () => {
    const admin = await signInAdmin();
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=not-a-cursor', `cursor=${Buffer.from('[1]').toString('base64url')}`, 'target_type=NOPE!']) {
      const res = await admin.get(`/api/admin/audit?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect((await admin.request('/api/admin/audit', { method, json: {} })).status, method).toBe(405);
    }
    expect((await admin.get('/api/admin/audit')).body.data).toHaveLength(6);
  });
});
