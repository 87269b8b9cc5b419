import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

async function outbox(): Promise<{ to: string; subject: string; text: string }[]> {
  try {
    const raw = await readFile(path.join(server.dataDir, 'mail', 'outbox.jsonl'), 'utf8');
    return raw.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

async function waitForMail(to: string, subject: RegExp) {
  for (let i = 0; i < 50; i++) {
    const mail = (await outbox()).filter((m) => m.to === to && subject.test(m.subject)).at(-1);
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}`);
}

describe('registration', () => {
  it('creates an account without signing it in, mails the verification link, and the user signs in', async () => {
    const client = new Client(server.url);
    const email = uniqueEmail();
    const res = await client.post('/register', { name: 'Ada Lovelace', email, password: 'analytical engine', password_confirmation: 'analytical engine' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: expect.stringMatching(/check your email/i) });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('session='))).toBe(false);
    expect((await client.get('/api/user')).status).toBe(401);
    await waitForMail(email, /Confirm/);
    const login = await client.post('/login', { email, password: 'analytical engine' });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.data.attributes).toMatchObject({ name: 'Ada Lovelace', email, role: 'user', avatar: null, email_verified_at: null });
    expect(me.body.data.meta.restrictions).toEqual({ canUpload: true, canDownload: true, canCreateFolder: true, canCreateTeamFolder: true });
    expect(me.body.data.relationships.failedPayments.data).toEqual([]);
  });

  it.each([
    ['invalid email', { email: 'not an email' }, 'email'],
    ['short password', { password: 'short', password_confirmation: 'short' }, 'password'],
    ['mismatched confirmation', { password_confirmation: 'something else entirely' }, 'password_confirmation'],
    ['missing name', { name: '' }, 'name'],
    ['oversized name', { name: 'x'.repeat(121) }, 'name'],
    ['oversized email', { email: `${'a'.repeat(250)}@example.test` }, 'email'],
    ['oversized password', { password: 'p'.repeat(129), password_confirmation: 'p'.repeat(129) }, 'password'],
    ['email with spaces', { email: 'ada lovelace@example.test' }, 'email'],
  ])('refuses %s with 422 and creates nothing', async (_label, override, field) => {
    const client = new Client(server.url);
    const email = (override as { email?: string }).email ?? uniqueEmail();
    const res = await client.post('/register', { name: 'Someone', email, password: 'long enough pw', password_confirmation: 'long enough pw', ...override });
    expect(res.status).toBe(422);
    expect(res.body.errors[field]?.[0]).toEqual(expect.any(String));
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.headers.getSetCookie().some((c) => c.startsWith('session='))).toBe(false);
    const login = await client.post('/login', { email, password: 'long enough pw' });
    expect(login.status).toBe(422);
  });

  it('answers a taken email (compared case-insensitively) like a new one, and keeps the account as it was', async () => {
    const { email, password } = await registerUser(server.url);
    const res = await new Client(server.url).post('/register', { name: 'Twin', email: email.toUpperCase(), password: 'another password', password_confirmation: 'another password' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: expect.stringMatching(/check your email/i) });
    expect((await new Client(server.url).post('/login', { email, password: 'another password' })).status).toBe(422);
    expect((await new Client(server.url).post('/login', { email, password })).status).toBe(200);
  });

  it('refuses a wrong content type with 415', async () => {
    const res = await new Client(server.url).request('/register', { method: 'POST', body: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/application\/json/);
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await new Client(server.url).request('/register', { method: 'POST', body: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
  });

  it('refuses a request without a same-origin Origin (CSRF) and creates nothing', async () => {
    const client = new Client(server.url);
    const email = uniqueEmail();
    const body = { name: 'Mallory', email, password: 'long enough pw', password_confirmation: 'long enough pw' };
    const foreign = await client.post('/register', body, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const missing = await client.post('/register', body, { origin: null });
    expect(missing.status).toBe(403);
    expect((await client.post('/login', { email, password: 'long enough pw' })).status).toBe(422);
  });

  it('answers a plain HTML form with a redirect, and a refused one with a redirect back', async () => {
    const client = new Client(server.url);
    const email = uniqueEmail();
    const ok = await client.request('/register', {
      method: 'POST',
      form: { name: 'Form User', email, password: 'form password', password_confirmation: 'form password' },
      headers: { Accept: 'text/html' },
      xrw: false,
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/sign-in');
    const bad = await new Client(server.url).request('/register', {
      method: 'POST',
      form: { name: 'Form User', email: 'broken', password: 'form password', password_confirmation: 'form password' },
      headers: { Accept: 'text/html' },
      xrw: false,
    });
    expect(bad.status).toBe(303);
    expect(bad.headers.get('location')).toBe('/sign-up');
  });

  it('a form sign-up from an invitation leads on to sign-in with the way back and the address; another origin is not followed', async () => {
    const email = uniqueEmail();
    const form = (extra: Record<string, string>, address = email) => ({ name: 'Form User', email: address, password: 'form password', password_confirmation: 'form password', ...extra });
    const send = (body: Record<string, string>) => new Client(server.url).request('/register', { method: 'POST', form: body, headers: { Accept: 'text/html' }, xrw: false });
    const ok = await send(form({ redirect: '/team-folder-invitation/abc?accept=1' }));
    expect(ok.status).toBe(303);
    const next = new URL(ok.headers.get('location')!, server.url);
    expect(next.pathname).toBe('/sign-in');
    expect(next.searchParams.get('redirect')).toBe('/team-folder-invitation/abc?accept=1');
    expect(next.searchParams.get('email')).toBe(email);
    const bad = await send(form({ redirect: '/team-folder-invitation/abc' }, 'broken'));
    expect(new URL(bad.headers.get('location')!, server.url).searchParams.get('redirect')).toBe('/team-folder-invitation/abc');
    for (const target of ['//evil.example/x', 'https://evil.example/']) {
      const away = await send(form({ redirect: target }, uniqueEmail()));
      expect(away.headers.get('location')).toBe('/sign-in');
    }
  });
});

describe('sign-in and sessions', () => {
  it('signs in, keeps only a hash of the session token, and signs out', async () => {
    const { email, password } = await registerUser(server.url);
    const client = new Client(server.url);
    const res = await client.post('/login', { email: email.toUpperCase(), password, remember: true, redirect: '/platform/files/abc' });
    expect(res.status).toBe(200);
    expect(res.body.meta.redirect).toBe('/platform/files/abc');
    const token = client.cookies.get('session')!;
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('session='))).toMatch(/Max-Age=\d+/);
    expect((await client.get('/api/user')).status).toBe(200);
    const out = await client.request('/logout', { method: 'POST' });
    expect(out.status).toBe(204);
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('gives a browser-session cookie without remember', async () => {
    const { email, password } = await registerUser(server.url);
    const res = await new Client(server.url).post('/login', { email, password });
    expect(res.headers.getSetCookie().find((c) => c.startsWith('session='))).not.toMatch(/Max-Age/);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const { email } = await registerUser(server.url);
    const wrong = await new Client(server.url).post('/login', { email, password: 'wrong password!' });
    const unknown = await new Client(server.url).post('/login', { email: uniqueEmail('ghost'), password: 'wrong password!' });
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(422);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('never follows a redirect to another origin after sign-in', async () => {
    const { email, password } = await registerUser(server.url);
    for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await new Client(server.url).post('/login', { email, password, redirect: target });
      expect(res.status).toBe(200);
      expect(res.body.meta.redirect).toBe('/platform/files');
    }
  });

  it('rate-limits sign-in per IP with 429 and Retry-After', async () => {
    const client = new Client(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await client.post('/login', { email: uniqueEmail('spray'), password: 'whatever pw' })).status);
    expect(statuses.slice(0, 30).every((s) => s === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('backs off sign-in per account and IP with 429 and Retry-After, without locking the account', async () => {
    const { email, password } = await registerUser(server.url);
    const guesser = new Client(server.url);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await guesser.post('/login', { email, password: 'wrong password!' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await guesser.post('/login', { email, password })).status).toBe(429);
    expect((await new Client(server.url).post('/login', { email, password })).status).toBe(200);
  });

  it('refuses cookie-authenticated API writes without X-Requested-With', async () => {
    const { client } = await registerUser(server.url);
    const res = await client.post('/api/user/settings', { _method: 'patch', name: 'name', value: 'Changed' }, { xrw: false });
    expect(res.status).toBe(403);
    expect((await client.get('/api/user')).body.data.attributes.name).toBe('Test User');
  });

  it('answers the API 401 for a signed-out client', async () => {
    const res = await new Client(server.url).get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body.message).toEqual(expect.any(String));
  });
});

describe('password reset', () => {
  it('mails a link, resets the password and revokes every session', async () => {
    const { client, email } = await registerUser(server.url);
    const res = await new Client(server.url).post('/forgot-password', { email });
    expect(res.status).toBe(200);
    const mail = await waitForMail(email, /Reset/);
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe('/create-new-password');
    const token = link.searchParams.get('token')!;
    const reset = await new Client(server.url).post('/reset-password', { token, email, password: 'brand new password', password_confirmation: 'brand new password' });
    expect(reset.status).toBe(200);
    expect((await client.get('/api/user')).status).toBe(401);
    expect((await new Client(server.url).post('/login', { email, password: 'brand new password' })).status).toBe(200);
    const again = await new Client(server.url).post('/reset-password', { token, email, password: 'third password!', password_confirmation: 'third password!' });
    expect(again.status).toBe(422);
  });

  it('answers the same for an unknown email', async () => {
    const known = await registerUser(server.url);
    const a = await new Client(server.url).post('/forgot-password', { email: known.email });
    const b = await new Client(server.url).post('/forgot-password', { email: uniqueEmail('nobody') });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body).toEqual(b.body);
  });

  it.each([
    ['unknown token', { token: 'abcdefghijklmnopqrstuvwxyz234567' }, 'token'],
    ['mismatched confirmation', { password_confirmation: 'nope nope nope' }, 'password_confirmation'],
    ['short password', { password: 'short', password_confirmation: 'short' }, 'password'],
    ['invalid email', { email: 'nope' }, 'email'],
  ])('refuses %s with 422 and changes nothing', async (_label, override, field) => {
    const { email, password } = await registerUser(server.url);
    const res = await new Client(server.url).post('/reset-password', { token: 'abcdefghijklmnopqrstuvwxyz234567', email, password: 'brand new password', password_confirmation: 'brand new password', ...override });
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toBeDefined();
    expect((await new Client(server.url).post('/login', { email, password })).status).toBe(200);
  });
});

describe('email verification', () => {
  it('verifies the address from the mailed link and lands on /successfully-verified', async () => {
    const { client, email } = await registerUser(server.url);
    const mail = await waitForMail(email, /Confirm/);
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    const res = await client.request(link.pathname + link.search, { method: 'GET' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/successfully-verified');
    expect((await client.get('/api/user')).body.data.attributes.email_verified_at).toEqual(expect.any(String));
  });

  it('refuses an unknown verification token', async () => {
    const res = await new Client(server.url).request('/verify-email?token=nope', { method: 'GET' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sign-in');
  });
});
