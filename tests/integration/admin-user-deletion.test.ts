import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeUserDeletions } from '../../src/server/admin/users/deletion.ts';
import type { AppContext } from '../../src/server/context.ts';
import { createNotification } from '../../src/server/notifications/service.ts';
import { thumbnailBlobKeys } from '../../src/server/previews/sizes.ts';
import { Client, registerUser } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedContext, seedFile, seedFolder, withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { share, visitor } from '../support/shares.ts';
import { authHeaders, createToken, deterministicBytes, tusMetadata, uploadForm } from '../support/uploads.ts';

/**
 * Deleting an account from the admin area (POST/GET /api/admin/users/{id}/deletion): confirmed by
 * the email, never oneself or the last administrator; the account is signed out at once; its rows
 * and its bytes on disk go; a deletion cut short (by a crash) is finished by the resume job.
 */
const ADMIN = { email: 'deletion-admin@example.test', password: 'deletion admin password' };
const ADMIN_ENV = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Deletion Admin' };

let server: RunningServer;
let seed: AppContext;
let admin: Client;
beforeAll(async () => {
  server = await startServer({ env: ADMIN_ENV });
  seed = await seedContext(server);
  admin = await signIn(server, ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

async function signIn(on: RunningServer, email: string, password: string): Promise<Client> {
  const client = new Client(on.url);
  const res = await client.post('/login', { email, password });
  expect(res.status, res.text).toBe(200);
  return client;
}

const deletionUrl = (id: string) => `/api/admin/users/${id}/deletion`;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Every blob of the user on disk: file bytes, thumbnails, avatar. */
async function blobsOf(on: RunningServer, userId: string): Promise<string[]> {
  const blobs = path.join(on.dataDir, 'blobs');
  return (await Promise.all(['files', 'thumbnails', 'avatars'].map((kind) => filesUnder(path.join(blobs, kind, userId))))).flat();
}

/** Rows anywhere that still belong to the user. */
async function rowsOf(ctx: AppContext, userId: string): Promise<Record<string, number>> {
  const count = async (table: string, column: string) => {
    const row = await ctx.db
      .selectFrom(table as 'items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(column as 'owner_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const tables: [string, string][] = [
    ['users', 'id'], ['items', 'owner_id'], ['sessions', 'user_id'], ['access_tokens', 'user_id'], ['shares', 'user_id'],
    ['upload_requests', 'user_id'], ['notifications', 'user_id'], ['favourites', 'user_id'], ['upload_reservations', 'owner_id'],
    ['pending_blobs', 'owner_id'], ['sign_in_devices', 'user_id'], ['remote_uploads', 'user_id'],
  ];
  return Object.fromEntries(await Promise.all(tables.map(async ([table, column]) => [table, await count(table, column)] as const)));
}

const NOTHING = { users: 0, items: 0, sessions: 0, access_tokens: 0, shares: 0, upload_requests: 0, notifications: 0, favourites: 0, upload_reservations: 0, pending_blobs: 0, sign_in_devices: 0, remote_uploads: 0 };

async function waitUntilDone(client: Client, userId: string) {
  await expect.poll(async () => (await client.get(deletionUrl(userId))).body?.data?.attributes?.state, { timeout: 20_000, interval: 50 }).toBe('done');
  return (await client.get(deletionUrl(userId))).body.data;
}

/** Thumbnails and an avatar as the thumbnail worker and the profile would leave them. */
async function seedImages(ctx: AppContext, userId: string, itemId: string): Promise<void> {
  const prefix = `thumbnails/${userId}/${itemId}`;
  for (const key of thumbnailBlobKeys(prefix)) await ctx.blobs.put(key, Readable.from([Buffer.from('webp')]));
  await ctx.db.updateTable('items').set({ thumbnail_key: prefix }).where('id', '=', itemId).execute();
  for (const size of ['xs', 'sm', 'md']) await ctx.blobs.put(`avatars/${userId}/abcdef12-${size}.webp`, Readable.from([Buffer.from('webp')]));
  await ctx.db.updateTable('users').set({ avatar_key: 'abcdef12' }).where('id', '=', userId).execute();
}

describe('deleting an account', () => {
  it('signs the account out at once, then removes its rows and its bytes on disk, and reports what went', async () => {
    const bystander = await registerUser(server.url);
    const kept = await seedFile(seed, bystander.user.id, { name: 'not-mine.txt' });
    const { client, user, email, password } = await registerUser(server.url);
    const token = await createToken(client);
    const photos = await mkdir(client, 'Photos');
    const year = await mkdir(client, '2024', photos);
    const first = await uploadForm(client, deterministicBytes(1, 0, 1000), { filename: 'a.bin' });
    await uploadForm(client, deterministicBytes(2, 0, 2000), { filename: 'b.bin', parent_id: photos });
    await uploadForm(client, deterministicBytes(3, 0, 3000), { filename: 'c.bin', parent_id: year });
    const trashed = await uploadForm(client, deterministicBytes(4, 0, 4000), { filename: 'trashed.bin', parent_id: year });
    expect((await client.post('/api/remove', { items: [{ id: trashed.body.data.id, type: 'file' }] })).status).toBe(204);
    await seedImages(seed, user.id, first.body.data.id);
    const link = await share(client, photos);
    expect((await client.post('/api/upload-request', { folder_id: year })).status).toBe(201);
    expect((await client.post('/api/folders/favourites', { folders: [photos] })).status).toBe(200);
    await createNotification(seed, { userId: user.id, category: 'remote-upload-done', title: 'Imported', description: '1 of 1', action: null });
    const tus = await fetch(`${server.url}/api/upload/tus`, {
      method: 'POST',
      headers: { ...authHeaders(client), 'Tus-Resumable': '1.0.0', 'Upload-Length': '5000', 'Upload-Metadata': tusMetadata({ filename: 'half.bin' }) },
    });
    expect(tus.status).toBe(201);
    const tusId = tus.headers.get('location')!.split('/').pop()!;
    const patched = await fetch(new URL(tus.headers.get('location')!, server.url), {
      method: 'PATCH',
      headers: { ...authHeaders(client), 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(deterministicBytes(5, 0, 1000)),
    });
    expect(patched.status).toBe(204);
    expect(await blobsOf(server, user.id)).toHaveLength(4 + 3 + 3);
    expect((await filesUnder(path.join(server.dataDir, 'uploads', 'tus'))).filter((f) => f.startsWith(tusId))).toHaveLength(2);

    const status = await admin.get(deletionUrl(user.id));
    expect(status.body.data.attributes).toMatchObject({ state: 'none', email, holds: { files: 4, folders: 2, bytes: 10_000 } });
    expect(status.body.data.meta).toEqual({ can_delete: true, refusal: null });

    const started = await admin.post(deletionUrl(user.id), { email: `  ${email.toUpperCase()} ` });
    expect(started.status, started.text).toBe(202);
    expect(['running', 'done']).toContain(started.body.data.attributes.state);
    // At once: no session, no token, no sign-in, no share link.
    expect((await client.get('/api/user')).status).toBe(401);
    expect((await new Client(server.url).get('/api/user', { bearer: token, origin: null, xrw: false })).status).toBe(401);
    expect((await new Client(server.url).post('/login', { email, password })).status).toBe(422);
    expect((await visitor(server.url).get(`/api/browse/share/${link.token}`)).status).toBe(404);

    const done = await waitUntilDone(admin, user.id);
    expect(done.attributes).toMatchObject({
      state: 'done',
      email,
      requested_by: { name: 'Deletion Admin' },
      removed: { files: 4, folders: 2, bytes: 10_000, shares: 1, upload_requests: 1 },
      finished_at: expect.any(String),
    });
    expect(await rowsOf(seed, user.id)).toEqual(NOTHING);
    expect(await blobsOf(server, user.id)).toEqual([]);
    expect((await filesUnder(path.join(server.dataDir, 'uploads', 'tus'))).filter((f) => f.startsWith(tusId))).toEqual([]);
    // The record stays; the account is gone everywhere else.
    expect((await admin.get(`/api/admin/users/${user.id}/storage`)).status).toBe(404);
    const audit = await seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', user.id).execute();
    expect(audit.map((a) => [a.action, JSON.parse(a.before!)])).toEqual([['user.delete', { email, name: 'Test User', role: 'user' }]]);
    // Someone else's files are untouched.
    expect(await seed.blobs.stat(kept.blobKey)).not.toBeNull();
    expect((await bystander.client.get('/api/browse/folders/all')).body.data.map((i: any) => i.attributes.name)).toEqual(['not-mine.txt']);
    // The account is gone: a second start finds no one.
    const again = await admin.post(deletionUrl(user.id), { email });
    expect(again.status).toBe(404);
  });

  it('refuses an email that does not match with a 422, and changes nothing', async () => {
    const { client, user } = await registerUser(server.url);
    await seedFile(seed, user.id, { name: 'keep.txt' });
    for (const email of ['someone.else@example.test', user.attributes.email.replace('@', '@x')]) {
      const res = await admin.post(deletionUrl(user.id), { email });
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors.email[0]).toMatch(/does not match/);
    }
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await admin.get(deletionUrl(user.id))).body.data.attributes.state).toBe('none');
    expect(await seed.db.selectFrom('user_deletions').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', user.id).execute()).toEqual([]);
  });

  it.each([
    ['no email', {}, 'email', /Type the email/],
    ['an empty email', { email: '  ' }, 'email', /Type the email/],
    ['an email that is not text', { email: 42 }, 'email', /Type the email/],
    ['an unknown field', { email: 'x@example.test', force: true }, '_', /Unknown field: force/],
  ])('refuses %s with a 422', async (_label, body, field, message) => {
    const { client, user } = await registerUser(server.url);
    const res = await admin.post(deletionUrl(user.id), body);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[field][0]).toMatch(message);
    expect((await client.get('/api/user')).status).toBe(200);
  });

  it('never deletes the last administrator or the admin asking; another admin may be deleted', async () => {
    const me = (await admin.get('/api/user')).body.data;
    const alone = await admin.post(deletionUrl(me.id), { email: ADMIN.email });
    expect(alone.status).toBe(422);
    expect(alone.body.message).toMatch(/last administrator/);
    expect((await admin.get(deletionUrl(me.id))).body.data.meta).toEqual({ can_delete: false, refusal: { code: 'last_admin', message: expect.stringMatching(/last administrator/) } });

    const second = await registerUser(server.url);
    await seed.db.updateTable('users').set({ role: 'admin' }).where('id', '=', second.user.id).execute();
    const self = await second.client.post(deletionUrl(second.user.id), { email: second.email });
    expect(self.status).toBe(422);
    expect(self.body.message).toMatch(/your own account/);
    expect((await second.client.get(deletionUrl(second.user.id))).body.data.meta.refusal.code).toBe('self');
    // Now the first admin is not the last one either, but still may not delete themselves.
    expect((await admin.post(deletionUrl(me.id), { email: ADMIN.email })).body.message).toMatch(/your own account/);
    expect((await admin.get('/api/user')).status).toBe(200);

    expect((await admin.post(deletionUrl(second.user.id), { email: second.email })).status).toBe(202);
    expect((await second.client.get('/api/user')).status).toBe(401);
    await waitUntilDone(admin, second.user.id);
  });

  it('answers 404 for a user that never existed', async () => {
    const missing = randomUUID();
    expect((await admin.get(deletionUrl(missing))).status).toBe(404);
    const res = await admin.post(deletionUrl(missing), { email: 'nobody@example.test' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('The user was not found.');
  });

  it('a deletion left half done (blobs gone, their rows not) is finished by the resume job', async () => {
    const { user, email } = await registerUser(server.url);
    const folder = await seedFolder(seed, user.id, 'Work');
    const files = [];
    for (let i = 0; i < 12; i++) files.push(await seedFile(seed, user.id, { name: `f${i}.txt`, parentId: i % 2 ? folder : null, content: 'x'.repeat(100) }));
    // What the start writes in its transaction, then a crash after the first half of the blobs went.
    const at = new Date().toISOString();
    await seed.db
      .insertInto('user_deletions')
      .values({ id: randomUUID(), user_id: user.id, email, name: 'Test User', requested_by: 'someone', requested_by_name: 'Deletion Admin', state: 'running', files: 0, folders: 0, bytes: 0, shares: 0, upload_requests: 0, created_at: at, updated_at: at, finished_at: null })
      .execute();
    await seed.db.updateTable('users').set({ deletion_started_at: at }).where('id', '=', user.id).execute();
    await seed.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    for (const file of files.slice(0, 6)) await seed.blobs.delete(file.blobKey);
    expect((await admin.get(deletionUrl(user.id))).body.data.attributes).toMatchObject({ state: 'running', removed: { files: 0 } });

    expect(await resumeUserDeletions(seed)).toBeGreaterThanOrEqual(1);
    const done = await waitUntilDone(admin, user.id);
    expect(done.attributes.removed).toEqual({ files: 12, folders: 1, bytes: 1200, shares: 0, upload_requests: 0 });
    expect(await rowsOf(seed, user.id)).toEqual(NOTHING);
    expect(await blobsOf(server, user.id)).toEqual([]);
  });
});

describe('a deletion cut short by a crash', () => {
  it('is taken up again after the restart and removes the rest', async () => {
    const crashing = await startServer({ env: { ...ADMIN_ENV, CLOUD_DRIVE_FAULT: 'user-deletion-after-batch' } });
    let restarted: RunningServer | null = null;
    try {
      const adminClient = await signIn(crashing, ADMIN.email, ADMIN.password);
      const { user, email } = await registerUser(crashing.url);
      await withSeed(crashing, async (ctx) => {
        const folder = await seedFolder(ctx, user.id, 'Many');
        for (let i = 0; i < 150; i++) await seedFile(ctx, user.id, { name: `n${i}.txt`, parentId: i < 75 ? folder : null, content: 'y'.repeat(10) });
      });
      expect((await adminClient.post(deletionUrl(user.id), { email })).status).toBe(202);
      await expect.poll(() => crashing.logs.some((l) => l.includes('fault injection')), { timeout: 20_000 }).toBe(true);
      await crashing.kill();
      const halfway = await withSeed(crashing, async (ctx) => ({
        job: await ctx.db.selectFrom('user_deletions').select(['state', 'files']).where('user_id', '=', user.id).executeTakeFirstOrThrow(),
        items: (await rowsOf(ctx, user.id)).items,
      }));
      expect(halfway.job).toEqual({ state: 'running', files: 100 });
      expect(halfway.items).toBe(51);
      expect(await blobsOf(crashing, user.id)).toHaveLength(50);

      restarted = await startServer({ reuse: crashing, env: ADMIN_ENV });
      const done = await waitUntilDone(adminClient, user.id);
      expect(done.attributes.removed).toEqual({ files: 150, folders: 1, bytes: 1500, shares: 0, upload_requests: 0 });
      expect(await withSeed(restarted, (ctx) => rowsOf(ctx, user.id))).toEqual(NOTHING);
      expect(await blobsOf(restarted, user.id)).toEqual([]);
    } finally {
      if (restarted) await restarted.stop();
      else await crashing.stop();
    }
  });
});
