import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { Client, registerUser } from '../support/client.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/**
 * TOTP two-factor authentication: setup and confirm, the second step of sign-in with a code or a
 * recovery code, and the attacks on it (replays, codes outside the window, guessing, a skipped
 * second step). Codes come from the real clock: each assertion is made so that a 30 s step
 * boundary passing between computing a code and checking it cannot change its outcome.
 */
const ADMIN = { email: 'tfa-admin@example.test', password: 'two factor admin password' };

let server: RunningServer;
let seed: AppContext;
let admin: Client;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'TFA Admin' } });
  seed = await seedContext(server);
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

const step = (offsetSeconds = 0) => Math.floor((Date.now() / 1000 + offsetSeconds) / 30);
const codeFor = (key: string, at: number) => generateHOTP(decodeBase32IgnorePadding(key), BigInt(at), 6);
/** The code of the step `offsetSeconds` from now. */
const codeAt = (key: string, offsetSeconds = 0) => codeFor(key, step(offsetSeconds));
/** A code that is none of the steps a check could accept now or in the next minute. */
function wrongCode(key: string): string {
  const near = new Set([-2, -1, 0, 1, 2, 3].map((d) => codeFor(key, step() + d)));
  for (let n = 0; ; n++) {
    const code = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

const userRow = (id: string) => seed.db.selectFrom('users').select(['two_factor_enabled_at', 'totp_secret', 'totp_last_step']).where('id', '=', id).executeTakeFirstOrThrow();
const challengesOf = (id: string) => seed.db.selectFrom('sign_in_challenges').selectAll().where('user_id', '=', id).execute();

async function setUp(client: Client): Promise<string> {
  const res = await client.post('/api/user/two-factor/setup', {});
  expect(res.status, res.text).toBe(200);
  return res.body.data.key;
}

/** Turns two-factor authentication on with the current step's code; the next code to sign in with is `codeAt(key, 30)`. */
async function enable(client: Client) {
  const key = await setUp(client);
  const res = await client.post('/api/user/two-factor/confirm', { code: codeAt(key) });
  expect(res.status, res.text).toBe(200);
  return { key, codes: res.body.data.recovery_codes as string[] };
}

async function twoFactorUser() {
  const registered = await registerUser(server.url);
  return { ...registered, ...(await enable(registered.client)) };
}

/** The password step in a fresh browser: answers the challenge. */
async function firstStep(email: string, password: string) {
  const client = new Client(server.url);
  const res = await client.post('/login', { email, password });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data).toBeNull();
  return { client, challenge: res.body.meta.second_step.challenge as string, factors: res.body.meta.second_step.factors as string[] };
}

describe('turning two-factor authentication on', () => {
  it('shows a key and an otpauth URI, stores the key encrypted, and is on after the first code, with ten recovery codes', async () => {
    const { client, user, email } = await registerUser(server.url);
    expect((await client.get('/api/user/two-factor')).body.data.attributes).toMatchObject({ enabled: false, pending: false, recovery_codes_left: 0, disable_with: 'password' });

    const setup = await client.post('/api/user/two-factor/setup', {});
    expect(setup.status, setup.text).toBe(200);
    const key: string = setup.body.data.key;
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(setup.body.data.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(key);
    expect(uri.searchParams.get('issuer')).toBe('Cloud Drive');
    expect(decodeURIComponent(uri.pathname)).toContain(email);
    const pending = await userRow(user.id);
    expect(pending.two_factor_enabled_at).toBeNull();
    expect(pending.totp_secret).toMatch(/^enc:v1:/);
    expect(pending.totp_secret).not.toContain(key);
    expect((await client.get('/api/user/two-factor')).body.data.attributes).toMatchObject({ enabled: false, pending: true });

    // A pending key does not ask for a second step yet.
    const direct = await new Client(server.url).post('/login', { email, password: 'correct horse battery' });
    expect(direct.body.data?.id).toBe(user.id);

    const wrong = await client.post('/api/user/two-factor/confirm', { code: wrongCode(key) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code[0]).toMatch(/not right/);
    expect((await userRow(user.id)).two_factor_enabled_at).toBeNull();

    const confirm = await client.post('/api/user/two-factor/confirm', { code: codeAt(key) });
    expect(confirm.status, confirm.text).toBe(200);
    const codes: string[] = confirm.body.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    const stored = await seed.db.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.code_hash).join()).not.toContain(codes[0]!.replace(/-/g, ''));

    expect((await client.get('/api/user/two-factor')).body.data.attributes).toMatchObject({ enabled: true, pending: false, recovery_codes_left: 10, recovery_codes_low: false });
    expect((await client.get('/api/user')).body.data.attributes.two_factor_authentication).toBe(true);
    // On already: no second setup, no second confirm.
    expect((await client.post('/api/user/two-factor/setup', {})).status).toBe(409);
    expect((await client.post('/api/user/two-factor/confirm', { code: codeAt(key, 30) })).status).toBe(409);
  });

  it('refuses a confirm before any setup, and a code two steps ahead', async () => {
    const { client, user } = await registerUser(server.url);
    expect((await client.post('/api/user/two-factor/confirm', { code: '123456' })).status).toBe(409);
    const key = await setUp(client);
    const ahead = await client.post('/api/user/two-factor/confirm', { code: codeAt(key, 90) });
    expect(ahead.status).toBe(422);
    expect((await userRow(user.id)).two_factor_enabled_at).toBeNull();
  });

  it('a new setup replaces an unconfirmed key: codes of the old one no longer confirm', async () => {
    const { client } = await registerUser(server.url);
    const first = await setUp(client);
    const second = await setUp(client);
    expect(second).not.toBe(first);
    expect((await client.post('/api/user/two-factor/confirm', { code: codeAt(first) })).status).toBe(422);
    expect((await client.post('/api/user/two-factor/confirm', { code: codeAt(second) })).status).toBe(200);
  });
});

describe('signing in with the second step', () => {
  it('the password alone gives a challenge, not a session; the code finishes the sign-in', async () => {
    const { user, email, password, key } = await twoFactorUser();
    const { client, challenge, factors } = await firstStep(email, password);
    expect(factors).toEqual(['totp', 'recovery_code']);
    expect(client.cookies.has('session')).toBe(false);
    // The challenge is no session, whichever way it is presented.
    expect((await client.get('/api/user')).status).toBe(401);
    expect((await client.get('/api/user', { bearer: challenge, origin: null })).status).toBe(401);
    expect((await client.get('/api/user', { headers: { Cookie: `session=${challenge}` } })).status).toBe(401);
    expect((await client.post('/api/user/two-factor/setup', {}, { headers: { Cookie: `session=${challenge}` } })).status).toBe(401);

    const res = await client.post('/login/two-factor', { challenge, code: codeAt(key, 30) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(user.id);
    expect(res.body.meta.redirect).toBe('/platform/files');
    expect(client.cookies.has('session')).toBe(true);
    expect((await client.get('/api/user')).body.data.id).toBe(user.id);
    // The challenge is used up.
    expect(await challengesOf(user.id)).toHaveLength(0);
  });

  it('a code is accepted once: replayed, or sent twice at the same time, only one sign-in passes', async () => {
    const { email, password, key } = await twoFactorUser();
    const code = codeAt(key, 30);
    const [a, b] = await Promise.all([firstStep(email, password), firstStep(email, password)]);
    const results = await Promise.all([a.client.post('/login/two-factor', { challenge: a.challenge, code }), b.client.post('/login/two-factor', { challenge: b.challenge, code })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = results.find((r) => r.status === 422)!;
    expect(refused.body.errors.code[0]).toMatch(/used already/);

    const again = await firstStep(email, password);
    const replay = await again.client.post('/login/two-factor', { challenge: again.challenge, code });
    expect(replay.status).toBe(422);
    expect(again.client.cookies.has('session')).toBe(false);
  });

  it('a code of the previous step is accepted once; then older codes are refused and a newer one passes', async () => {
    const { client, user, email, password } = await registerUser(server.url);
    const key = await setUp(client);
    // Confirm with the previous step's code. Should a step boundary pass during the request, that
    // code is two steps old and refused: then the check is made again with a fresh one.
    let previous = '';
    for (let tries = 0; ; tries++) {
      const before = step();
      previous = codeFor(key, before - 1);
      const res = await client.post('/api/user/two-factor/confirm', { code: previous });
      if (step() === before) {
        expect(res.status, res.text).toBe(200);
        break;
      }
      expect(res.status).toBe(422);
      expect(tries).toBe(0);
    }
    const replay = await firstStep(email, password);
    expect((await replay.client.post('/login/two-factor', { challenge: replay.challenge, code: previous })).status).toBe(422);
    const fresh = await firstStep(email, password);
    const res = await fresh.client.post('/login/two-factor', { challenge: fresh.challenge, code: codeAt(key, 30) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(user.id);
  });

  it('a code two steps ahead is refused and counts as a wrong try', async () => {
    const { user, email, password, key } = await twoFactorUser();
    const { client, challenge } = await firstStep(email, password);
    const res = await client.post('/login/two-factor', { challenge, code: codeAt(key, 90) });
    expect(res.status).toBe(422);
    expect(res.body.errors.code).toBeDefined();
    expect((await challengesOf(user.id))[0]?.failed_attempts).toBe(1);
  });

  it('guessing is stopped: the challenge goes after five wrong codes, the account answers 429 after ten tries', async () => {
    const { user, email, password, key } = await twoFactorUser();
    const first = await firstStep(email, password);
    for (let i = 1; i <= 4; i++) {
      const res = await first.client.post('/login/two-factor', { challenge: first.challenge, code: wrongCode(key) });
      expect(res.status).toBe(422);
      expect(res.body.errors.code).toBeDefined();
    }
    const fifth = await first.client.post('/login/two-factor', { challenge: first.challenge, code: wrongCode(key) });
    expect(fifth.status).toBe(422);
    expect(fifth.body.errors.challenge[0]).toMatch(/Too many wrong codes/);
    expect(await challengesOf(user.id)).toHaveLength(0);
    // The right code cannot revive it.
    const revived = await first.client.post('/login/two-factor', { challenge: first.challenge, code: codeAt(key, 30) });
    expect(revived.status).toBe(422);
    expect(revived.body.errors.challenge).toBeDefined();

    // Six tries spent on this account; a new challenge gets four more, then none, right code or not.
    const second = await firstStep(email, password);
    for (let i = 0; i < 4; i++) expect((await second.client.post('/login/two-factor', { challenge: second.challenge, code: wrongCode(key) })).status).toBe(422);
    const locked = await second.client.post('/login/two-factor', { challenge: second.challenge, code: codeAt(key, 30) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(second.client.cookies.has('session')).toBe(false);
  });

  it('a recovery code signs in once, typed in any case and with or without dashes', async () => {
    const { client, user, email, password, codes } = await twoFactorUser();
    const a = await firstStep(email, password);
    const res = await a.client.post('/login/two-factor', { challenge: a.challenge, recovery_code: ` ${codes[0]!.toUpperCase()} ` });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(user.id);
    expect((await client.get('/api/user/two-factor')).body.data.attributes.recovery_codes_left).toBe(9);

    const b = await firstStep(email, password);
    const twice = await b.client.post('/login/two-factor', { challenge: b.challenge, recovery_code: codes[0]!.replace(/-/g, '') });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.recovery_code[0]).toMatch(/used already/);
    expect(b.client.cookies.has('session')).toBe(false);
  });

  it('the HTML form keeps the challenge in a cookie for /login only and redirects like /login', async () => {
    const { user, email, password, key } = await twoFactorUser();
    const browser = new Client(server.url);
    const html = { Accept: 'text/html' };
    const login = await browser.request('/login', { method: 'POST', form: { email, password, redirect: '/platform/recent' }, headers: html, xrw: false });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/sign-in/two-factor?redirect=%2Fplatform%2Frecent');
    const setCookies = login.headers.getSetCookie();
    expect(setCookies.find((c) => c.startsWith('sign_in_challenge='))).toMatch(/Path=\/login/i);
    expect(setCookies.some((c) => c.startsWith('session='))).toBe(false);

    const wrong = await browser.request('/login/two-factor', { method: 'POST', form: { code: wrongCode(key), redirect: '/platform/recent' }, headers: html, xrw: false });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe('/sign-in/two-factor?redirect=%2Fplatform%2Frecent');
    const page = await browser.request('/sign-in/two-factor?redirect=%2Fplatform%2Frecent', { headers: html, xrw: false });
    expect(page.status).toBe(200);
    expect(page.text).toContain('not right');

    const wrongRecovery = await browser.request('/login/two-factor', { method: 'POST', form: { recovery_code: 'aaaa-aaaa-aaaa' }, headers: html, xrw: false });
    expect(wrongRecovery.headers.get('location')).toBe('/sign-in/two-factor?recovery=1');

    const ok = await browser.request('/login/two-factor', { method: 'POST', form: { code: codeAt(key, 30), redirect: '/platform/recent' }, headers: html, xrw: false });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/platform/recent');
    expect(browser.cookies.has('session')).toBe(true);
    expect(browser.cookies.has('sign_in_challenge')).toBe(false);
    expect((await browser.get('/api/user')).body.data.id).toBe(user.id);
  });

  it('a challenge is bound to its account: another user’s right code does not finish it', async () => {
    const victim = await twoFactorUser();
    const other = await twoFactorUser();
    const { client, challenge } = await firstStep(victim.email, victim.password);
    const res = await client.post('/login/two-factor', { challenge, code: codeAt(other.key, 30) });
    expect(res.status).toBe(422);
    expect(client.cookies.has('session')).toBe(false);
    const foreign = await client.post('/login/two-factor', { challenge, recovery_code: other.codes[0] });
    expect(foreign.status).toBe(422);
    expect((await other.client.get('/api/user/two-factor')).body.data.attributes.recovery_codes_left).toBe(10);
  });

  it('without a challenge, or with an unknown one, nothing can be tried', async () => {
    const { key } = await twoFactorUser();
    const none = await new Client(server.url).post('/login/two-factor', { code: codeAt(key, 30) });
    expect(none.status).toBe(422);
    expect(none.body.errors.challenge[0]).toMatch(/expired/);
    const made = await new Client(server.url).post('/login/two-factor', { challenge: 'a'.repeat(32), code: codeAt(key, 30) });
    expect(made.status).toBe(422);
    expect(made.body.errors.challenge).toBeDefined();
  });
});

describe('bad input is refused with 422 and changes nothing', () => {
  it('the second step', async () => {
    const { user, email, password } = await twoFactorUser();
    const { client, challenge } = await firstStep(email, password);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ challenge }, 'code'],
      [{ challenge, code: '' }, 'code'],
      [{ challenge, code: '12345' }, 'code'],
      [{ challenge, code: '1234567' }, 'code'],
      [{ challenge, code: 'abcdef' }, 'code'],
      [{ challenge, code: 123456 }, 'code'],
      [{ challenge, code: '1'.repeat(30) }, 'code'],
      [{ challenge, recovery_code: 'short' }, 'recovery_code'],
      [{ challenge, recovery_code: 'abcd-efgh-ij01' }, 'recovery_code'],
      [{ challenge, recovery_code: ['abcd-efgh-ijkl'] }, 'recovery_code'],
      [{ challenge, code: '123456', recovery_code: 'abcd-efgh-ijkl' }, 'code'],
      [{ challenge: 42, code: '123456' }, 'challenge'],
      [{ challenge: 'x'.repeat(101), code: '123456' }, 'challenge'],
    ];
    for (const [body, field] of cases) {
      const res = await client.post('/login/two-factor', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[field], JSON.stringify(body)).toBeDefined();
    }
    // None of them cost a try.
    expect((await challengesOf(user.id))[0]?.failed_attempts).toBe(0);
  });

  it('the settings endpoints', async () => {
    const { client, user, key } = await twoFactorUser();
    const before = await userRow(user.id);
    for (const body of [{}, { password: '' }, { password: 5 }, { password: 'x'.repeat(129) }, { code: '12' }]) {
      const res = await client.request('/api/user/two-factor', { method: 'DELETE', json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.password, JSON.stringify(body)).toBeDefined();
    }
    for (const body of [{}, { code: 'abcdef' }, { password: '' }, { code: 12 }]) {
      const res = await client.post('/api/user/two-factor/recovery-codes', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await client.post('/api/user/two-factor/recovery-codes', { password: 'not my password' })).status).toBe(422);
    expect((await client.post('/api/user/two-factor/recovery-codes', { code: wrongCode(key) })).body.errors.code).toBeDefined();
    expect(await userRow(user.id)).toEqual(before);
    expect((await client.get('/api/user/two-factor')).body.data.attributes.recovery_codes_left).toBe(10);

    const fresh = await registerUser(server.url);
    await setUp(fresh.client);
    for (const body of [{}, { code: '' }, { code: '12345' }, { code: 'abc def' }, { code: 123456 }]) {
      const res = await fresh.client.post('/api/user/two-factor/confirm', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.code).toBeDefined();
    }
    expect((await userRow(fresh.user.id)).two_factor_enabled_at).toBeNull();
  });
});

describe('recovery codes and turning it off', () => {
  it('new recovery codes need the password or a code, and void the old ones', async () => {
    const { client, email, password, key, codes } = await twoFactorUser();
    const byPassword = await client.post('/api/user/two-factor/recovery-codes', { password });
    expect(byPassword.status, byPassword.text).toBe(200);
    const fresh: string[] = byPassword.body.data.recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[0]);
    const byCode = await client.post('/api/user/two-factor/recovery-codes', { code: codeAt(key, 30) });
    expect(byCode.status, byCode.text).toBe(200);
    const newest: string[] = byCode.body.data.recovery_codes;

    const old = await firstStep(email, password);
    expect((await old.client.post('/login/two-factor', { challenge: old.challenge, recovery_code: fresh[0] })).status).toBe(422);
    const ok = await firstStep(email, password);
    expect((await ok.client.post('/login/two-factor', { challenge: ok.challenge, recovery_code: newest[0] })).status).toBe(200);
  });

  it('off needs the password; it clears the key, the codes and every half-done sign-in', async () => {
    const { client, user, email, password } = await twoFactorUser();
    await firstStep(email, password);
    expect(await challengesOf(user.id)).toHaveLength(1);
    const wrong = await client.request('/api/user/two-factor', { method: 'DELETE', json: { password: 'not my password' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password[0]).toMatch(/incorrect/);
    expect((await userRow(user.id)).two_factor_enabled_at).not.toBeNull();

    const off = await client.request('/api/user/two-factor', { method: 'DELETE', json: { password } });
    expect(off.status, off.text).toBe(204);
    expect(await userRow(user.id)).toEqual({ two_factor_enabled_at: null, totp_secret: null, totp_last_step: null });
    expect(await seed.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    expect(await challengesOf(user.id)).toHaveLength(0);
    expect((await client.get('/api/user')).body.data.attributes.two_factor_authentication).toBe(false);
    expect((await new Client(server.url).post('/login', { email, password })).body.data.id).toBe(user.id);
    expect((await client.request('/api/user/two-factor', { method: 'DELETE', json: { password } })).status).toBe(409);
  });

  it('an account without a password (made through a provider) turns it off with a code', async () => {
    const { client, user, key } = await twoFactorUser();
    await seed.db.updateTable('users').set({ password_hash: '' }).where('id', '=', user.id).execute();
    expect((await client.get('/api/user/two-factor')).body.data.attributes.disable_with).toBe('code');
    const withPassword = await client.request('/api/user/two-factor', { method: 'DELETE', json: { password: '' } });
    expect(withPassword.status).toBe(422);
    expect(withPassword.body.errors.code).toBeDefined();
    expect((await client.post('/api/user/two-factor/recovery-codes', { password: 'anything' })).body.errors.password[0]).toMatch(/no password/);
    const off = await client.request('/api/user/two-factor', { method: 'DELETE', json: { code: codeAt(key, 30) } });
    expect(off.status, off.text).toBe(204);
    expect((await userRow(user.id)).two_factor_enabled_at).toBeNull();
  });
});

describe('who may', () => {
  it('signed out: every two-factor settings call is 401', async () => {
    const anon = new Client(server.url);
    expect((await anon.get('/api/user/two-factor')).status).toBe(401);
    expect((await anon.post('/api/user/two-factor/setup', {})).status).toBe(401);
    expect((await anon.post('/api/user/two-factor/confirm', { code: '123456' })).status).toBe(401);
    expect((await anon.post('/api/user/two-factor/recovery-codes', { password: 'x' })).status).toBe(401);
    expect((await anon.request('/api/user/two-factor', { method: 'DELETE', json: { password: 'x' } })).status).toBe(401);
  });

  it('an access token cannot change the second factor, only a browser session', async () => {
    const { client, user, password } = await twoFactorUser();
    const token = (await client.post('/api/user/tokens', { name: 'script' })).body.meta.token as string;
    const bearer = new Client(server.url);
    expect((await bearer.get('/api/user/two-factor', { bearer: token, origin: null })).status).toBe(200);
    const off = await bearer.request('/api/user/two-factor', { method: 'DELETE', json: { password }, bearer: token, origin: null });
    expect(off.status).toBe(403);
    expect(off.body.code).toBe('session_required');
    expect((await bearer.post('/api/user/two-factor/recovery-codes', { password }, { bearer: token, origin: null })).status).toBe(403);
    expect((await userRow(user.id)).two_factor_enabled_at).not.toBeNull();
  });

  it('an admin resets a user’s second factor (audited); a user cannot', async () => {
    const { user, email, password } = await twoFactorUser();
    const other = await registerUser(server.url);
    const refused = await other.client.request(`/api/admin/users/${user.id}/two-factor`, { method: 'DELETE' });
    expect(refused.status).toBe(403);
    expect((await userRow(user.id)).two_factor_enabled_at).not.toBeNull();
    expect((await admin.get(`/api/admin/users/${user.id}`)).body.meta.two_factor_enabled).toBe(true);
    await firstStep(email, password);

    const reset = await admin.request(`/api/admin/users/${user.id}/two-factor`, { method: 'DELETE' });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.meta.two_factor_enabled).toBe(false);
    expect(await userRow(user.id)).toEqual({ two_factor_enabled_at: null, totp_secret: null, totp_last_step: null });
    expect(await challengesOf(user.id)).toHaveLength(0);
    const audit = await seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', user.id).where('action', '=', 'user.two_factor_reset').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target_type: 'user', target_label: email });
    expect((await new Client(server.url).post('/login', { email, password })).body.data.id).toBe(user.id);

    expect((await admin.request(`/api/admin/users/${user.id}/two-factor`, { method: 'DELETE' })).status).toBe(409);
    expect((await admin.request('/api/admin/users/no-such-user/two-factor', { method: 'DELETE' })).status).toBe(404);
  });
});
