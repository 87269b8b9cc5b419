import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('personal access tokens', () => {
  it('creates a token shown once, authenticates API calls with it, lists and revokes it', async () => {
    const { client, email } = await registerUser(server.url);
    const created = await client.post('/api/user/tokens', { name: 'backup script' });
    expect(created.status).toBe(201);
    const token: string = created.body.meta.token;
    expect(token).toMatch(/^cd_[a-z2-7]{32}$/);

    const script = new Client(server.url);
    const me = await script.get('/api/user', { bearer: token, origin: null, xrw: false });
    expect(me.status).toBe(200);
    expect(me.body.data.attributes.email).toBe(email);

    // Bearer requests are exempt from the browser-only CSRF checks.
    const write = await script.post('/api/user/settings', { _method: 'patch', name: 'name', value: 'Scripted' }, { bearer: token, origin: null, xrw: false });
    expect(write.status).toBe(200);
    expect(write.body.data.attributes.name).toBe('Scripted');

    const list = await client.get('/api/user/tokens');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ name: 'backup script', last_used_at: expect.any(String) });
    expect(JSON.stringify(list.body)).not.toContain(token);

    const revoked = await client.post(`/api/user/tokens/${list.body.data[0].id}`, { _method: 'delete' });
    expect(revoked.status).toBe(204);
    expect((await script.get('/api/user', { bearer: token, origin: null, xrw: false })).status).toBe(401);
  });

  it('refuses another user, a wrong token and a signed-out client', async () => {
    const owner = await registerUser(server.url);
    const other = await registerUser(server.url);
    const { body } = await owner.client.post('/api/user/tokens', { name: 'mine' });
    const id = body.data.id;

    expect((await other.client.post(`/api/user/tokens/${id}`, { _method: 'delete' })).status).toBe(404);
    expect((await new Client(server.url).post(`/api/user/tokens/${id}`, { _method: 'delete' })).status).toBe(401);
    const wrong = await new Client(server.url).post(`/api/user/tokens/${id}`, { _method: 'delete' }, { bearer: 'cd_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', origin: null });
    expect(wrong.status).toBe(401);
    expect((await new Client(server.url).get('/api/user/tokens')).status).toBe(401);
    expect((await other.client.get('/api/user/tokens')).body.data).toEqual([]);
    // Still there for its owner.
    expect((await owner.client.get('/api/user/tokens')).body.data).toHaveLength(1);
  });

  it.each([
    ['missing name', {}],
    ['empty name', { name: '   ' }],
    ['oversized name', { name: 'x'.repeat(81) }],
    ['non-text name', { name: { nested: true } }],
  ])('refuses %s with 422 and creates nothing', async (_label, body) => {
    const { client } = await registerUser(server.url);
    const res = await client.post('/api/user/tokens', body);
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toBeDefined();
    expect((await client.get('/api/user/tokens')).body.data).toEqual([]);
  });

  it('answers 405 for a method the route does not have', async () => {
    const { client } = await registerUser(server.url);
    const res = await client.request('/api/user/tokens', { method: 'PUT', json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
  });
});
