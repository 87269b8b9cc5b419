import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PASSWORD } from '../../src/server/auth/identities.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { Client, registerUser, uniqueEmail, sessionCookieIsPersistent } from '../support/client.ts';
import { type FakeIdentity, type FakeOAuth, startFakeOAuth } from '../support/fake-oauth.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { authorize, callback, configureSocialApps, socialSignIn } from '../support/social.ts';

let fake: FakeOAuth;
let server: RunningServer;
beforeAll(async () => {
  fake = await startFakeOAuth();
  server = await startServer({ env: fake.env });
  await configureSocialApps(server, fake, ['google', 'github', 'facebook']);
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

let subjects = 1000;
function person(overrides: Partial<FakeIdentity> = {}): FakeIdentity {
  subjects += 1;
  return { id: String(subjects), email: uniqueEmail('social'), emailVerified: true, name: 'Katherine Johnson', ...overrides };
}

const userRow = (email: string) => withSeed(server, (seed) => seed.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst());
const identities = (userId: string) => withSeed(server, (seed) => seed.db.selectFrom('user_identities').select(['provider', 'subject']).where('user_id', '=', userId).execute());
const verify = (email: string) =>
  withSeed(server, (seed) => seed.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('email', '=', email.toLowerCase()).execute());
const signedInEmail = async (client: Client) => {
  const me = await client.get('/api/user');
  return me.status === 200 ? (me.body.data.attributes.email as string) : null;
};

/** The config object every page carries (SPEC §3). */
async function pageConfig(path = '/sign-in') {
  const page = await new Client(server.url).get(path, { headers: { Accept: 'text/html' } });
  const json = /<script type="application\/json" id="app-config">([\s\S]*?)<\/script>/.exec(page.text)?.[1];
  return { html: page.text, config: JSON.parse(json ?? 'null') as { socialLogin: Record<string, boolean> } };
}

/** A new account through Google: registration is open by default. */
async function socialAccount(identity = person()) {
  fake.signInAs('google', identity);
  const client = new Client(server.url);
  const result = await socialSignIn(client, 'google');
  expect(result.location).toBe('/platform/files');
  return { client, identity };
}

describe('the redirect endpoint', () => {
  it('answers the provider URL with state and PKCE, and keeps them in a short-lived httpOnly cookie', async () => {
    const client = new Client(server.url);
    const res = await client.get('/api/socialite/google/redirect');
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(url.origin + url.pathname).toBe(`${fake.baseUrl('google')}/o/oauth2/v2/auth`);
    expect(url.searchParams.get('client_id')).toBe(fake.clients.google.id);
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.url}/api/socialite/google/callback`);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('social_sign_in='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/socialite/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=600/i);
    // The verifier stays on this side: only its hash travels.
    expect(res.body.url).not.toContain(JSON.parse(Buffer.from(client.cookies.get('social_sign_in')!, 'base64url').toString()).verifier);
  });

  it('uses PKCE with GitHub and the secret-in-body exchange without PKCE with Facebook', async () => {
    const github = new URL((await new Client(server.url).get('/api/socialite/github/redirect')).body.url);
    expect(github.searchParams.get('code_challenge_method')).toBe('S256');
    const facebook = new URL((await new Client(server.url).get('/api/socialite/facebook/redirect')).body.url);
    expect(facebook.searchParams.has('code_challenge')).toBe(false);
    expect(facebook.pathname).toBe('/facebook/v19.0/dialog/oauth');
  });

  it('refuses unknown and switched-off providers (404) and bad input (422, 401 for a link signed out)', async () => {
    const client = new Client(server.url);
    const unknown = await client.get('/api/socialite/myspace/redirect');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/no sign-in provider/i);
    const intent = await client.get('/api/socialite/google/redirect?intent=steal');
    expect(intent.status).toBe(422);
    expect(intent.body.errors.intent[0]).toMatch(/sign-in or link/);
    const link = await client.get('/api/socialite/google/redirect?intent=link');
    expect(link.status).toBe(401);
    expect(client.cookies.has('social_sign_in')).toBe(false);

    await configureSocialApps(server, fake, ['google', 'facebook']);
    try {
      const off = await client.get('/api/socialite/github/redirect');
      expect(off.status).toBe(404);
      expect(off.body.message).toMatch(/GitHub is not available/);
      const { html, config } = await pageConfig();
      expect(html).toContain('data-social-provider="google"');
      expect(html).not.toContain('data-social-provider="github"');
      expect(config.socialLogin).toEqual({ google: true, github: false, facebook: true });
    } finally {
      await configureSocialApps(server, fake, ['google', 'github', 'facebook']);
    }
  });

  it('shows every configured provider on the sign-in page, and on sign-up all but Facebook', async () => {
    const signIn = await pageConfig('/sign-in');
    expect(signIn.config.socialLogin).toEqual({ google: true, github: true, facebook: true });
    for (const p of ['google', 'github', 'facebook']) expect(signIn.html).toContain(`data-social-provider="${p}"`);
    const signUp = await pageConfig('/sign-up');
    expect(signUp.html).toContain('data-social-provider="google"');
    expect(signUp.html).not.toContain('data-social-provider="facebook"');
  });

  it('counts a provider without its client secret as off', async () => {
    await withSeed(server, (seed) => seed.db.updateTable('settings').set({ value: '""' }).where('key', '=', 'social_github_client_secret').execute());
    try {
      expect((await new Client(server.url).get('/api/socialite/github/redirect')).status).toBe(404);
      const { html, config } = await pageConfig();
      expect(html).not.toContain('data-social-provider="github"');
      expect(config.socialLogin.github).toBe(false);
    } finally {
      await configureSocialApps(server, fake, ['google', 'github', 'facebook']);
    }
  });
});

describe('signing in through a provider', () => {
  it('makes a new account while registration is open, verified, without a password, and signs it in again later', async () => {
    const { client, identity } = await socialAccount();
    expect(await signedInEmail(client)).toBe(identity.email);
    const row = (await userRow(identity.email!))!;
    expect(row.email_verified_at).not.toBeNull();
    expect(row.password_hash).toBe(NO_PASSWORD);
    expect(row.name).toBe('Katherine Johnson');
    expect(await identities(row.id)).toEqual([{ provider: 'google', subject: identity.id }]);

    const again = new Client(server.url);
    fake.signInAs('google', identity);
    expect((await socialSignIn(again, 'google')).location).toBe('/platform/files');
    expect(await signedInEmail(again)).toBe(identity.email);
    const count = await withSeed(server, (seed) => seed.db.selectFrom('users').select('id').where('email', '=', identity.email!.toLowerCase()).execute());
    expect(count).toHaveLength(1);
  });

  it('refuses social sign-in and sign-up while an OpenID Connect provider is the only way in', async () => {
    const { identity } = await socialAccount();
    const now = new Date().toISOString();
    await withSeed(server, (seed) =>
      seed.db
        .insertInto('oidc_issuers')
        .values({ id: 'only-corp', label: 'Corp ID', issuer_url: 'https://id.example.com', client_id: 'x', client_secret: '', enabled: 1, sign_in_only: 1, created_at: now, updated_at: now })
        .execute(),
    );
    try {
      fake.signInAs('google', identity);
      const linked = new Client(server.url);
      expect(await socialSignIn(linked, 'google')).toEqual({ status: 303, location: '/sign-in', flash: 'Sign in with Corp ID: other ways to sign in are switched off on this instance.' });
      expect(await signedInEmail(linked)).toBeNull();

      const newcomer = person();
      fake.signInAs('google', newcomer);
      const result = await socialSignIn(new Client(server.url), 'google');
      expect(result.flash).toBe('Sign up with Corp ID: other ways to make an account are switched off on this instance.');
      expect(await userRow(newcomer.email!)).toBeUndefined();
    } finally {
      await withSeed(server, (seed) => seed.db.deleteFrom('oidc_issuers').where('id', '=', 'only-corp').execute());
    }
  });

  it('refuses a new account while registration is closed', async () => {
    await withSeed(server, (seed) => putSetting(seed, 'registration_open', false));
    try {
      const identity = person();
      fake.signInAs('google', identity);
      const client = new Client(server.url);
      const result = await socialSignIn(client, 'google');
      expect(result).toEqual({ status: 303, location: '/sign-in', flash: 'Registration is closed on this instance.' });
      expect(await userRow(identity.email!)).toBeUndefined();
      expect(await signedInEmail(client)).toBeNull();
    } finally {
      await withSeed(server, (seed) => putSetting(seed, 'registration_open', true));
    }
  });

  it('links to an existing verified account when the provider verified the same email (GitHub)', async () => {
    const { email, user } = await registerUser(server.url);
    await verify(email);
    fake.signInAs('github', person({ email: email.toUpperCase() }));
    const client = new Client(server.url);
    expect((await socialSignIn(client, 'github')).location).toBe('/platform/files');
    expect(await signedInEmail(client)).toBe(email);
    expect((await identities(user.id)).map((i) => i.provider)).toEqual(['github']);
  });

  it('refuses an email the provider has not verified, and an account whose own email is unverified', async () => {
    const { email, user } = await registerUser(server.url);
    await verify(email);
    fake.signInAs('google', person({ email, emailVerified: false }));
    const unverified = await socialSignIn(new Client(server.url), 'google');
    expect(unverified.location).toBe('/sign-in');
    expect(unverified.flash).toMatch(/exists already.*link this provider from your settings/);

    const other = await registerUser(server.url);
    fake.signInAs('github', person({ email: other.email }));
    const accountUnverified = await socialSignIn(new Client(server.url), 'github');
    expect(accountUnverified.location).toBe('/sign-in');
    expect(accountUnverified.flash).toMatch(/exists already/);

    fake.signInAs('google', person({ emailVerified: false }));
    expect((await socialSignIn(new Client(server.url), 'google')).flash).toMatch(/not verified this email/);
    expect(await identities(user.id)).toEqual([]);
    expect(await identities(other.user.id)).toEqual([]);
  });

  it('never counts a Facebook email as verified: an unlinked Facebook account is refused, a linked one signs in', async () => {
    const { client, email, user } = await registerUser(server.url);
    await verify(email);
    const facebookPerson = person({ email });
    fake.signInAs('facebook', facebookPerson);
    const refused = await socialSignIn(new Client(server.url), 'facebook');
    expect(refused.location).toBe('/sign-in');
    expect(refused.flash).toMatch(/exists already/);

    expect((await socialSignIn(client, 'facebook', '?intent=link')).location).toBe('/user/settings/password?social=linked&provider=facebook');
    const browser = new Client(server.url);
    expect((await socialSignIn(browser, 'facebook')).location).toBe('/platform/files');
    expect(await signedInEmail(browser)).toBe(email);
    expect(await identities(user.id)).toEqual([{ provider: 'facebook', subject: facebookPerson.id }]);
  });

  it('answers an account with two-factor authentication with the second step, not a session', async () => {
    const identity = person();
    await socialAccount(identity);
    await withSeed(server, (seed) => seed.db.updateTable('users').set({ two_factor_enabled_at: new Date().toISOString() }).where('email', '=', identity.email!.toLowerCase()).execute());
    fake.signInAs('google', identity);
    const client = new Client(server.url);
    const start = await client.get('/api/socialite/google/redirect');
    const res = await client.get(await authorize(start.body.url), { xrw: false, origin: null, headers: { Accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sign-in/two-factor');
    const cookies = res.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('sign_in_challenge='))).toMatch(/Path=\/login/);
    expect(cookies.some((c) => c.startsWith('session='))).toBe(false);
    expect(await signedInEmail(client)).toBeNull();
  });

  it('keeps the session across browser restarts when the form asked to ("Keep me signed in"), and not otherwise', async () => {
    for (const [query, persistent] of [['?remember=1', true], ['', false], ['?remember=0', false]] as const) {
      fake.signInAs('google', person());
      const client = new Client(server.url);
      const start = await client.get(`/api/socialite/google/redirect${query}`);
      expect(start.status, start.text).toBe(200);
      const res = await client.get(await authorize(start.body.url), { xrw: false, origin: null, headers: { Accept: 'text/html' } });
      expect(res.status).toBe(303);
      expect(sessionCookieIsPersistent(res), query).toBe(persistent);
    }
    const bad = await new Client(server.url).get('/api/socialite/google/redirect?remember=yes');
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Remember is 1 or 0.');
  });

  it('goes back to the page the sign-in started from, and never off-site', async () => {
    fake.signInAs('google', person());
    expect((await socialSignIn(new Client(server.url), 'google', '?redirect=%2Fplatform%2Frecent')).location).toBe('/platform/recent');
    fake.signInAs('google', person());
    expect((await socialSignIn(new Client(server.url), 'google', '?redirect=https%3A%2F%2Fevil.test%2F')).location).toBe('/platform/files');
  });
});

describe('a provider whose token endpoint does not answer', () => {
  it('is given up on after OAUTH_TIMEOUT_MS: back on /sign-in with a message, not signed in', async () => {
    const own = await startServer({ env: { ...fake.env, OAUTH_TIMEOUT_MS: '300' } });
    try {
      await configureSocialApps(own, fake, ['google']);
      fake.signInAs('google', person());
      fake.delayTokenNext('google', 3000);
      const client = new Client(own.url);
      const start = await client.get('/api/socialite/google/redirect');
      expect(start.status, start.text).toBe(200);
      const result = await callback(client, await authorize(start.body.url));
      expect(result).toEqual({ status: 303, location: '/sign-in', flash: expect.stringMatching(/Google did not confirm this sign-in/) });
      expect(await signedInEmail(client)).toBeNull();
      expect(own.logs.some((line) => line.includes('did not answer within 300 ms'))).toBe(true);
    } finally {
      await own.stop();
    }
  });
});

describe('callback refusals land on /sign-in with a message', () => {
  it('refuses a wrong, a missing, and a state from another browser', async () => {
    fake.signInAs('google', person());
    const client = new Client(server.url);
    const start = await client.get('/api/socialite/google/redirect');
    const back = await authorize(start.body.url);
    const wrong = await callback(client, back.replace(/state=[^&]+/, 'state=forged-state-value'));
    expect(wrong).toEqual({ status: 303, location: '/sign-in', flash: expect.stringMatching(/expired or was not started here/) });
    expect(await signedInEmail(client)).toBeNull();

    const again = await client.get('/api/socialite/google/redirect');
    const missing = await callback(client, (await authorize(again.body.url)).replace(/&?state=[^&]+/, ''));
    expect(missing.flash).toMatch(/expired or was not started here/);

    const start3 = await client.get('/api/socialite/google/redirect');
    const stranger = new Client(server.url);
    expect((await callback(stranger, await authorize(start3.body.url))).flash).toMatch(/expired or was not started here/);
    expect(await signedInEmail(stranger)).toBeNull();
  });

  it('spends the state on the first callback: the same answer twice is refused', async () => {
    fake.signInAs('google', person());
    const client = new Client(server.url);
    const start = await client.get('/api/socialite/google/redirect');
    const back = await authorize(start.body.url);
    expect((await callback(client, back)).location).toBe('/platform/files');
    expect(client.cookies.has('social_sign_in')).toBe(false);
    await client.post('/logout', {});
    const replay = await callback(client, back);
    expect(replay.flash).toMatch(/expired or was not started here/);
    expect(await signedInEmail(client)).toBeNull();
  });

  it('refuses a code used before, even with a fresh state (the provider refuses it)', async () => {
    fake.signInAs('google', person());
    const first = new Client(server.url);
    const start = await first.get('/api/socialite/google/redirect');
    const back = await authorize(start.body.url);
    expect((await callback(first, back)).location).toBe('/platform/files');

    const second = new Client(server.url);
    const fresh = new URL((await second.get('/api/socialite/google/redirect')).body.url).searchParams.get('state')!;
    const reused = await callback(second, back.replace(/state=[^&]+/, `state=${fresh}`));
    expect(reused.location).toBe('/sign-in');
    expect(reused.flash).toMatch(/Google did not confirm this sign-in/);
    expect(fake.refusals).toContain('code used twice');
    expect(await signedInEmail(second)).toBeNull();
  });

  it('refuses a cancelled sign-in, an unknown provider and a callback without parameters', async () => {
    const client = new Client(server.url);
    fake.denyNext('google');
    const start = await client.get('/api/socialite/google/redirect');
    expect((await callback(client, await authorize(start.body.url))).flash).toBe('Signing in with Google was cancelled.');
    expect(await callback(client, '/api/socialite/myspace/callback?code=x&state=y')).toEqual({ status: 303, location: '/sign-in', flash: 'There is no sign-in provider by that name.' });
    expect((await callback(client, '/api/socialite/github/callback')).flash).toMatch(/expired or was not started here/);
    expect((await callback(client, `/api/socialite/github/callback?code=${'x'.repeat(3000)}&state=y`)).flash).toMatch(/could not be read/);
  });

  it('refuses when the provider fails to answer the profile, or shares no email', async () => {
    const identity = person();
    fake.signInAs('google', identity);
    fake.failProfileNext('google');
    const outage = await socialSignIn(new Client(server.url), 'google');
    expect(outage).toEqual({ status: 303, location: '/sign-in', flash: 'Google did not share your profile. Try again.' });
    expect(await userRow(identity.email!)).toBeUndefined();

    fake.signInAs('github', person({ email: null }));
    expect((await socialSignIn(new Client(server.url), 'github')).flash).toMatch(/did not share an email address/);
  });

  it('sends the PKCE verifier the challenge was made from: another one is refused by the provider', async () => {
    fake.signInAs('google', person());
    const client = new Client(server.url);
    const start = await client.get('/api/socialite/google/redirect');
    const back = await authorize(start.body.url);
    const attempt = JSON.parse(Buffer.from(client.cookies.get('social_sign_in')!, 'base64url').toString());
    client.cookies.set('social_sign_in', Buffer.from(JSON.stringify({ ...attempt, verifier: 'x'.repeat(43) })).toString('base64url'));
    expect((await callback(client, back)).flash).toMatch(/Google did not confirm this sign-in/);
    expect(fake.refusals.at(-1)).toBe('PKCE verifier');
    expect(await signedInEmail(client)).toBeNull();
  });

  it('refuses a state started for another provider', async () => {
    const client = new Client(server.url);
    const start = await client.get('/api/socialite/google/redirect');
    const state = new URL(start.body.url).searchParams.get('state')!;
    expect((await callback(client, `/api/socialite/github/callback?code=abc&state=${state}`)).flash).toMatch(/expired or was not started here/);
  });
});

describe('linked accounts in settings', () => {
  it('links and unlinks a provider for a signed-in user, and lists them with the providers on offer', async () => {
    const { client, user } = await registerUser(server.url);
    const githubPerson = person({ email: uniqueEmail('different') });
    fake.signInAs('github', githubPerson);
    expect((await socialSignIn(client, 'github', '?intent=link')).location).toBe('/user/settings/password?social=linked&provider=github');
    const list = await client.get('/api/user/identities');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([{ provider: 'github', email: githubPerson.email, linked_at: expect.any(String), last_used_at: expect.any(String) }]);
    expect(list.body.meta).toEqual({ available: ['google', 'github', 'facebook'], has_password: true });

    const browser = new Client(server.url);
    expect((await socialSignIn(browser, 'github')).location).toBe('/platform/files');
    expect(await signedInEmail(browser)).toBe((await signedInEmail(client))!);

    const removed = await client.request('/api/user/identities/github', { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(await identities(user.id)).toEqual([]);
    // Unlinked, the GitHub account is a stranger again: its own (verified, unknown) email makes a new account.
    const after = new Client(server.url);
    expect((await socialSignIn(after, 'github')).location).toBe('/platform/files');
    expect(await signedInEmail(after)).toBe(githubPerson.email);
  });

  it('refuses to link an account at the provider that another user has', async () => {
    const owner = person();
    await socialAccount(owner);
    const { client, user } = await registerUser(server.url);
    fake.signInAs('google', owner);
    expect((await socialSignIn(client, 'google', '?intent=link')).location).toBe('/user/settings/password?social=linked_elsewhere&provider=google');
    expect(await identities(user.id)).toEqual([]);

    fake.signInAs('google', person());
    await socialSignIn(client, 'google', '?intent=link');
    fake.signInAs('google', person());
    expect((await socialSignIn(client, 'google', '?intent=link')).location).toBe('/user/settings/password?social=provider_taken&provider=google');
  });

  it('links only for the session that started it', async () => {
    const { client, user } = await registerUser(server.url);
    fake.signInAs('github', person());
    const start = await client.get('/api/socialite/github/redirect?intent=link');
    const back = await authorize(start.body.url);
    await client.post('/logout', {});
    expect(await signedInEmail(client)).toBeNull();
    expect((await callback(client, back)).location).toBe('/user/settings/password?social=session&provider=github');
    expect(await identities(user.id)).toEqual([]);
  });

  it('never removes the last way in: an account made through a provider keeps its only link', async () => {
    const { client, identity } = await socialAccount();
    const row = (await userRow(identity.email!))!;
    const last = await client.request('/api/user/identities/google', { method: 'DELETE' });
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ code: 'last_way_in', message: expect.stringMatching(/only way to sign in/) });
    expect(await identities(row.id)).toHaveLength(1);
    expect((await client.get('/api/user/identities')).body.meta.has_password).toBe(false);

    fake.signInAs('github', person({ email: identity.email }));
    expect((await socialSignIn(client, 'github', '?intent=link')).location).toContain('social=linked');
    expect((await client.request('/api/user/identities/google', { method: 'DELETE' })).status).toBe(204);
    expect((await client.request('/api/user/identities/github', { method: 'DELETE' })).status).toBe(409);
    expect((await identities(row.id)).map((i) => i.provider)).toEqual(['github']);

    // A passkey is a way in too: with one, the last link may go.
    await withSeed(server, (seed) =>
      seed.db
        .insertInto('passkeys')
        .values({ id: `pk-${row.id}`, user_id: row.id, name: 'Laptop', public_key: 'x', counter: 0, transports: '[]', device_type: 'multiDevice', backed_up: 1, created_at: new Date().toISOString() })
        .execute(),
    );
    expect((await client.request('/api/user/identities/github', { method: 'DELETE' })).status).toBe(204);
    expect(await identities(row.id)).toEqual([]);
  });

  it('answers bad input with 404, an access token with 403, and a signed-out caller with 401', async () => {
    const { client } = await registerUser(server.url);
    const unknown = await client.request('/api/user/identities/myspace', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/no sign-in provider/);
    const notLinked = await client.request('/api/user/identities/google', { method: 'DELETE' });
    expect(notLinked.status).toBe(404);
    expect(notLinked.body.message).toMatch(/No account at this provider is linked/);

    const token = (await client.post('/api/user/tokens', { name: 'cli' })).body.meta.token as string;
    const bearer = new Client(server.url);
    const byToken = await bearer.request('/api/user/identities/google', { method: 'DELETE', bearer: token });
    expect(byToken.status).toBe(403);
    expect(byToken.body.code).toBe('session_required');
    expect((await bearer.get('/api/socialite/google/redirect?intent=link', { bearer: token })).status).toBe(403);

    const stranger = new Client(server.url);
    expect((await stranger.get('/api/user/identities')).status).toBe(401);
    expect((await stranger.request('/api/user/identities/google', { method: 'DELETE' })).status).toBe(401);
  });
});
