import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { SoftAuthenticator } from '../support/webauthn-authenticator.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

type Signed = Awaited<ReturnType<typeof registerUser>>;

/** Registers a passkey on `authenticator` for the signed-in account; returns its credential id. */
async function addPasskey(client: Client, authenticator: SoftAuthenticator, name = 'Laptop'): Promise<string> {
  const options = await client.post('/api/user/passkeys/registration-options', {});
  expect(options.status).toBe(200);
  const created = await client.post('/api/user/passkeys', { name, credential: authenticator.register(options.body.data) });
  expect(created.status, created.text).toBe(201);
  return created.body.data.id;
}

/** A signed-out browser's passkey sign-in: options, the authenticator's answer, the answer posted. */
async function signInWithPasskey(authenticator: SoftAuthenticator, bend: Parameters<SoftAuthenticator['assert']>[2] = {}, credentialId?: string) {
  const client = new Client(server.url);
  const options = await client.post('/login/passkey/options', {});
  expect(options.status).toBe(200);
  const res = await client.post('/login/passkey', { credential: authenticator.assert(options.body.data, credentialId, bend), redirect: '/platform/files' });
  return { client, res };
}

const passkeysOf = async (client: Client) => (await client.get('/api/user/passkeys')).body.data as Array<{ id: string; name: string; created_at: string; last_used_at: string | null }>;
const setColumn = (sql: (seed: Parameters<Parameters<typeof withSeed>[1]>[0]) => Promise<unknown>) => withSeed(server, async (seed) => void (await sql(seed)));
const turnOnTwoFactor = (userId: string) => setColumn((seed) => seed.db.updateTable('users').set({ two_factor_enabled_at: new Date().toISOString() }).where('id', '=', userId).execute());

describe('registering and signing in with a passkey alone', () => {
  it('registers a discoverable, user-verifying passkey and signs in with it, answering like /login', async () => {
    const { client, email, password } = await registerUser(server.url);
    const options = await client.post('/api/user/passkeys/registration-options', {});
    expect(options.body.data).toMatchObject({ rp: { id: '127.0.0.1' }, authenticatorSelection: { residentKey: 'required', userVerification: 'required' }, attestation: 'none' });
    // Algorithms every app node verifies, whatever its Node runtime: EdDSA, ES256, RS256.
    expect(options.body.data.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-8, -7, -257]);
    const authenticator = new SoftAuthenticator(server.url);
    const created = await client.post('/api/user/passkeys', { name: '  My laptop  ', credential: authenticator.register(options.body.data) });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'My laptop', last_used_at: null, created_at: expect.any(String) });
    expect(await passkeysOf(client)).toEqual([expect.objectContaining({ id: created.body.data.id, name: 'My laptop' })]);
    // The same authenticator is not offered twice.
    const again = await client.post('/api/user/passkeys/registration-options', {});
    expect(again.body.data.excludeCredentials).toEqual([expect.objectContaining({ id: created.body.data.id })]);

    const signInOptions = await new Client(server.url).post('/login/passkey/options', {});
    expect(signInOptions.body.data.userVerification).toBe('required');
    expect(signInOptions.body.data.allowCredentials ?? []).toEqual([]);

    const { client: browser, res } = await signInWithPasskey(authenticator);
    expect(res.status, res.text).toBe(200);
    const byPassword = await new Client(server.url).post('/login', { email, password, redirect: '/platform/files' });
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(byPassword.body).sort());
    expect(res.body.data).toEqual(byPassword.body.data);
    expect(res.body.meta).toEqual({ redirect: '/platform/files' });
    expect([...browser.cookies.keys()].sort()).toEqual(['device', 'session']);
    expect((await browser.get('/api/user')).body.data.attributes.email).toBe(email);
    expect((await passkeysOf(client))[0]!.last_used_at).toEqual(expect.any(String));
  });

  it('signs in an account with two-factor authentication at once: the passkey is both factors', async () => {
    const { client, user } = await registerUser(server.url);
    const authenticator = new SoftAuthenticator(server.url);
    await addPasskey(client, authenticator);
    await turnOnTwoFactor(user.id);
    const { res } = await signInWithPasskey(authenticator);
    expect(res.status).toBe(200);
    expect(res.body.meta.second_step).toBeUndefined();
  });

  it('accepts a passkey that keeps no counter (0 every time), again and again', async () => {
    const { client } = await registerUser(server.url);
    const synced = new SoftAuthenticator(server.url, { counting: false });
    await addPasskey(client, synced);
    expect((await signInWithPasskey(synced)).res.status).toBe(200);
    expect((await signInWithPasskey(synced)).res.status).toBe(200);
  });
});

describe('managing passkeys', () => {
  it('renames and removes a passkey; names are trimmed and need not be unique', async () => {
    const { client } = await registerUser(server.url);
    const authenticator = new SoftAuthenticator(server.url);
    const first = await addPasskey(client, authenticator, 'Phone');
    const second = await addPasskey(client, authenticator, 'Phone');
    const renamed = await client.request(`/api/user/passkeys/${first}`, { method: 'PATCH', json: { name: ' Work key ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: first, name: 'Work key' });
    expect((await client.request(`/api/user/passkeys/${second}`, { method: 'DELETE' })).status).toBe(204);
    expect((await passkeysOf(client)).map((p) => p.name)).toEqual(['Work key']);
    // The removed passkey signs in no more.
    expect((await signInWithPasskey(authenticator, {}, second)).res.status).toBe(422);
    expect((await client.request('/api/user/passkeys/nope', { method: 'PATCH', json: { name: 'x' } })).status).toBe(404);
    expect((await client.request('/api/user/passkeys/nope', { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses to remove the last way in of an account without a password or a linked provider', async () => {
    const { client, user } = await registerUser(server.url);
    const authenticator = new SoftAuthenticator(server.url);
    const first = await addPasskey(client, authenticator, 'One');
    const second = await addPasskey(client, authenticator, 'Two');
    await setColumn((seed) => seed.db.updateTable('users').set({ password_hash: '' }).where('id', '=', user.id).execute());
    expect((await client.request(`/api/user/passkeys/${first}`, { method: 'DELETE' })).status).toBe(204);
    const refused = await client.request(`/api/user/passkeys/${second}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'last_sign_in_method', message: expect.stringContaining('last way to sign in') });
    expect((await passkeysOf(client)).map((p) => p.id)).toEqual([second]);
    // A linked provider is another way in.
    await setColumn((seed) =>
      seed.db.insertInto('user_identities').values({ id: crypto.randomUUID(), user_id: user.id, provider: 'github', subject: `gh-${user.id}`, email: null, created_at: new Date().toISOString(), last_used_at: null }).execute(),
    );
    expect((await client.request(`/api/user/passkeys/${second}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('keeps one passkey when the last two are removed at once', async () => {
    const { client, user } = await registerUser(server.url);
    const authenticator = new SoftAuthenticator(server.url);
    const ids = [await addPasskey(client, authenticator, 'A'), await addPasskey(client, authenticator, 'B')];
    await setColumn((seed) => seed.db.updateTable('users').set({ password_hash: '' }).where('id', '=', user.id).execute());
    const results = await Promise.all(ids.map((id) => client.request(`/api/user/passkeys/${id}`, { method: 'DELETE' })));
    expect(results.map((r) => r.status).sort()).toEqual([204, 409]);
    expect(await passkeysOf(client)).toHaveLength(1);
  });

  it('refuses a credential another account registered already', async () => {
    const owner = await registerUser(server.url);
    const authenticator = new SoftAuthenticator(server.url);
    await addPasskey(owner.client, authenticator);
    const other = await registerUser(server.url);
    // Another account registers a credential; its attestation is then replayed to the owner's options.
    const options = (await other.client.post('/api/user/passkeys/registration-options', {})).body.data;
    const credential = authenticator.register(options);
    const first = await other.client.post('/api/user/passkeys', { name: 'Copy', credential });
    expect(first.status).toBe(201);
    const again = (await owner.client.post('/api/user/passkeys/registration-options', {})).body.data;
    const replay = { ...credential, response: { ...credential.response, clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: again.challenge, origin: authenticator.origin, crossOrigin: false })).toString('base64url') } };
    // A changed clientDataJSON is fine for "none" attestation: nothing signs it at registration.
    const taken = await owner.client.post('/api/user/passkeys', { name: 'Copy', credential: replay });
    expect(taken.status).toBe(409);
    expect(await passkeysOf(owner.client)).toHaveLength(1);
  });

  it('lets an account with a password remove its last passkey', async () => {
    const { client } = await registerUser(server.url);
    const id = await addPasskey(client, new SoftAuthenticator(server.url));
    expect((await client.request(`/api/user/passkeys/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await passkeysOf(client)).toEqual([]);
  });

  it('refuses the signed-out, another user, and an access token for writes', async () => {
    const owner = await registerUser(server.url);
    const other = await registerUser(server.url);
    const id = await addPasskey(owner.client, new SoftAuthenticator(server.url), 'Mine');
    const anonymous = new Client(server.url);
    expect((await anonymous.get('/api/user/passkeys')).status).toBe(401);
    expect((await anonymous.post('/api/user/passkeys/registration-options', {})).status).toBe(401);
    expect((await anonymous.post('/api/user/passkeys', { name: 'x', credential: {} })).status).toBe(401);
    expect((await anonymous.request(`/api/user/passkeys/${id}`, { method: 'PATCH', json: { name: 'x' } })).status).toBe(401);
    expect((await anonymous.request(`/api/user/passkeys/${id}`, { method: 'DELETE' })).status).toBe(401);

    expect(await passkeysOf(other.client)).toEqual([]);
    expect((await other.client.request(`/api/user/passkeys/${id}`, { method: 'PATCH', json: { name: 'Stolen' } })).status).toBe(404);
    expect((await other.client.request(`/api/user/passkeys/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await passkeysOf(owner.client)).map((p) => p.name)).toEqual(['Mine']);

    const token = (await owner.client.post('/api/user/tokens', { name: 'script' })).body.meta.token as string;
    const script = new Client(server.url);
    expect((await script.get('/api/user/passkeys', { bearer: token, origin: null, xrw: false })).status).toBe(200);
    const minted = await script.post('/api/user/passkeys/registration-options', {}, { bearer: token, origin: null, xrw: false });
    expect(minted.status).toBe(403);
    expect(minted.body.code).toBe('session_required');
    expect((await script.request(`/api/user/passkeys/${id}`, { method: 'DELETE', bearer: token, origin: null, xrw: false })).status).toBe(403);
  });
});

describe('answers that must fail', () => {
  let owner: Signed;
  let authenticator: SoftAuthenticator;
  beforeAll(async () => {
    owner = await registerUser(server.url);
    authenticator = new SoftAuthenticator(server.url);
    await addPasskey(owner.client, authenticator);
  });

  const refusedWithoutSession = (res: { status: number; body: any }, client: Client) => {
    expect(res.status).toBe(422);
    expect(res.body.errors.credential).toHaveLength(1);
    expect(client.cookies.has('session')).toBe(false);
  };

  it('refuses a wrong origin and a wrong RP id, at sign-in and at registration', async () => {
    for (const bend of [{ origin: 'http://evil.test' }, { rpId: 'evil.test' }, { origin: server.url.replace('127.0.0.1', 'localhost') }]) {
      const { client, res } = await signInWithPasskey(authenticator, bend);
      refusedWithoutSession(res, client);
      const options = await owner.client.post('/api/user/passkeys/registration-options', {});
      const created = await owner.client.post('/api/user/passkeys', { name: 'Evil', credential: new SoftAuthenticator(server.url).register(options.body.data, bend) });
      expect(created.status).toBe(422);
    }
    expect((await passkeysOf(owner.client)).map((p) => p.name)).toEqual(['Laptop']);
  });

  it('refuses an answer without user verification for a sign-in alone, and a registration without it', async () => {
    const { client, res } = await signInWithPasskey(authenticator, { userVerified: false });
    refusedWithoutSession(res, client);
    const options = await owner.client.post('/api/user/passkeys/registration-options', {});
    expect((await owner.client.post('/api/user/passkeys', { name: 'No UV', credential: new SoftAuthenticator(server.url).register(options.body.data, { userVerified: false }) })).status).toBe(422);
  });

  it('refuses a counter that did not grow (a cloned authenticator)', async () => {
    expect((await signInWithPasskey(authenticator)).res.status).toBe(200);
    const used = authenticator.credentials[0]!.counter;
    const replayed = await signInWithPasskey(authenticator, { counter: used });
    refusedWithoutSession(replayed.res, replayed.client);
    const lower = await signInWithPasskey(authenticator, { counter: used - 1 });
    refusedWithoutSession(lower.res, lower.client);
    expect((await signInWithPasskey(authenticator, { counter: used + 5 })).res.status).toBe(200);
  });

  it('refuses a reused, an expired, a made-up and another purpose’s challenge', async () => {
    const client = new Client(server.url);
    const options = (await client.post('/login/passkey/options', {})).body.data;
    const answer = authenticator.assert(options);
    expect((await client.post('/login/passkey', { credential: answer })).status).toBe(200);
    const reused = new Client(server.url);
    refusedWithoutSession(await reused.post('/login/passkey', { credential: answer }), reused);

    const late = new Client(server.url);
    const lateOptions = (await late.post('/login/passkey/options', {})).body.data;
    await setColumn((seed) => seed.db.updateTable('webauthn_challenges').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('challenge', '=', lateOptions.challenge).execute());
    refusedWithoutSession(await late.post('/login/passkey', { credential: authenticator.assert(lateOptions) }), late);

    const madeUp = new Client(server.url);
    refusedWithoutSession(await madeUp.post('/login/passkey', { credential: authenticator.assert({ challenge: 'bWFkZS11cA' }) }), madeUp);

    // A registration's challenge does not sign anyone in.
    const registration = (await owner.client.post('/api/user/passkeys/registration-options', {})).body.data;
    const other = new Client(server.url);
    refusedWithoutSession(await other.post('/login/passkey', { credential: authenticator.assert({ challenge: registration.challenge }) }), other);
  });

  it('refuses a credential this instance does not know, and a user handle that is not its owner’s', async () => {
    const stranger = new SoftAuthenticator(server.url);
    stranger.register({ challenge: 'x', user: { id: 'c29tZW9uZQ', name: 'x', displayName: 'x' }, rp: { name: 'x' }, pubKeyCredParams: [] });
    const unknown = await signInWithPasskey(stranger);
    refusedWithoutSession(unknown.res, unknown.client);

    const other = await registerUser(server.url);
    const otherKey = new SoftAuthenticator(server.url);
    await addPasskey(other.client, otherKey);
    otherKey.credentials[0]!.userHandle = authenticator.credentials[0]!.userHandle;
    const swapped = await signInWithPasskey(otherKey);
    refusedWithoutSession(swapped.res, swapped.client);
  });

  it('answers bad input with 422 naming the field, changing nothing', async () => {
    const options = (await owner.client.post('/api/user/passkeys/registration-options', {})).body.data;
    const good = new SoftAuthenticator(server.url).register(options);
    const cases: Array<[unknown, string]> = [
      [{ credential: good }, 'name'],
      [{ name: '   ', credential: good }, 'name'],
      [{ name: 'x'.repeat(65), credential: good }, 'name'],
      [{ name: 'bad\u202ename', credential: good }, 'name'],
      [{ name: 'Key' }, 'credential'],
      [{ name: 'Key', credential: 'abc' }, 'credential'],
      [{ name: 'Key', credential: { ...good, id: 'not base64url!' } }, 'credential.id'],
      [{ name: 'Key', credential: { ...good, type: 'password' } }, 'credential.type'],
      [{ name: 'Key', credential: { ...good, response: { clientDataJSON: good.response.clientDataJSON } } }, 'credential.response.attestationObject'],
      [{ name: 'Key', credential: { ...good, response: { ...good.response, transports: 'usb' } } }, 'credential.response.transports'],
    ];
    for (const [body, field] of cases) {
      const res = await owner.client.post('/api/user/passkeys', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(res.body.errors), JSON.stringify(res.body)).toContain(field);
      expect(res.body.message).toEqual(expect.any(String));
    }
    // Nothing was stored, and the challenge is still there for the good answer.
    expect((await owner.client.post('/api/user/passkeys', { name: 'Good', credential: good })).status).toBe(201);

    const id = (await passkeysOf(owner.client))[0]!.id;
    for (const name of ['', 'x'.repeat(65), 42]) {
      const res = await owner.client.request(`/api/user/passkeys/${id}`, { method: 'PATCH', json: { name } });
      expect(res.status).toBe(422);
      expect(res.body.errors.name).toHaveLength(1);
    }
    const anonymous = new Client(server.url);
    const signIn = (await anonymous.post('/login/passkey/options', {})).body.data;
    const answer = authenticator.assert(signIn);
    for (const [body, field] of [
      [{}, 'credential'],
      [{ credential: { ...answer, response: { ...answer.response, signature: '***' } } }, 'credential.response.signature'],
      [{ credential: answer, remember: 'yes please' }, 'remember'],
    ] as Array<[unknown, string]>) {
      const res = await anonymous.post('/login/passkey', body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    expect((await anonymous.post('/login/passkey', { credential: answer, remember: true })).status).toBe(200);
  });
});

describe('a passkey as the second factor', () => {
  it('offers the passkey after the password, with the account’s own credentials only, and signs in', async () => {
    const { client, user, email, password } = await registerUser(server.url);
    const authenticator = new SoftAuthenticator(server.url);
    const id = await addPasskey(client, authenticator);
    await turnOnTwoFactor(user.id);
    const browser = new Client(server.url);
    const first = await browser.post('/login', { email, password });
    expect(first.body.meta.second_step.factors).toEqual(expect.arrayContaining(['totp', 'recovery_code', 'passkey']));
    const challenge = first.body.meta.second_step.challenge;
    const options = await browser.post('/login/two-factor/passkey/options', { challenge });
    expect(options.status).toBe(200);
    expect(options.body.data.allowCredentials.map((c: { id: string }) => c.id)).toEqual([id]);
    // The second step cannot be skipped: no session before the passkey answered.
    expect((await browser.get('/api/user')).status).toBe(401);
    const res = await browser.post('/login/two-factor/passkey', { challenge, credential: authenticator.assert(options.body.data), redirect: '/platform/files' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.email).toBe(email);
    expect(res.body.meta).toEqual({ redirect: '/platform/files' });
    expect((await browser.get('/api/user')).status).toBe(200);
    // The challenge is used up.
    expect((await browser.post('/login/two-factor/passkey/options', { challenge })).status).toBe(422);
  });

  it('reads the challenge from the sign-in form’s cookie', async () => {
    const { client, user, email, password } = await registerUser(server.url);
    const authenticator = new SoftAuthenticator(server.url);
    await addPasskey(client, authenticator);
    await turnOnTwoFactor(user.id);
    const browser = new Client(server.url);
    const form = await browser.request('/login', { form: { email, password }, headers: { Accept: 'text/html' }, xrw: false });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/sign-in/two-factor');
    expect(browser.cookies.has('sign_in_challenge')).toBe(true);
    // The page asks which factors the challenge takes, so it offers the passkey; asking counts no try.
    for (let i = 0; i < 12; i++) expect((await browser.get('/login/two-factor')).body.data.factors).toEqual(['totp', 'recovery_code', 'passkey']);
    const options = await browser.post('/login/two-factor/passkey/options', {});
    expect(options.status).toBe(200);
    const res = await browser.post('/login/two-factor/passkey', { credential: authenticator.assert(options.body.data) });
    expect(res.status).toBe(200);
    expect(browser.cookies.has('sign_in_challenge')).toBe(false);
    expect(browser.cookies.has('session')).toBe(true);
  });

  it('offers no passkey to the second step of an account without one, and says when the challenge is gone', async () => {
    const { user, email, password } = await registerUser(server.url);
    await turnOnTwoFactor(user.id);
    const browser = new Client(server.url);
    await browser.request('/login', { form: { email, password }, headers: { Accept: 'text/html' }, xrw: false });
    expect((await browser.get('/login/two-factor')).body.data.factors).toEqual(['totp', 'recovery_code']);
    const stranger = await new Client(server.url).get('/login/two-factor');
    expect(stranger.status).toBe(422);
    expect(stranger.body.message).toBe('This sign-in has expired. Sign in again.');
  });

  it('refuses another user’s credential, a bad answer, and a skipped first step; too many failures end the sign-in', async () => {
    const victim = await registerUser(server.url);
    const victimKey = new SoftAuthenticator(server.url);
    await addPasskey(victim.client, victimKey);
    await turnOnTwoFactor(victim.user.id);
    const attacker = await registerUser(server.url);
    const attackerKey = new SoftAuthenticator(server.url);
    await addPasskey(attacker.client, attackerKey);

    const browser = new Client(server.url);
    const challenge = (await browser.post('/login', { email: victim.email, password: victim.password })).body.meta.second_step.challenge;
    const options = (await browser.post('/login/two-factor/passkey/options', { challenge })).body.data;
    const foreign = await browser.post('/login/two-factor/passkey', { challenge, credential: attackerKey.assert(options) });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.credential).toEqual(['This passkey does not belong to this account.']);
    expect(browser.cookies.has('session')).toBe(false);

    const wrongOrigin = (await browser.post('/login/two-factor/passkey/options', { challenge })).body.data;
    expect((await browser.post('/login/two-factor/passkey', { challenge, credential: victimKey.assert(wrongOrigin, undefined, { origin: 'http://evil.test' }) })).status).toBe(422);

    const skipped = new Client(server.url);
    const noChallenge = await skipped.post('/login/two-factor/passkey', { credential: victimKey.assert(options) });
    expect(noChallenge.status).toBe(422);
    expect(noChallenge.body.errors.challenge).toHaveLength(1);
    expect((await skipped.post('/login/two-factor/passkey/options', { challenge: 'a'.repeat(32) })).status).toBe(422);

    // Three more wrong answers reach the limit of five: the sign-in starts over.
    for (let i = 0; i < 3; i += 1) {
      const more = (await browser.post('/login/two-factor/passkey/options', { challenge })).body.data;
      await browser.post('/login/two-factor/passkey', { challenge, credential: attackerKey.assert(more) });
    }
    expect((await browser.post('/login/two-factor/passkey/options', { challenge })).status).toBe(422);
    expect(browser.cookies.has('session')).toBe(false);
  });

  it('does not offer a passkey to an account with two-factor authentication but no passkey', async () => {
    const { user, email, password } = await registerUser(server.url);
    await turnOnTwoFactor(user.id);
    const browser = new Client(server.url);
    const first = await browser.post('/login', { email, password });
    expect(first.body.meta.second_step.factors).not.toContain('passkey');
    const options = await browser.post('/login/two-factor/passkey/options', { challenge: first.body.meta.second_step.challenge });
    expect(options.status).toBe(422);
    expect(options.body.errors.credential).toEqual(['This account has no passkeys.']);
  });
});
