import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { useSeededServer, withSeed } from '../support/seed.ts';
import { startServer } from '../support/server.ts';
import { tusMetadata } from '../support/uploads.ts';

const env = useSeededServer();

interface Mail {
  to: string;
  subject: string;
  text: string;
}

async function outbox(): Promise<Mail[]> {
  const raw = await readFile(path.join(env.server.dataDir, 'mail', 'outbox.jsonl'), 'utf8').catch(() => '');
  return raw.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Mail);
}

/** Waits until `count` mails to `to` with a matching subject are in the outbox (the mailer writes in the background). */
async function waitForMails(to: string, subject: RegExp, count = 1): Promise<Mail[]> {
  for (let i = 0; i < 100; i++) {
    const mails = (await outbox()).filter((m) => m.to === to && subject.test(m.subject));
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`fewer than ${count} mails to ${to} matching ${subject}`);
}

/** A browser at a given address (the test server trusts X-Forwarded-For: TRUST_PROXY=1). */
function at(ip: string, client = new Client(env.server.url)) {
  return {
    client,
    login: (email: string, password: string) => client.post('/login', { email, password }, { headers: { 'X-Forwarded-For': ip } }),
  };
}

const GUESSED = /trying to sign in/;

/** Wrong passwords from one address after another (five each, the per-address budget) until the account's ceiling refuses a fresh address. */
async function reachAccountCeiling(email: string, network: string): Promise<void> {
  for (let host = 20; host < 40; host++) {
    const guesser = at(`${network}.${host}`);
    for (let i = 0; i < 5; i++) {
      const res = await guesser.login(email, `spread guess ${host}.${i}`);
      if (res.status === 429 && i === 0) return;
      if (res.status === 429) break;
      expect(res.status).toBe(422);
    }
  }
  throw new Error('the account ceiling was never reached');
}

describe('sign-in throttling cannot lock the owner out', () => {
  it('slows the guessing address down, mails the owner once, and lets the owner in with the device cookie', async () => {
    // The owner signed in before from this browser at B: it holds a device cookie.
    const owner = await registerUser(env.server.url);
    const { email, password } = owner;
    expect(owner.client.cookies.get('device')).toMatch(/^[a-z2-7]{32}$/);
    const ipB = owner.client.ip;

    const attacker = at('192.0.2.10');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await attacker.login(email, `guess number ${i}`)).status);
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const right = await attacker.login(email, password);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(right.body.message).toMatch(/Too many attempts/);

    // Guessing spread over many addresses reaches the account's ceiling...
    await reachAccountCeiling(email, '192.0.2');
    // ...so a browser without a device cookie is held back, even with the right password,
    expect((await at(ipB).login(email, password)).status).toBe(429);
    // while the owner's browser, presenting its device cookie from B, signs in.
    const back = await at(ipB, owner.client).login(email, password);
    expect(back.status).toBe(200);
    expect((await owner.client.get('/api/user')).body.data.attributes.email).toBe(email);
    // And the guessing address stays slowed down even with the right password.
    expect((await attacker.login(email, password)).status).toBe(429);

    // The owner heard about it once, not once per attempt. A later mail to them (the reset link,
    // sent after all the attempts) marks the point by which the warnings were written.
    await new Client(env.server.url).post('/forgot-password', { email });
    await waitForMails(email, /Reset/);
    const warnings = await waitForMails(email, GUESSED);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.text).toMatch(/wrong password/);
  });

  it('lets the owner in with the device cookie from the very address the guesses come from (one NAT, or a proxy without TRUST_PROXY)', async () => {
    const owner = await registerUser(env.server.url);
    const shared = '192.0.2.77';
    const neighbour = at(shared);
    for (let i = 0; i < 8; i++) await neighbour.login(owner.email, `neighbour guess ${i}`);
    expect((await neighbour.login(owner.email, owner.password)).status).toBe(429);
    // The owner's browser behind the same address: its device cookie is its own budget.
    const back = await at(shared, owner.client).login(owner.email, owner.password);
    expect(back.status, back.text).toBe(200);
    // Its wrong guesses are counted on that budget, so a stolen device cookie cannot guess on for ever.
    const device = at(shared, owner.client);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await device.login(owner.email, `typo ${i}`)).status);
    expect(statuses.slice(0, 10).every((status) => status === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('treats an unknown address the same (429 after five), and mails nobody', async () => {
    const email = uniqueEmail('ghost');
    const guesser = at('198.51.100.7');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await guesser.login(email, `guess ${i}`)).status);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    expect((await outbox()).some((m) => m.to === email)).toBe(false);
  });

  it('counts a burst of parallel guesses before checking them: exactly five get a password check', async () => {
    const { email } = await registerUser(env.server.url);
    const burst = at('192.0.2.200');
    const statuses = await Promise.all(Array.from({ length: 15 }, (_, i) => burst.login(email, `parallel guess ${i}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 422)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('clears forgotten throttle rows as attempts come in', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    await env.seed.db.insertInto('throttles').values({ key: 'signin:ip:203.0.113.250', count: 99, blocked_until: past, forget_at: past }).execute();
    const { email, password } = await registerUser(env.server.url);
    expect((await at('203.0.113.251').login(email, password)).status).toBe(200);
    expect(await env.seed.db.selectFrom('throttles').select('key').where('key', '=', 'signin:ip:203.0.113.250').executeTakeFirst()).toBeUndefined();
  });

  it('clears rate-limit windows that ended as new counts come in', async () => {
    // A server of its own: each process prunes at most every ten seconds.
    const own = await startServer();
    try {
      const past = new Date(Date.now() - 60_000).toISOString();
      await withSeed(own, (seed) => seed.db.insertInto('rate_limits').values([{ key: 'register:ip:203.0.113.240', count: 3, reset_at: past }, { key: 'register:ip:203.0.113.241', count: 1, reset_at: past }]).execute());
      await registerUser(own.url);
      const left = await withSeed(own, (seed) => seed.db.selectFrom('rate_limits').select('key').where('reset_at', '<=', new Date().toISOString()).execute());
      expect(left).toEqual([]);
    } finally {
      await own.stop();
    }
  });

  it('ignores a device cookie of another account, and a forged one', async () => {
    const victim = await registerUser(env.server.url);
    const other = await registerUser(env.server.url);
    await reachAccountCeiling(victim.email, '203.0.113');
    // other's device cookie does not name the victim's account.
    expect((await at(other.client.ip, other.client).login(victim.email, victim.password)).status).toBe(429);
    const forged = new Client(env.server.url);
    forged.cookies.set('device', 'a'.repeat(32));
    expect((await at('203.0.113.9', forged).login(victim.email, victim.password)).status).toBe(429);
    expect((await at('203.0.113.99').login(victim.email, victim.password)).status).toBe(429);
    expect((await at(victim.client.ip, victim.client).login(victim.email, victim.password)).status).toBe(200);
  });
});

describe('share link passwords', () => {
  async function protectedLink() {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Locked');
    const res = await owner.client.post(`/api/share/${folder}`, { type: 'folder', permission: 'visitor', password: 'the right one' });
    expect(res.status).toBe(201);
    return res.body.data.attributes.token as string;
  }
  const unlock = (ip: string, token: string, password: string, client = new Client(env.server.url)) =>
    client.post(`/api/browse/authenticate/${token}`, { password }, { headers: { 'X-Forwarded-For': ip } });

  it('backs off per link and address; another address still unlocks, and one that unlocked before passes the link ceiling', async () => {
    const token = await protectedLink();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await unlock('192.0.2.100', token, `guess ${i}`)).status);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429]);
    expect((await unlock('192.0.2.100', token, 'the right one')).status).toBe(429);
    // The person the link was given to, elsewhere, unlocks.
    expect((await unlock('192.0.2.101', token, 'the right one')).status).toBe(200);

    // Guessing from many addresses reaches the link's ceiling (50) ...
    let ceiling = false;
    for (let host = 0; host < 15 && !ceiling; host++) {
      for (let i = 0; i < 5; i++) {
        const res = await unlock(`198.51.100.${host}`, token, `spread ${i}`);
        if (res.status === 429) {
          ceiling = i === 0;
          break;
        }
      }
    }
    expect(ceiling).toBe(true);
    // ... which holds a new address back, not the one that unlocked before.
    expect((await unlock('192.0.2.102', token, 'the right one')).status).toBe(429);
    expect((await unlock('192.0.2.101', token, 'the right one')).status).toBe(200);
  });
});

describe('registration does not tell which addresses have accounts', () => {
  const body = (email: string) => ({ name: 'Someone', email, password: 'a sign-up password', password_confirmation: 'a sign-up password' });

  it('answers a taken address exactly like a new one, and mails the owner instead', async () => {
    const owner = await registerUser(env.server.url);
    const fresh = uniqueEmail('fresh');
    const a = await new Client(env.server.url).post('/register', body(fresh));
    const b = await new Client(env.server.url).post('/register', body(owner.email));
    expect(a.status).toBe(202);
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect(b.headers.getSetCookie()).toEqual(a.headers.getSetCookie());
    expect(a.headers.getSetCookie()).toEqual([]);
    expect(b.headers.get('content-type')).toBe(a.headers.get('content-type'));

    const [tried] = await waitForMails(owner.email, /tried to register/);
    expect(tried!.text).toMatch(/sign-in/);
    await waitForMails(fresh, /Confirm your email/);
    // The owner's password is unchanged; the attempt's password does not sign in.
    expect((await new Client(env.server.url).post('/login', { email: owner.email, password: 'a sign-up password' })).status).toBe(422);
  });

  it('answers two parallel sign-ups with one new address alike, and makes one account', async () => {
    const email = uniqueEmail('twins');
    const [a, b] = await Promise.all([0, 1].map(() => new Client(env.server.url).post('/register', body(email))));
    expect([a!.status, b!.status]).toEqual([202, 202]);
    expect(b!.body).toEqual(a!.body);
    const rows = await env.seed.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
  });

  it('answers a plain form the same way for both (a redirect to sign-in with the notice)', async () => {
    const owner = await registerUser(env.server.url);
    const post = (email: string) =>
      new Client(env.server.url).request('/register', { method: 'POST', form: body(email), headers: { Accept: 'text/html' }, xrw: false });
    const a = await post(uniqueEmail('form'));
    const b = await post(owner.email);
    expect([a.status, a.headers.get('location')]).toEqual([303, '/sign-in']);
    expect([b.status, b.headers.get('location')]).toEqual([303, '/sign-in']);
    const cookieNames = (r: typeof a) => r.headers.getSetCookie().map((c) => c.split('=')[0]);
    expect(cookieNames(b)).toEqual(cookieNames(a));
  });
});

describe('email_verification_required', () => {
  async function attempts(client: Client, folderName = 'Mine') {
    const folder = await mkdir(client, folderName);
    const plain = await client.request(`/api/upload?filename=a.txt&parent_id=${folder}`, { method: 'POST', body: 'hello', headers: { 'Content-Type': 'application/octet-stream' } });
    const tus = await client.request('/api/upload/tus', {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '5', 'Upload-Metadata': tusMetadata({ filename: 'b.txt' }) },
    });
    const shareRes = await client.post(`/api/share/${folder}`, { type: 'folder', permission: 'visitor', emails: ['friend@example.test'] });
    const request = await client.post('/api/upload-request', { folder_id: folder, email: 'friend@example.test' });
    const remote = await client.post('/api/upload/remote', { urls: ['http://127.0.0.1:9/nothing.txt'], parent_id: folder });
    return { plain, tus, share: shareRes, request, remote };
  }

  it('holds an unverified account back from uploads, shares, upload requests and imports while on; not while off', async () => {
    const user = await registerUser(env.server.url);
    await putSetting(env.seed, 'email_verification_required', true);
    try {
      const refused = await attempts(user.client);
      for (const [name, res] of Object.entries(refused)) {
        expect(res.status, `${name}: ${res.text}`).toBe(403);
        expect(JSON.parse(res.text), name).toMatchObject({ code: 'email_verification_required', message: expect.stringMatching(/verify your email/i) });
      }
      expect((await outbox()).some((m) => m.to === 'friend@example.test')).toBe(false);
      // Signing in and reading still work; the user resource and config say why.
      const me = await user.client.get('/api/user');
      expect(me.status).toBe(200);
      expect(me.body.data.attributes.email_verified_at).toBeNull();
      const page = await user.client.request('/platform/files', { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });
      expect(page.text).toContain('"emailVerificationRequired":true');

      // The shell's "Resend verification email": a new link, which verifies and lifts the hold.
      const resend = await user.client.post('/api/user/verification-email', {});
      expect(resend.status).toBe(200);
      const mails = await waitForMails(user.email, /Confirm your email/, 2);
      const link = new URL(mails.at(-1)!.text.match(/https?:\/\/\S+/)![0]);
      expect((await user.client.request(link.pathname + link.search, { method: 'GET' })).status).toBe(303);
      const allowed = await attempts(user.client, 'After verifying');
      expect(allowed.plain.status).toBe(201);
      expect(allowed.tus.status).toBe(201);
      expect(allowed.share.status).toBe(201);
      expect(allowed.request.status).toBe(201);
      expect(allowed.remote.status).toBe(202);
      expect((await user.client.post('/api/user/verification-email', {})).status).toBe(409);
    } finally {
      await putSetting(env.seed, 'email_verification_required', false);
    }
  });

  it('lets an unverified account do all of it while the setting is off', async () => {
    const user = await registerUser(env.server.url);
    const allowed = await attempts(user.client);
    expect(allowed.plain.status).toBe(201);
    expect(allowed.tus.status).toBe(201);
    expect(allowed.share.status).toBe(201);
    expect(allowed.request.status).toBe(201);
    expect(allowed.remote.status).toBe(202);
  });

  it('limits resending to a few an hour, and refuses a signed-out caller', async () => {
    const user = await registerUser(env.server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await user.client.post('/api/user/verification-email', {})).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await new Client(env.server.url).post('/api/user/verification-email', {})).status).toBe(401);
  });
});
