import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CALLBACKS_PER_IP } from '../../src/server/auth/oidc/flow.ts';
import { clientSecretOf, type IssuerRow } from '../../src/server/auth/oidc/issuers.ts';
import type { AppContext } from '../../src/server/context.ts';
import { Client, registerUser, uniqueEmail, sessionCookieIsPersistent } from '../support/client.ts';
import { type Fault, type FakeOidc, startFakeOidc } from '../support/fake-oidc.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/**
 * OpenID Connect sign-in against a local fake identity provider, through openid-client: accounts
 * made and linked, every bad ID token and callback refused without a session, the admin's issuer
 * endpoints (validation, audit, write-only secret) and "only this provider" mode.
 */
const ADMIN = { email: 'oidc-owner@example.test', password: 'oidc owner password' };
let server: RunningServer;
let seed: AppContext;
let admin: Client;
let idp: FakeOidc;

beforeAll(async () => {
  idp = await startFakeOidc();
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Owner' } });
  seed = await seedContext(server);
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
  const res = await admin.post('/api/admin/settings/oidc', { id: 'acme', label: 'Acme ID', issuer_url: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret, enabled: true });
  expect(res.status, res.text).toBe(201);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
  await idp?.stop();
});
beforeEach(() => {
  idp.fault = null;
  idp.claimsInIdToken = true;
});

const html = (client: Client, p: string) => client.request(p, { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });
const flashOf = (client: Client) => {
  const raw = client.cookies.get('flash');
  return raw ? (JSON.parse(Buffer.from(decodeURIComponent(raw), 'base64url').toString('utf8')) as { message: string }) : null;
};
const signedIn = async (client: Client) => (await client.get('/api/user')).status === 200;

/** The browser's part: start, let the provider approve, and come back with the provider's answer. */
async function authorize(client: Client, issuer = 'acme'): Promise<URL> {
  const start = await client.get(`/api/oidc/${issuer}/redirect`);
  expect(start.status, start.text).toBe(200);
  const url = new URL(start.body.url);
  expect(url.origin + url.pathname).toBe(`${idp.issuer}/authorize`);
  const approved = await fetch(url, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  return new URL(approved.headers.get('location')!);
}
const callback = (client: Client, back: URL) => html(client, back.pathname + back.search);

async function signInThroughIdp(client = new Client(server.url)) {
  const res = await callback(client, await authorize(client));
  return { client, res };
}

async function refusedWith(fault: Fault) {
  idp.fault = fault;
  const { client, res } = await signInThroughIdp();
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/sign-in');
  expect(client.cookies.has('session') || (await signedIn(client))).toBe(false);
  return flashOf(client)?.message ?? '';
}

describe('signing in', () => {
  it('answers { url } with state, nonce and PKCE, keeping them in an httpOnly cookie on the callback path', async () => {
    const client = new Client(server.url);
    const res = await client.get('/api/oidc/acme/redirect');
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    for (const param of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(param)).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.url}/api/oidc/acme/callback`);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('oidc_flow='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/oidc\/acme\/callback/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=600/i);
    // A plain link (no JSON asked for) is sent on to the provider.
    const link = await html(new Client(server.url), '/api/oidc/acme/redirect');
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toMatch(new RegExp(`^${idp.issuer}/authorize\\?`));
  });

  it('makes an account for a new verified email, signs it in, and finds it again by its subject', async () => {
    const email = uniqueEmail('new-oidc');
    idp.identity = { sub: 'new-person-1', email, email_verified: true, name: 'New Person' };
    const { client, res } = await signInThroughIdp();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/platform/files');
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.data.attributes.email).toBe(email);
    const user = await seed.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.password_hash).toBe('');
    expect(user.email_verified_at).not.toBeNull();
    const links = await seed.db.selectFrom('user_identities').selectAll().where('user_id', '=', user.id).execute();
    expect(links.map((l) => [l.provider, l.subject])).toEqual([['oidc:acme', 'new-person-1']]);

    // Later, with a changed email at the provider: the same account, by its subject.
    idp.identity = { ...idp.identity, email: uniqueEmail('changed') };
    const again = await signInThroughIdp();
    expect((await again.client.get('/api/user')).body.data.id).toBe(user.id);
  });

  it('links a verified email to the existing verified account', async () => {
    const { email, user } = await registerUser(server.url);
    await seed.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', user.id).execute();
    idp.identity = { sub: 'existing-1', email, email_verified: true };
    const { client, res } = await signInThroughIdp();
    expect(res.headers.get('location')).toBe('/platform/files');
    expect((await client.get('/api/user')).body.data.id).toBe(user.id);
  });

  it('takes the email from userinfo when the ID token carries only the subject', async () => {
    const email = uniqueEmail('userinfo');
    idp.identity = { sub: 'userinfo-1', email, email_verified: true, name: 'From Userinfo' };
    idp.claimsInIdToken = false;
    const { client, res } = await signInThroughIdp();
    expect(res.headers.get('location')).toBe('/platform/files');
    expect((await client.get('/api/user')).body.data.attributes.email).toBe(email);
  });

  it('goes back to the page asked for, but never to another site', async () => {
    idp.identity = { sub: 'redirect-1', email: uniqueEmail('redirect'), email_verified: true };
    for (const [asked, landing] of [['/platform/shared', '/platform/shared'], ['//evil.example/x', '/platform/files']] as const) {
      const client = new Client(server.url);
      const start = await client.get(`/api/oidc/acme/redirect?redirect=${encodeURIComponent(asked)}`);
      const approved = await fetch(start.body.url, { redirect: 'manual' });
      const res = await callback(client, new URL(approved.headers.get('location')!));
      expect(res.headers.get('location')).toBe(landing);
    }
  });

  it('keeps the session across browser restarts when the form asked to ("Keep me signed in"), and not otherwise', async () => {
    idp.identity = { sub: 'remember-1', email: uniqueEmail('remember'), email_verified: true };
    for (const [query, persistent] of [['?remember=1', true], ['', false]] as const) {
      const client = new Client(server.url);
      const start = await client.get(`/api/oidc/acme/redirect${query}`);
      expect(start.status, start.text).toBe(200);
      const approved = await fetch(start.body.url, { redirect: 'manual' });
      const res = await callback(client, new URL(approved.headers.get('location')!));
      expect(res.status).toBe(303);
      expect(sessionCookieIsPersistent(res), query).toBe(persistent);
    }
    const bad = await new Client(server.url).get('/api/oidc/acme/redirect?remember=yes');
    expect(bad.status).toBe(422);
  });

  it('asks for the second step of an account with two-factor authentication, with no session yet', async () => {
    const email = uniqueEmail('two-factor');
    idp.identity = { sub: 'two-factor-1', email, email_verified: true };
    await signInThroughIdp();
    await seed.db.updateTable('users').set({ two_factor_enabled_at: new Date().toISOString() }).where('email', '=', email).execute();
    const { client, res } = await signInThroughIdp();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sign-in/two-factor?redirect=%2Fplatform%2Ffiles');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('sign_in_challenge=') && /Path=\/login/i.test(c))).toBe(true);
    expect(await signedIn(client)).toBe(false);
    const challenge = await seed.db.selectFrom('sign_in_challenges').innerJoin('users', 'users.id', 'sign_in_challenges.user_id').select('method').where('users.email', '=', email).executeTakeFirstOrThrow();
    expect(challenge.method).toBe('oidc:acme');
  });
});

describe('refusals: back to /sign-in with a message, no session, no account', () => {
  it.each([
    ['wrong-audience'],
    ['wrong-issuer'],
    ['wrong-nonce'],
    ['bad-signature'],
    ['expired'],
  ] as const)('an ID token with %s', async (fault) => {
    const email = uniqueEmail(fault);
    idp.identity = { sub: `bad-${fault}`, email, email_verified: true };
    expect(await refusedWith(fault)).toBe('The sign-in with Acme ID could not be verified. Try again.');
    expect(await seed.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('an email the provider has not verified', async () => {
    const email = uniqueEmail('unverified');
    idp.identity = { sub: 'unverified-1', email, email_verified: true };
    expect(await refusedWith('unverified-email')).toMatch(/not verified this email/);
    expect(await seed.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('an unverified email that matches an existing account is not linked to it', async () => {
    const { email, user } = await registerUser(server.url);
    await seed.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', user.id).execute();
    idp.identity = { sub: 'takeover-1', email, email_verified: true };
    expect(await refusedWith('unverified-email')).toMatch(/exists already/);
    expect(await seed.db.selectFrom('user_identities').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('the user said no at the provider', async () => {
    expect(await refusedWith('deny')).toBe('Acme ID did not sign you in. Try again.');
  });

  it('a wrong, missing or doubled state', async () => {
    idp.identity = { sub: 'state-1', email: uniqueEmail('state'), email_verified: true };
    for (const change of [(q: URLSearchParams) => q.set('state', 'x'.repeat(43)), (q: URLSearchParams) => q.delete('state'), (q: URLSearchParams) => q.append('state', 'again')]) {
      const client = new Client(server.url);
      const back = await authorize(client);
      change(back.searchParams);
      const res = await callback(client, back);
      expect(res.headers.get('location')).toBe('/sign-in');
      expect(flashOf(client)?.message).toBe('The sign-in with Acme ID could not be verified. Try again.');
      expect(await signedIn(client)).toBe(false);
    }
  });

  it('a callback without the flow cookie (another browser, or expired), and one that comes back twice', async () => {
    idp.identity = { sub: 'cookie-1', email: uniqueEmail('cookie'), email_verified: true };
    const client = new Client(server.url);
    const back = await authorize(client);
    const stranger = new Client(server.url);
    const res = await callback(stranger, back);
    expect(res.headers.get('location')).toBe('/sign-in');
    expect(flashOf(stranger)?.message).toMatch(/expired or was started in another browser/);
    expect(await signedIn(stranger)).toBe(false);
    // The cookie is spent by the first callback: the same answer again finds none.
    expect((await callback(client, back)).headers.get('location')).toBe('/platform/files');
    const twice = await callback(client, back);
    expect(twice.headers.get('location')).toBe('/sign-in');
  });

  it('a code used a second time is refused by the provider, and no session is made', async () => {
    idp.identity = { sub: 'replay-1', email: uniqueEmail('replay'), email_verified: true };
    const first = new Client(server.url);
    const back = await authorize(first);
    const flow = first.cookies.get('oidc_flow')!;
    expect((await callback(first, back)).headers.get('location')).toBe('/platform/files');
    // An attacker holding the same flow cookie replays the provider's answer.
    const replay = new Client(server.url);
    replay.cookies.set('oidc_flow', flow);
    const res = await callback(replay, back);
    expect(res.headers.get('location')).toBe('/sign-in');
    expect(idp.tokenRequests.at(-1)).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await signedIn(replay)).toBe(false);
  });

  it('callbacks from one address beyond the limit, before the provider is asked', async () => {
    const client = new Client(server.url);
    const tokenRequests = idp.tokenRequests.length;
    for (let i = 0; i < CALLBACKS_PER_IP.max; i += 1) {
      await html(client, '/api/oidc/acme/callback?code=made-up&state=x');
      expect(flashOf(client)?.message).toMatch(/expired or was started in another browser/);
    }
    const res = await html(client, '/api/oidc/acme/callback?code=made-up&state=x');
    expect(res.headers.get('location')).toBe('/sign-in');
    expect(flashOf(client)?.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect(idp.tokenRequests.length).toBe(tokenRequests);
  });

  it('a disabled or unknown issuer', async () => {
    await seed.db.insertInto('oidc_issuers').values({ id: 'dormant', label: 'Dormant', issuer_url: idp.issuer, client_id: 'x', client_secret: '', enabled: 0, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }).execute();
    const client = new Client(server.url);
    for (const id of ['dormant', 'nobody', 'BAD..id']) {
      const res = await client.get(`/api/oidc/${id}/redirect`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('This sign-in provider is not available.');
      const back = await html(client, `/api/oidc/${id}/callback?code=x&state=y`);
      expect(back.headers.get('location')).toBe('/sign-in');
    }
  });

  it('a provider that cannot be reached: 502 for the SPA, the sign-in page for a link', async () => {
    const res = await admin.post('/api/admin/settings/oidc', { id: 'gone', label: 'Gone', issuer_url: 'http://127.0.0.1:1/realms/none', client_id: 'x', client_secret: 'y', enabled: true });
    expect(res.status, res.text).toBe(201);
    const client = new Client(server.url);
    const start = await client.get('/api/oidc/gone/redirect');
    expect(start.status).toBe(502);
    expect(start.body.message).toBe('Gone could not be reached. Try again later.');
    const link = await html(client, '/api/oidc/gone/redirect');
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/sign-in');
    expect((await admin.request('/api/admin/settings/oidc/gone', { method: 'DELETE' })).status).toBe(204);
  });
});

describe('admin endpoints', () => {
  const valid = { id: 'corp', label: 'Corp SSO', issuer_url: 'https://id.corp.example/realms/staff', client_id: 'drive', client_secret: 'corp-secret-value-42' };
  const auditRows = (id: string) => seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).orderBy('created_at').execute();

  it.each([
    ['id', { ...valid, id: 'Bad Id' }],
    ['id', { ...valid, id: '-corp' }],
    ['label', { ...valid, label: '  ' }],
    ['label', { ...valid, label: 'x'.repeat(61) }],
    ['issuer_url', { ...valid, issuer_url: 'ftp://id.corp.example' }],
    ['issuer_url', { ...valid, issuer_url: 'http://id.corp.example' }],
    ['issuer_url', { ...valid, issuer_url: 'not a url' }],
    ['issuer_url', { ...valid, issuer_url: 'https://user:pw@id.corp.example' }],
    ['issuer_url', { ...valid, issuer_url: 'https://id.corp.example/?tenant=1' }],
    ['client_id', { ...valid, client_id: 'has space' }],
    ['client_id', { ...valid, client_id: '' }],
    ['client_secret', { ...valid, client_secret: 42 }],
    ['client_secret', { ...valid, client_secret: undefined, enabled: true }],
    ['enabled', { ...valid, enabled: 'yes' }],
    ['_', { ...valid, extra: 1 }],
    ['id', { ...valid, id: 'acme' }],
  ])('refuses a create with a bad %s (422), saving nothing', async (field, body) => {
    const before = await seed.db.selectFrom('oidc_issuers').select('id').execute();
    const res = await admin.post('/api/admin/settings/oidc', body);
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await seed.db.selectFrom('oidc_issuers').select('id').execute()).toEqual(before);
  });

  it('allows http:// only for loopback hosts', async () => {
    for (const [i, url] of ['http://localhost:8080/realms/a', 'http://127.0.0.1:9/x', 'http://[::1]:9'].entries()) {
      const res = await admin.post('/api/admin/settings/oidc', { ...valid, id: `loop-${i}`, issuer_url: url });
      expect(res.status, res.text).toBe(201);
      expect((await admin.request(`/api/admin/settings/oidc/loop-${i}`, { method: 'DELETE' })).status).toBe(204);
    }
  });

  it('creates, updates and deletes with an audit entry each; the secret is stored sealed and never answered', async () => {
    const created = await admin.post('/api/admin/settings/oidc', valid);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ id: 'corp', label: 'Corp SSO', client_secret: { set: true }, enabled: false, sign_in_only: false });
    const row = (await seed.db.selectFrom('oidc_issuers').selectAll().where('id', '=', 'corp').executeTakeFirstOrThrow()) as IssuerRow;
    expect(row.client_secret).toMatch(/^enc:v1:/);
    expect(await clientSecretOf(seed, row)).toBe(valid.client_secret);

    const updated = await admin.request('/api/admin/settings/oidc/corp', { method: 'PATCH', json: { label: 'Corp', enabled: true } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data).toMatchObject({ label: 'Corp', enabled: true, client_secret: { set: true } });
    const list = await admin.get('/api/admin/settings/oidc');
    expect(list.body.data.map((i: { id: string }) => i.id)).toContain('corp');
    for (const text of [created.text, updated.text, list.text]) expect(text).not.toContain(valid.client_secret);

    // Turning on without a secret is refused; clearing it while on, too.
    const cleared = await admin.request('/api/admin/settings/oidc/corp', { method: 'PATCH', json: { client_secret: null } });
    expect(cleared.status).toBe(422);
    expect(cleared.body.errors.client_secret).toBeDefined();
    const badUrl = await admin.request('/api/admin/settings/oidc/corp', { method: 'PATCH', json: { issuer_url: 'http://corp.example' } });
    expect(badUrl.status).toBe(422);
    expect((await admin.request('/api/admin/settings/oidc/corp', { method: 'PATCH', json: { id: 'renamed' } })).status).toBe(422);
    expect((await admin.request('/api/admin/settings/oidc/nobody', { method: 'PATCH', json: { label: 'x' } })).status).toBe(404);

    expect((await admin.request('/api/admin/settings/oidc/corp', { method: 'DELETE' })).status).toBe(204);
    expect((await admin.request('/api/admin/settings/oidc/corp', { method: 'DELETE' })).status).toBe(404);

    const audit = await auditRows('corp');
    expect(audit.map((a) => a.action)).toEqual(['oidc_issuer.create', 'oidc_issuer.update', 'oidc_issuer.delete']);
    for (const entry of audit) expect(`${entry.before}${entry.after}`).not.toContain(valid.client_secret);
    expect(JSON.parse(audit[0]!.after!).client_secret).toBe('[redacted]');
    expect(JSON.parse(audit[1]!.after!)).toEqual({ label: 'Corp', enabled: true });
  });

  it('refuses a signed-out client (401) and a user who is not an admin (403)', async () => {
    const { client: member } = await registerUser(server.url);
    const stranger = new Client(server.url);
    const calls = [
      ['GET', '/api/admin/settings/oidc', undefined],
      ['POST', '/api/admin/settings/oidc', { ...valid, id: 'sneaky' }],
      ['PUT', '/api/admin/settings/oidc', { only_issuer: null }],
      ['PATCH', '/api/admin/settings/oidc/acme', { enabled: false }],
      ['DELETE', '/api/admin/settings/oidc/acme', undefined],
    ] as const;
    for (const [method, path, json] of calls) {
      expect((await stranger.request(path, { method, ...(json ? { json } : {}) })).status).toBe(401);
      expect((await member.request(path, { method, ...(json ? { json } : {}) })).status).toBe(403);
    }
    expect(await seed.db.selectFrom('oidc_issuers').select(['id', 'enabled']).where('id', 'in', ['acme', 'sneaky']).execute()).toEqual([{ id: 'acme', enabled: 1 }]);
  });
});

describe('only this provider', () => {
  const setOnly = (only_issuer: unknown) => admin.request('/api/admin/settings/oidc', { method: 'PUT', json: { only_issuer } });

  it('refuses an unknown or disabled issuer (422)', async () => {
    expect((await setOnly('nobody')).status).toBe(422);
    expect((await setOnly('dormant')).status).toBe(422);
    expect((await setOnly(7)).status).toBe(422);
    expect((await admin.request('/api/admin/settings/oidc', { method: 'PUT', json: {} })).status).toBe(422);
  });

  it('refuses password sign-in to everyone but admins, and shows only the provider on the sign-in page', async () => {
    const member = await registerUser(server.url);
    const on = await setOnly('acme');
    expect(on.status, on.text).toBe(200);
    expect(on.body.meta.only_issuer).toBe('acme');
    const audit = await seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', 'oidc-only-provider').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!)).toEqual({ only_issuer: 'acme' });

    const refused = await new Client(server.url).post('/login', { email: member.email, password: member.password });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Sign in with Acme ID: password sign-in is switched off on this instance.');
    // A wrong password still gets the usual answer: the mode tells nothing about an address.
    const wrong = await new Client(server.url).post('/login', { email: member.email, password: 'not the password' });
    expect(wrong.status).toBe(422);
    // Admins keep password sign-in, so a broken provider cannot lock the instance out.
    expect((await new Client(server.url).post('/login', ADMIN)).status).toBe(200);

    const page = await html(new Client(server.url), '/sign-in');
    expect(page.text).toContain('href="/api/oidc/acme/redirect"');
    expect(page.text).not.toContain('action="/login"');
    expect(page.text).toContain('href="/sign-in?password=1"');
    const adminForm = await html(new Client(server.url), '/sign-in?password=1');
    expect(adminForm.text).toContain('action="/login"');
    const signUp = await html(new Client(server.url), '/sign-up');
    expect(signUp.text).toContain('href="/api/oidc/acme/redirect"');
    expect(signUp.text).not.toContain('action="/register"');
    const email = uniqueEmail('only-mode');
    const register = await new Client(server.url).post('/register', { name: 'Pat', email, password: 'correct horse battery', password_confirmation: 'correct horse battery' });
    expect(register.status).toBe(403);
    expect(register.body.message).toBe('Sign up with Acme ID: accounts with a password are switched off on this instance.');
    expect(await seed.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    // Signing up through the provider still works.
    idp.identity = { sub: 'only-mode-1', email, email_verified: true };
    expect((await signInThroughIdp()).res.headers.get('location')).toBe('/platform/files');

    // Disabling the issuer ends the mode with it.
    expect((await admin.request('/api/admin/settings/oidc/acme', { method: 'PATCH', json: { enabled: false } })).status).toBe(200);
    expect((await admin.get('/api/admin/settings/oidc')).body.meta.only_issuer).toBeNull();
    expect((await new Client(server.url).post('/login', { email: member.email, password: member.password })).status).toBe(200);
    expect((await admin.request('/api/admin/settings/oidc/acme', { method: 'PATCH', json: { enabled: true } })).status).toBe(200);

    expect((await setOnly('acme')).status).toBe(200);
    expect((await setOnly(null)).body.meta.only_issuer).toBeNull();
    expect((await new Client(server.url).post('/login', { email: member.email, password: member.password })).status).toBe(200);
  });

  it('shows a button per enabled issuer above the password forms otherwise', async () => {
    const signIn = await html(new Client(server.url), '/sign-in');
    expect(signIn.text).toContain('Continue with Acme ID');
    expect(signIn.text).toContain('action="/login"');
    expect(signIn.text).not.toContain('/api/oidc/dormant/redirect');
    const signUp = await html(new Client(server.url), '/sign-up?redirect=%2Fplatform%2Fshared');
    expect(signUp.text).toContain('href="/api/oidc/acme/redirect?redirect=%2Fplatform%2Fshared"');
    expect(signUp.text).toContain('action="/register"');
  });
});
