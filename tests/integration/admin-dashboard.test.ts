import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const ADMIN = { email: 'owner@example.test', password: 'owner password 1' };
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Owner' } });
});
afterAll(async () => {
  await server?.stop();
});

async function signInAdmin(): Promise<Client> {
  const client = new Client(server.url);
  const res = await client.post('/login', ADMIN);
  expect(res.status).toBe(200);
  return client;
}

describe('admin dashboard', () => {
  it('gives an admin the account figures and newest accounts from the database', async () => {
    await registerUser(server.url, { name: 'Newcomer' });
    const res = await (await signInAdmin()).get('/api/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ admins: 1, database: server.db, version: expect.any(String) });
    expect(res.body.data.users).toBeGreaterThanOrEqual(2);
    expect(res.body.data.newest[0].name).toBe('Newcomer');
    expect(JSON.stringify(res.body)).not.toContain('password');
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
