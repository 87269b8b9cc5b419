import { readFile } from 'node:fs/promises';
import path from 'node:path';
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
    // Used again within the minute: the date is not written again (a sync client's every request would commit).
    expect((await script.get('/api/user', { bearer: token, origin: null, xrw: false })).status).toBe(200);
    expect((await client.get('/api/user/tokens')).body.data[0].last_used_at).toBe(list.body.data[0].last_used_at);

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

  it('never lets a bearer token create or revoke tokens (403), while the session can', async () => {
    const { client } = await registerUser(server.url);
    const first = await client.post('/api/user/tokens', { name: 'first' });
    expect(first.status).toBe(201);
    const token: string = first.body.meta.token;
    const script = new Client(server.url);
    const bearer = { bearer: token, origin: null, xrw: false } as const;

    const mint = await script.post('/api/user/tokens', { name: 'successor' }, bearer);
    expect(mint.status).toBe(403);
    expect(mint.body).toMatchObject({ code: 'session_required', message: expect.stringMatching(/session/) });
    const revoke = await script.post(`/api/user/tokens/${first.body.data.id}`, { _method: 'delete' }, bearer);
    expect(revoke.status).toBe(403);
    expect(revoke.body.code).toBe('session_required');
    // Nothing changed; the token may still read its own list.
    const list = await script.get('/api/user/tokens', bearer);
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { name: string }) => t.name)).toEqual(['first']);

    const second = await client.post('/api/user/tokens', { name: 'second' });
    expect(second.status).toBe(201);
    expect((await client.post(`/api/user/tokens/${second.body.data.id}`, { _method: 'delete' })).status).toBe(204);
    expect((await client.get('/api/user/tokens')).body.data.map((t: { name: string }) => t.name)).toEqual(['first']);
  });

  it('revokes every token and every other session when the password is changed', async () => {
    const { client, email, password } = await registerUser(server.url);
    const tokens: string[] = [];
    for (const name of ['one', 'two']) tokens.push((await client.post('/api/user/tokens', { name })).body.meta.token);
    const elsewhere = new Client(server.url);
    expect((await elsewhere.post('/login', { email, password })).status).toBe(200);
    for (const token of tokens) expect((await new Client(server.url).get('/api/user', { bearer: token, origin: null, xrw: false })).status).toBe(200);

    const changed = await client.post('/api/user/password', { _method: 'patch', current_password: password, password: 'a changed password', password_confirmation: 'a changed password' });
    expect(changed.status).toBe(200);
    for (const token of tokens) expect((await new Client(server.url).get('/api/user', { bearer: token, origin: null, xrw: false })).status).toBe(401);
    expect((await client.get('/api/user/tokens')).body.data).toEqual([]);
    expect((await elsewhere.get('/api/user')).status).toBe(401);
    expect((await client.get('/api/user')).status).toBe(200);
  });

  it('revokes every token when the password is reset', async () => {
    const { client, email } = await registerUser(server.url);
    const token: string = (await client.post('/api/user/tokens', { name: 'before reset' })).body.meta.token;
    expect((await new Client(server.url).post('/forgot-password', { email })).status).toBe(200);
    const link = new URL((await waitForMail(email, /Reset/)).text.match(/https?:\/\/\S+/)![0]);
    const reset = await new Client(server.url).post('/reset-password', { token: link.searchParams.get('token'), email, password: 'a reset password', password_confirmation: 'a reset password' });
    expect(reset.status).toBe(200);
    expect((await new Client(server.url).get('/api/user', { bearer: token, origin: null, xrw: false })).status).toBe(401);
    const fresh = new Client(server.url);
    expect((await fresh.post('/login', { email, password: 'a reset password' })).status).toBe(200);
    expect((await fresh.get('/api/user/tokens')).body.data).toEqual([]);
  });
});

async function waitForMail(to: string, subject: RegExp): Promise<{ text: string }> {
  for (let i = 0; i < 100; i++) {
    const raw = await readFile(path.join(server.dataDir, 'mail', 'outbox.jsonl'), 'utf8').catch(() => '');
    const mail = raw.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((m) => m.to === to && subject.test(m.subject)).at(-1);
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}`);
}
