import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.ts';
import type { AppContext } from '../../src/server/context.ts';
import { storageUsage } from '../../src/server/files/storage.ts';
import { removeItems } from '../../src/server/files/trash.ts';
import { findUserByEmail, insertUser } from '../../src/server/users/queries.ts';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { seedContext, seedFile, userById } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const ADMIN = { email: 'owner@example.test', password: 'owner password 1' };
// zxcvbn scores (src/server/auth/strength.ts): 1 is refused for everyone, 2 passes for a user but not an admin.
const WEAK = 'password1234';
const USER_GRADE = 'bluehouse12';
const STRONG = 'mellow canyon 7 quiet';

let server: RunningServer;
let seed: AppContext;
let admin: Client;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Owner' } });
  seed = await seedContext(server);
  admin = await signIn(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

async function signIn(email: string, password: string): Promise<Client> {
  const client = new Client(server.url);
  const res = await client.post('/login', { email, password });
  expect(res.status, `sign-in of ${email}`).toBe(200);
  return client;
}

async function outbox(): Promise<{ to: string; subject: string; text: string }[]> {
  const raw = await readFile(path.join(server.dataDir, 'mail', 'outbox.jsonl'), 'utf8').catch(() => '');
  return raw.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}
const mailsTo = async (to: string, subject: RegExp) => (await outbox()).filter((m) => m.to === to && subject.test(m.subject));

async function auditOf(userId: string): Promise<{ action: string; before: any; after: any; actor: { name: string } }[]> {
  const res = await admin.get(`/api/admin/audit?target_type=user&target_id=${userId}`);
  expect(res.status).toBe(200);
  return res.body.data.map((e: any) => e.attributes);
}

/** A snapshot of a user row, to prove a refused call changed nothing. */
const rowOf = (id: string) => seed.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function createUser(body: Record<string, unknown>) {
  return admin.post('/api/admin/users', body);
}

describe('the user list', () => {
  // Seven accounts sharing a tag in their emails (so a search isolates them from the rest of the file's users),
  // with created, last-sign-in and storage orders that differ from the name order.
  const tag = `lst${Date.now().toString(36)}`;
  const names = ['Alpha', 'bravo', 'Charlie', 'delta', 'Echo', 'foxtrot', 'Golf'];
  const createdOrder = [3, 0, 6, 1, 5, 2, 4];
  const signIns: (number | null)[] = [null, 2, null, 5, 1, null, 3];
  const fileBytes = [0, 700, 300, 0, 1500, 300, 50];
  type Seeded = { id: string; name: string; email: string; created_at: string; last_signed_in_at: string | null; used: number };
  const seeded: Seeded[] = [];

  beforeAll(async () => {
    const hash = await hashPassword(STRONG);
    for (const [i, name] of names.entries()) {
      const id = randomUUID();
      const email = `${name.toLowerCase()}.${tag}@example.test`;
      const created_at = new Date(Date.UTC(2026, 0, 1 + createdOrder[i]!)).toISOString();
      const last_signed_in_at = signIns[i] === null ? null : new Date(Date.UTC(2026, 5, signIns[i]!)).toISOString();
      await insertUser(seed, { id, email, name, password_hash: hash, role: 'user', color: '#6366f1', created_at, updated_at: created_at, last_signed_in_at });
      if (fileBytes[i]) await seedFile(seed, id, { name: 'data.bin', content: Buffer.alloc(fileBytes[i]!, 1) });
      seeded.push({ id, name, email, created_at, last_signed_in_at, used: fileBytes[i]! });
    }
  });

  async function walk(sort: string, direction: string, limit = 3): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const res: { status: number; body: any } = await admin.get(`/api/admin/users?search=${tag}&sort=${sort}&direction=${direction}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(limit);
      ids.push(...res.body.data.map((u: any) => u.id));
      cursor = res.body.meta.next_cursor;
      if (!cursor) return ids;
      expect(res.body.links.next).toContain(`cursor=${cursor}`);
    }
    throw new Error('paging did not end');
  }

  const keys: Record<string, (u: Seeded) => string | number> = {
    name: (u) => u.name.toLowerCase(),
    email: (u) => u.email,
    created_at: (u) => u.created_at,
    last_signed_in_at: (u) => u.last_signed_in_at ?? '',
    storage_used: (u) => u.used,
  };
  const expected = (sort: string, direction: string) =>
    [...seeded]
      .sort((a, b) => {
        const [ka, kb] = [keys[sort]!(a), keys[sort]!(b)];
        const order = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : 1;
        return direction === 'asc' ? order : -order;
      })
      .map((u) => u.id);

  it.each(Object.keys(keys).flatMap((sort) => ['asc', 'desc'].map((direction) => ({ sort, direction }))))(
    'pages through every account sorted by $sort $direction with cursors, none twice or missed',
    async ({ sort, direction }) => {
      expect(await walk(sort, direction)).toEqual(expected(sort, direction));
    },
  );

  it('shows role, storage used (what the storage page computes) and last sign-in per account', async () => {
    const res = await admin.get(`/api/admin/users?search=${tag}&sort=name&direction=asc&limit=100`);
    const echo = res.body.data.find((u: any) => u.attributes.name === 'Echo');
    expect(echo.attributes).toMatchObject({ role: 'user', email: `echo.${tag}@example.test`, storage: { used: 1500 }, last_signed_in_at: seeded[4]!.last_signed_in_at, avatar: null });
    for (const u of res.body.data) {
      expect(u.attributes.storage.used).toBe((await storageUsage(seed, await userById(seed, u.id))).data.attributes.used);
    }
    expect(res.text).not.toMatch(/password|hash/i);
  });

  it('keeps storage used in step when files are trashed (still stored) and deleted for good', async () => {
    const bravo = seeded[1]!;
    const user = await userById(seed, bravo.id);
    const file = await seedFile(seed, bravo.id, { name: 'more.bin', content: Buffer.alloc(4000, 2) });
    const used = async () => (await admin.get(`/api/admin/users/${bravo.id}`)).body.data.attributes.storage.used;
    expect(await used()).toBe(4700);
    await removeItems(seed, user, [{ id: file.id, type: 'file', force_delete: false }]);
    expect(await used()).toBe(4700);
    await removeItems(seed, user, [{ id: file.id, type: 'file', force_delete: true }]);
    expect(await used()).toBe(700);
    expect((await storageUsage(seed, user)).data.attributes.used).toBe(700);
  });

  it('searches a part of the name (any case) or the email, with % and _ taken literally', async () => {
    const search = async (q: string) => (await admin.get(`/api/admin/users?search=${encodeURIComponent(q)}&limit=100`)).body.data.map((u: any) => u.attributes.name).sort();
    expect(await search('CHARL')).toEqual(['Charlie']);
    expect(await search(`foxtrot.${tag}`)).toEqual(['foxtrot']);
    expect(await search(`${tag}@`)).toHaveLength(7);
    expect(await search('%')).toEqual([]);
    expect(await search(`_${tag}`)).toEqual([]);
    expect(await search(`nobody-${tag}`)).toEqual([]);
  });

  it('finds every match when a search matches many accounts (the route that walks the sort index)', async () => {
    const many = `many${Date.now().toString(36)}`;
    const rows = Array.from({ length: 1001 }, (_, i) => {
      const at = new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
      return { id: randomUUID(), email: `p${String(i).padStart(4, '0')}.${many}@example.test`, name: `Person ${i}`, password_hash: 'x', role: 'user' as const, color: '#6366f1', created_at: at, updated_at: at };
    });
    for (let i = 0; i < rows.length; i += 250) await seed.db.insertInto('users').values(rows.slice(i, i + 250)).execute();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: any } = await admin.get(`/api/admin/users?search=${many}&sort=email&direction=asc&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...res.body.data.map((u: any) => u.attributes.email));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    expect(seen).toEqual(rows.map((r) => r.email));
    // And a narrower search among them takes the index's few matches.
    const one = await admin.get(`/api/admin/users?search=p0999.${many}`);
    expect(one.body.data.map((u: any) => u.attributes.name)).toEqual(['Person 999']);
  });

  it('records the time of each successful sign-in', async () => {
    const golf = seeded[6]!;
    const before = Date.now();
    await signIn(golf.email, STRONG);
    const res = await admin.get(`/api/admin/users?search=${tag}&sort=last_signed_in_at&direction=desc&limit=1`);
    expect(res.body.data[0].id).toBe(golf.id);
    expect(Date.parse(res.body.data[0].attributes.last_signed_in_at)).toBeGreaterThanOrEqual(before - 1000);
    seeded[6]!.last_signed_in_at = res.body.data[0].attributes.last_signed_in_at;
    // A failed sign-in leaves it as it was.
    expect((await new Client(server.url).post('/login', { email: golf.email, password: 'not the password' })).status).toBe(422);
    expect((await rowOf(golf.id)).last_signed_in_at).toBe(seeded[6]!.last_signed_in_at);
  });

  it('answers bad paging and sorting with 400 and a message', async () => {
    const first = await admin.get(`/api/admin/users?search=${tag}&sort=name&limit=2`);
    const cursor = first.body.meta.next_cursor as string;
    const bad: [string, RegExp][] = [
      ['limit=0', /limit/],
      ['limit=101', /limit/],
      ['limit=ten', /limit/],
      ['cursor=not-a-cursor', /cursor/],
      [`cursor=${Buffer.from('[1,2]').toString('base64url')}`, /cursor/],
      [`cursor=${Buffer.from('["name:asc",5,"x"]').toString('base64url')}`, /cursor/],
      [`sort=email&cursor=${cursor}`, /cursor/],
      [`sort=name&direction=desc&cursor=${cursor}`, /cursor/],
      ['sort=password_hash', /sort/],
      ['direction=sideways', /direction/],
      [`search=${'x'.repeat(256)}`, /search/],
    ];
    for (const [query, message] of bad) {
      const res = await admin.get(`/api/admin/users?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(message);
    }
  });
});

describe('creating a user', () => {
  it('with a password: 201, the account signs in with it, the verification mail goes out, and it is audited', async () => {
    const email = uniqueEmail('made');
    const res = await createUser({ name: 'Made By Admin', email: email.toUpperCase(), role: 'user', password: STRONG, password_confirmation: STRONG });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ name: 'Made By Admin', email, role: 'user', email_verified_at: null, last_signed_in_at: null, storage: { used: 0 } });
    await expect.poll(async () => (await mailsTo(email, /confirm your email/i)).length).toBe(1);
    await signIn(email, STRONG);
    const audit = await auditOf(res.body.data.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'user.create', actor: { name: 'Owner' }, after: { name: 'Made By Admin', email, role: 'user', verified: false, invitation: false } });
    expect(JSON.stringify(audit)).not.toContain(STRONG);
  });

  it('marked verified: no verification mail, the address counts as verified', async () => {
    const email = uniqueEmail('verified');
    const res = await createUser({ name: 'Trusted', email, password: STRONG, password_confirmation: STRONG, verified: true });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes.email_verified_at).toEqual(expect.any(String));
    await signIn(email, STRONG);
    expect(await mailsTo(email, /confirm your email/i)).toEqual([]);
  });

  it('with an invitation: a mail with a week-long set-password link; the link sets the password and verifies the address', async () => {
    const email = uniqueEmail('invited');
    const res = await createUser({ name: 'Invited Person', email, role: 'admin', send_invitation: true });
    expect(res.status).toBe(201);
    expect(res.body.meta.invitation_sent).toBe(true);
    expect(res.body.data.attributes).toMatchObject({ role: 'admin', email_verified_at: null });
    const [mail] = await mailsTo(email, /account is ready/i);
    expect(mail!.text).toContain('7 days');
    const link = new URL(mail!.text.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe('/create-new-password');
    const token = link.searchParams.get('token')!;
    const reset = await seed.db.selectFrom('password_resets').selectAll().where('user_id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(Date.parse(reset.expires_at) - Date.parse(reset.created_at)).toBe(7 * 24 * 60 * 60_000);

    // Nothing signs in before the password is chosen; an admin account needs the admin's bar.
    expect((await new Client(server.url).post('/login', { email, password: STRONG })).status).toBe(422);
    const visitor = new Client(server.url);
    const weak = await visitor.post('/reset-password', { token, email, password: USER_GRADE, password_confirmation: USER_GRADE });
    expect(weak.status).toBe(422);
    expect(weak.body.errors.password[0]).toMatch(/admin password/);
    const done = await visitor.post('/reset-password', { token, email, password: STRONG, password_confirmation: STRONG });
    expect(done.status).toBe(200);
    await signIn(email, STRONG);
    expect((await rowOf(res.body.data.id)).email_verified_at).toEqual(expect.any(String));
    expect((await auditOf(res.body.data.id))[0]).toMatchObject({ action: 'user.create', after: { invitation: true, role: 'admin' } });
  });

  it('refuses a taken email (any case) with 422 and creates nothing', async () => {
    const { email } = await registerUser(server.url);
    const count = async () => (await seed.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const before = Number(await count());
    const res = await createUser({ name: 'Copy', email: email.toUpperCase(), password: STRONG, password_confirmation: STRONG });
    expect(res.status).toBe(422);
    expect(res.body.errors.email[0]).toMatch(/already been taken/);
    expect(Number(await count())).toBe(before);
  });

  it.each([
    [{ email: uniqueEmail(), password: STRONG, password_confirmation: STRONG }, 'name', /name field is required/],
    [{ name: 'X', email: 'not-an-email', password: STRONG, password_confirmation: STRONG }, 'email', /valid email/],
    [{ name: 'X', email: uniqueEmail(), role: 'owner', password: STRONG, password_confirmation: STRONG }, 'role', /admin or user/],
    [{ name: 'X', email: uniqueEmail() }, 'password', /required unless an invitation/],
    [{ name: 'X', email: uniqueEmail(), password: STRONG, password_confirmation: STRONG, send_invitation: true }, 'password', /not both/],
    [{ name: 'X', email: uniqueEmail(), password: STRONG, password_confirmation: 'other' }, 'password_confirmation', /does not match/],
    [{ name: 'X', email: uniqueEmail(), password: WEAK, password_confirmation: WEAK }, 'password', /too easy to guess/],
    [{ name: 'X', email: uniqueEmail(), role: 'admin', password: USER_GRADE, password_confirmation: USER_GRADE }, 'password', /admin password is too easy/],
    [{ name: 'X', email: uniqueEmail(), send_invitation: 'yes' }, 'send_invitation', /true or false/],
    [{ name: 'X', email: uniqueEmail(), send_invitation: true, verified: true }, 'verified', /following the link/],
    [{ name: 'X', email: uniqueEmail(), password: STRONG, password_confirmation: STRONG, storage_limit_bytes: -1 }, 'storage_limit_bytes', /cannot be negative/],
    [{ name: 'X', email: uniqueEmail(), password: STRONG, password_confirmation: STRONG, storage_limit_bytes: 1.5 }, 'storage_limit_bytes', /whole number/],
    [{ name: 'X', email: uniqueEmail(), password: STRONG, password_confirmation: STRONG, storage_limit_bytes: '1GB' }, 'storage_limit_bytes', /number of bytes/],
  ])('refuses bad input with 422 on the field and creates nothing (%#)', async (body, field, message) => {
    const res = await createUser(body);
    expect(res.status).toBe(422);
    expect(res.body.errors[field][0]).toMatch(message);
    if (typeof body.email === 'string' && body.email.includes('@')) expect(await findUserByEmail(seed, body.email)).toBeUndefined();
  });

  it('with a storage limit of its own: the storage tab and the uploads use it from the start', async () => {
    const res = await createUser({ name: 'Small Quota', email: uniqueEmail('quota'), password: STRONG, password_confirmation: STRONG, storage_limit_bytes: 1024 ** 2 });
    expect(res.status).toBe(201);
    const storage = await admin.get(`/api/admin/users/${res.body.data.id}/storage`);
    expect(storage.body.data.attributes.storage_limit_bytes).toBe(1024 ** 2);
    expect((await auditOf(res.body.data.id))[0]).toMatchObject({ action: 'user.create', after: { storage_limit_bytes: 1024 ** 2 } });
    const unlimited = await createUser({ name: 'No Quota', email: uniqueEmail('quota'), password: STRONG, password_confirmation: STRONG, storage_limit_bytes: 0 });
    expect((await admin.get(`/api/admin/users/${unlimited.body.data.id}/storage`)).body.data.attributes.storage_limit_bytes).toBe(0);
  });

  it('lets a user-grade password through for a user account', async () => {
    const res = await createUser({ name: 'Plain', email: uniqueEmail(), password: USER_GRADE, password_confirmation: USER_GRADE });
    expect(res.status).toBe(201);
  });
});

describe('the details tab', () => {
  it('answers 404 for an account that does not exist, after the admin check', async () => {
    const missing = randomUUID();
    expect((await admin.get(`/api/admin/users/${missing}`)).status).toBe(404);
    expect((await admin.get(`/api/admin/users/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await admin.request(`/api/admin/users/${missing}`, { method: 'PATCH', json: { name: 'Nobody' } })).status).toBe(404);
    expect((await admin.post(`/api/admin/users/${missing}/password`, { action: 'send_link' })).status).toBe(404);
    const { client } = await registerUser(server.url);
    expect((await client.get(`/api/admin/users/${missing}`)).status).toBe(403);
  });

  it('changes name, email and the verified state, audited with before and after', async () => {
    const { email, user } = await registerUser(server.url, { name: 'Before Name' });
    const newEmail = uniqueEmail('renamed');
    const res = await admin.request(`/api/admin/users/${user.id}`, { method: 'PATCH', json: { name: 'After Name', email: newEmail, verified: true } });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ name: 'After Name', email: newEmail, email_verified_at: expect.any(String) });
    expect(res.body.meta).toEqual({ abilities: { change_role: true }, self: false, two_factor_enabled: false });
    const [entry] = await auditOf(user.id);
    expect(entry).toMatchObject({ action: 'user.update', before: { name: 'Before Name', email, verified: false }, after: { name: 'After Name', email: newEmail, verified: true } });

    // The search knows the new name and address, and forgets the old ones.
    const found = async (q: string) => (await admin.get(`/api/admin/users?search=${encodeURIComponent(q)}`)).body.data.map((u: any) => u.id);
    expect(await found(newEmail)).toEqual([user.id]);
    expect(await found(email)).toEqual([]);

    // A new address without "verified" is unverified again; the admin can mark it verified on its own too.
    const changed = await admin.request(`/api/admin/users/${user.id}`, { method: 'PATCH', json: { email: uniqueEmail('again') } });
    expect(changed.body.data.attributes.email_verified_at).toBeNull();
    const marked = await admin.request(`/api/admin/users/${user.id}`, { method: 'PATCH', json: { verified: true } });
    expect(marked.body.data.attributes.email_verified_at).toEqual(expect.any(String));
  });

  it('refuses an email another account has (422) and bad input, changing nothing', async () => {
    const { user } = await registerUser(server.url);
    const other = await registerUser(server.url);
    const before = await rowOf(user.id);
    const cases: [unknown, string, RegExp][] = [
      [{ email: other.email.toUpperCase() }, 'email', /already been taken/],
      [{ name: 'Fine', email: other.email }, 'email', /already been taken/],
      [{}, '_', /at least one/],
      [{ role: 'root' }, 'role', /admin or user/],
      [{ name: '' }, 'name', /required/],
      [{ verified: 'yes' }, 'verified', /true or false/],
    ];
    for (const [json, field, message] of cases) {
      const res = await admin.request(`/api/admin/users/${user.id}`, { method: 'PATCH', json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.body.errors[field][0]).toMatch(message);
    }
    expect(await rowOf(user.id)).toEqual(before);
    expect(await auditOf(user.id)).toEqual([]);
  });

  it('keeps the last admin an admin, and no admin can demote themselves', async () => {
    // A server of its own: here the owner is the only admin.
    const solo = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    try {
      const client = new Client(solo.url);
      const me = (await client.post('/login', ADMIN)).body.data;
      const last = await client.request(`/api/admin/users/${me.id}`, { method: 'PATCH', json: { role: 'user' } });
      expect(last.status).toBe(422);
      expect(last.body.errors.role[0]).toMatch(/only administrator/);

      const second = await client.post('/api/admin/users', { name: 'Second Admin', email: 'second@example.test', role: 'admin', password: STRONG, password_confirmation: STRONG });
      expect(second.status).toBe(201);
      const self = await client.request(`/api/admin/users/${me.id}`, { method: 'PATCH', json: { role: 'user', name: 'Renamed Too' } });
      expect(self.status).toBe(422);
      expect(self.body.errors.role[0]).toMatch(/your own administrator role/);
      expect((await client.get(`/api/admin/users/${me.id}`)).body).toMatchObject({ data: { attributes: { role: 'admin', name: me.attributes.name } }, meta: { abilities: { change_role: false }, self: true } });

      // Another admin may be demoted (and promoted back), each change audited as user.role.
      const demoted = await client.request(`/api/admin/users/${second.body.data.id}`, { method: 'PATCH', json: { role: 'user' } });
      expect(demoted.status).toBe(200);
      expect(demoted.body.data.attributes.role).toBe('user');
      const audit = (await client.get(`/api/admin/audit?target_type=user&target_id=${second.body.data.id}`)).body.data.map((e: any) => e.attributes);
      expect(audit[0]).toMatchObject({ action: 'user.role', before: { role: 'admin' }, after: { role: 'user' } });
      // The demoted account is no admin any more, at once.
      const former = new Client(solo.url);
      await former.post('/login', { email: 'second@example.test', password: STRONG });
      expect((await former.get('/api/admin/users')).status).toBe(403);
    } finally {
      await solo.stop();
    }
  });
});

describe('the password tab', () => {
  async function userWithSessionsAndToken() {
    const registered = await registerUser(server.url);
    const second = await signIn(registered.email, registered.password);
    const token = (await registered.client.post('/api/user/tokens', { name: 'script' })).body.meta.token as string;
    expect((await new Client(server.url).get('/api/user', { bearer: token, origin: null, xrw: false })).status).toBe(200);
    return { ...registered, second, token };
  }
  const signedOut = async (client: Client) => (await client.get('/api/user')).status === 401;
  const tokenDead = async (token: string) => (await new Client(server.url).get('/api/user', { bearer: token, origin: null, xrw: false })).status === 401;

  it('sets a new password: every session and access token ends, the old password stops working, audited', async () => {
    const u = await userWithSessionsAndToken();
    const res = await admin.post(`/api/admin/users/${u.user.id}/password`, { action: 'set', password: STRONG, password_confirmation: STRONG });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ action: 'set', sessions_ended: 2, access_tokens_revoked: 1 });
    expect(await signedOut(u.client)).toBe(true);
    expect(await signedOut(u.second)).toBe(true);
    expect(await tokenDead(u.token)).toBe(true);
    expect((await new Client(server.url).post('/login', { email: u.email, password: u.password })).status).toBe(422);
    await signIn(u.email, STRONG);
    const [entry] = await auditOf(u.user.id);
    expect(entry).toMatchObject({ action: 'user.password', after: { method: 'set', ended_sessions: 2, revoked_api_access: 1 } });
    expect(JSON.stringify(entry)).not.toContain(STRONG);
  });

  it('refuses a weak password with 422, and the sessions, tokens and password stay', async () => {
    const u = await userWithSessionsAndToken();
    const before = await rowOf(u.user.id);
    const cases: [unknown, string, RegExp][] = [
      [{ action: 'set', password: WEAK, password_confirmation: WEAK }, 'password', /too easy to guess/],
      [{ action: 'set', password: 'short', password_confirmation: 'short' }, 'password', /at least 8/],
      [{ action: 'set', password: STRONG, password_confirmation: 'different' }, 'password_confirmation', /does not match/],
      [{ action: 'set' }, 'password', /required/],
      [{ action: 'explode' }, 'action', /set or send_link/],
      [{}, 'action', /set or send_link/],
    ];
    for (const [json, field, message] of cases) {
      const res = await admin.post(`/api/admin/users/${u.user.id}/password`, json);
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.body.errors[field][0]).toMatch(message);
    }
    expect(await signedOut(u.client)).toBe(false);
    expect(await tokenDead(u.token)).toBe(false);
    expect(await rowOf(u.user.id)).toEqual(before);
    expect(await auditOf(u.user.id)).toEqual([]);
  });

  it('holds an admin account to the admin bar', async () => {
    const created = await createUser({ name: 'Another Admin', email: uniqueEmail('adm'), role: 'admin', password: STRONG, password_confirmation: STRONG });
    const res = await admin.post(`/api/admin/users/${created.body.data.id}/password`, { action: 'set', password: USER_GRADE, password_confirmation: USER_GRADE });
    expect(res.status).toBe(422);
    expect(res.body.errors.password[0]).toMatch(/admin password/);
  });

  it('mails a reset link: every session and token ends, the password works until the link is used, audited', async () => {
    const u = await userWithSessionsAndToken();
    const res = await admin.post(`/api/admin/users/${u.user.id}/password`, { action: 'send_link' });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ action: 'send_link', sessions_ended: 2, access_tokens_revoked: 1 });
    const [mail] = await mailsTo(u.email, /choose a new/i);
    expect(mail!.text).toMatch(/\/create-new-password\?token=\w+/);
    expect(await signedOut(u.client)).toBe(true);
    expect(await tokenDead(u.token)).toBe(true);
    await signIn(u.email, u.password);
    expect((await auditOf(u.user.id))[0]).toMatchObject({ action: 'user.password', after: { method: 'send_link' } });
  });

  it('keeps the acting admin signed in when they set their own password', async () => {
    const email = uniqueEmail('selfadmin');
    const created = await createUser({ name: 'Self Admin', email, role: 'admin', password: STRONG, password_confirmation: STRONG, verified: true });
    const me = await signIn(email, STRONG);
    const elsewhere = await signIn(email, STRONG);
    const res = await me.post(`/api/admin/users/${created.body.data.id}/password`, { action: 'set', password: 'another long admin phrase', password_confirmation: 'another long admin phrase' });
    expect(res.status).toBe(200);
    expect(res.body.meta.sessions_ended).toBe(1);
    expect(await signedOut(me)).toBe(false);
    expect(await signedOut(elsewhere)).toBe(true);
  });
});
