import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedContext, seedFile } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { authHeaders, deterministicBytes, tusMetadata, uploadForm } from '../support/uploads.ts';

/**
 * The admin's Storage tab API (GET/PATCH /api/admin/users/{id}/storage): a user's own storage limit
 * is what every upload path and every usage figure counts against; the restriction flags an admin
 * switches off are enforced at once; every change is audited; bad input changes nothing.
 */
const ADMIN = { email: 'storage-admin@example.test', password: 'storage admin password' };
const MiB = 1024 * 1024;
const GiB = 1024 ** 3;

let server: RunningServer;
let seed: AppContext;
let admin: Client;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Storage Admin' } });
  seed = await seedContext(server);
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

const url = (id: string) => `/api/admin/users/${id}/storage`;
const patch = (id: string, json: unknown) => admin.request(url(id), { method: 'PATCH', json });
const userRow = (id: string) => seed.db.selectFrom('users').select(['storage_limit_bytes', 'restrictions', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
const auditOf = (id: string) => seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).orderBy('created_at').execute();

function tusCreate(client: Client, size: number) {
  return fetch(`${server.url}/api/upload/tus`, {
    method: 'POST',
    headers: { ...authHeaders(client), 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata({ filename: 'big.bin' }) },
  });
}

/** The config the signed-in app gets with its page (SPEC §3): storageLimit is the user's own capacity. */
async function pageConfig(client: Client): Promise<{ storageLimit: number }> {
  const page = await client.request('/platform/files', { headers: { Accept: 'text/html' }, xrw: false });
  const json = /<script type="application\/json" id="app-config">(.*?)<\/script>/s.exec(page.text)?.[1];
  return JSON.parse(json!);
}

describe('the storage tab', () => {
  it('shows the usage by kind, the limit that applies (the instance default) and the flags', async () => {
    const { user } = await registerUser(server.url);
    await seedFile(seed, user.id, { name: 'photo.png', mimetype: 'image/png', content: Buffer.alloc(3000, 1) });
    await seedFile(seed, user.id, { name: 'notes.txt', mimetype: 'text/plain', content: 'x'.repeat(500) });
    const res = await admin.get(url(user.id));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({
      email: user.attributes.email,
      storage_limit_bytes: null,
      default_storage_limit_bytes: 5 * GiB,
      capacity: 5 * GiB,
      used: 3500,
      restrictions: { canUpload: true, canDownload: true, canCreateFolder: true, canCreateTeamFolder: true },
    });
    expect(res.body.data.relationships.usage.data.meta).toMatchObject({ images: { used: 3000 }, documents: { used: 500 }, videos: { used: 0 } });
    expect(res.body.meta.warnings).toEqual([]);
  });

  it('a 1 MB limit refuses a 2 MB upload (plain, multipart and tus) and is the capacity the user sees', async () => {
    const { client, user } = await registerUser(server.url);
    const res = await patch(user.id, { storage_limit_bytes: MiB });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ storage_limit_bytes: MiB, capacity: MiB });
    expect(res.body.meta.warnings).toEqual([]);

    const form = await uploadForm(client, deterministicBytes(1, 0, 2 * MiB), { filename: 'two.bin' });
    expect(form.status, form.text).toBe(423);
    expect(form.body).toMatchObject({ code: 'storage_limit_exceeded', message: 'There is not enough storage space left for this file.' });
    const raw = await client.request('/api/upload', { method: 'POST', body: new Uint8Array(deterministicBytes(2, 0, 2 * MiB)), headers: { 'Content-Type': 'application/octet-stream', 'X-File-Name': 'raw.bin' } });
    expect(raw.status, raw.text).toBe(423);
    const tus = await tusCreate(client, 2 * MiB);
    expect(tus.status).toBe(423);
    expect(await tus.json()).toMatchObject({ code: 'storage_limit_exceeded' });
    // Within the limit it goes through.
    expect((await uploadForm(client, deterministicBytes(3, 0, 100_000), { filename: 'small.bin' })).status).toBe(201);

    const own = await client.get('/api/user/storage');
    expect(own.body.data.attributes).toMatchObject({ capacity: MiB, used: 100_000 });
    expect((await pageConfig(client)).storageLimit).toBe(MiB);
  });

  it('0 is no limit, even when the instance default is smaller than the upload; null goes back to the default', async () => {
    const { client, user } = await registerUser(server.url);
    await putSetting(seed, 'default_storage_limit_bytes', MiB);
    try {
      expect((await uploadForm(client, deterministicBytes(4, 0, 2 * MiB), { filename: 'refused.bin' })).status).toBe(423);
      const res = await patch(user.id, { storage_limit_bytes: 0 });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.attributes).toMatchObject({ storage_limit_bytes: 0, capacity: 0, default_storage_limit_bytes: MiB });
      const ok = await uploadForm(client, deterministicBytes(4, 0, 2 * MiB), { filename: 'unlimited.bin' });
      expect(ok.status, ok.text).toBe(201);
      expect((await client.get('/api/user/storage')).body.data.attributes).toMatchObject({ capacity: 0, used: 2 * MiB, percentage: 0 });
      expect((await pageConfig(client)).storageLimit).toBe(0);

      const back = await patch(user.id, { storage_limit_bytes: null });
      expect(back.status).toBe(200);
      expect(back.body.data.attributes).toMatchObject({ storage_limit_bytes: null, capacity: MiB });
      expect((await userRow(user.id)).storage_limit_bytes).toBeNull();
      expect((await uploadForm(client, 'x', { filename: 'one-more.txt' })).status).toBe(423);
    } finally {
      await putSetting(seed, 'default_storage_limit_bytes', 5 * GiB);
    }
  });

  it('a limit below what the user stores is saved with a warning; their uploads are then refused with the quota message', async () => {
    const { client, user } = await registerUser(server.url);
    expect((await uploadForm(client, deterministicBytes(5, 0, 300_000), { filename: 'kept.bin' })).status).toBe(201);
    const res = await patch(user.id, { storage_limit_bytes: 100_000 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ capacity: 100_000, used: 300_000 });
    expect(res.body.meta.warnings).toEqual([{ code: 'quota_below_usage', message: expect.stringMatching(/below what this user stores/) }]);
    const refused = await uploadForm(client, 'a', { filename: 'tiny.txt' });
    expect(refused.status).toBe(423);
    expect(refused.body).toMatchObject({ code: 'storage_limit_exceeded', message: 'There is not enough storage space left for this file.' });
    // The files already there stay.
    expect((await client.get('/api/user/storage')).body.data.attributes.used).toBe(300_000);
  });

  it('the flags an admin switches off are enforced at once: uploads, folders, downloads; switched on again they work', async () => {
    const { client, user } = await registerUser(server.url);
    const file = await seedFile(seed, user.id, { name: 'readme.txt', mimetype: 'text/plain' });
    const off = await patch(user.id, { restrictions: { canUpload: false, canCreateFolder: false, canDownload: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.data.attributes.restrictions).toEqual({ canUpload: false, canDownload: false, canCreateFolder: false, canCreateTeamFolder: true });
    expect((await client.get('/api/user')).body.data.meta.restrictions).toMatchObject({ canUpload: false, canDownload: false, canCreateFolder: false });

    const upload = await uploadForm(client, 'hello', { filename: 'hello.txt' });
    expect(upload.status).toBe(423);
    expect(upload.body).toMatchObject({ code: 'exceed_upload_limit' });
    expect((await tusCreate(client, 10)).status).toBe(423);
    const folder = await client.post('/api/create-folder', { name: 'New' });
    expect(folder.status).toBe(423);
    expect(folder.body.code).toBe('create_folder_temporarily_disabled');
    const download = await client.request(`/file/${file.id}`, { xrw: false });
    expect(download.status).toBe(403);
    expect(download.body.code).toBe('download_temporarily_disabled');

    const on = await patch(user.id, { restrictions: { canUpload: true, canCreateFolder: true, canDownload: true } });
    expect(on.body.data.attributes.restrictions).toMatchObject({ canUpload: true, canDownload: true, canCreateFolder: true });
    expect((await userRow(user.id)).restrictions).toBeNull();
    expect((await uploadForm(client, 'hello', { filename: 'hello.txt' })).status).toBe(201);
    await mkdir(client, 'New');
    expect((await client.request(`/file/${file.id}`, { xrw: false })).status).toBe(200);
  });

  it('records each change with its values before and after, and nothing for a change that changes nothing', async () => {
    const { user } = await registerUser(server.url);
    await patch(user.id, { storage_limit_bytes: 2 * GiB });
    await patch(user.id, { storage_limit_bytes: 0, restrictions: { canUpload: false } });
    await patch(user.id, { storage_limit_bytes: 0, restrictions: { canUpload: false } });
    const rows = await auditOf(user.id);
    // The second call's two entries share its transaction's moment: compare them as a set.
    const entries = rows.map((r) => [r.action, JSON.parse(r.before!), JSON.parse(r.after!)]);
    expect(entries[0]).toEqual(['user.quota', { storage_limit_bytes: null }, { storage_limit_bytes: 2 * GiB }]);
    expect(entries.slice(1)).toHaveLength(2);
    expect(entries.slice(1)).toEqual(
      expect.arrayContaining([
        ['user.quota', { storage_limit_bytes: 2 * GiB }, { storage_limit_bytes: 0 }],
        ['user.restrictions', { canUpload: true }, { canUpload: false }],
      ]),
    );
    expect(rows.every((r) => r.target_type === 'user' && r.target_label === user.attributes.email && r.actor_name === 'Storage Admin')).toBe(true);
    const listed = await admin.get(`/api/admin/audit?target_type=user&target_id=${user.id}`);
    expect(listed.body.data.map((e: any) => e.attributes.action).sort()).toEqual(['user.quota', 'user.quota', 'user.restrictions']);
  });

  it.each([
    ['a negative limit', { storage_limit_bytes: -1 }, 'storage_limit_bytes', /negative/],
    ['a fraction of a byte', { storage_limit_bytes: 1.5 }, 'storage_limit_bytes', /whole number/],
    ['a limit as text', { storage_limit_bytes: '1000' }, 'storage_limit_bytes', /number of bytes/],
    ['an absurd limit', { storage_limit_bytes: 2 ** 51 }, 'storage_limit_bytes', /at most/],
    ['an unknown flag', { restrictions: { canFly: false } }, 'restrictions', /Unknown restriction: canFly/],
    ['a flag that is not true or false', { restrictions: { canUpload: 'no' } }, 'restrictions.canUpload', /true or false/],
    ['flags that are not an object', { restrictions: [false] }, 'restrictions', /object of flags/],
    ['an unknown field', { role: 'admin' }, '_', /Unknown field: role/],
    ['nothing to change', {}, '_', /storage_limit_bytes or restrictions/],
  ])('refuses %s with a 422 naming the field, and changes nothing', async (_label, body, field, message) => {
    const { user } = await registerUser(server.url);
    const before = await userRow(user.id);
    const res = await patch(user.id, body);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[field]?.[0], JSON.stringify(res.body)).toMatch(message);
    expect(await userRow(user.id)).toEqual(before);
    expect(await auditOf(user.id)).toEqual([]);
  });

  it('answers 404 for a user that does not exist, and 403 to someone who is not an admin', async () => {
    const missing = randomUUID();
    expect((await admin.get(url(missing))).status).toBe(404);
    const res = await patch(missing, { storage_limit_bytes: MiB });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('The user was not found.');
    const member = await registerUser(server.url);
    const refused = await member.client.request(url(member.user.id), { method: 'PATCH', json: { storage_limit_bytes: 0 } });
    expect(refused.status).toBe(403);
    expect((await userRow(member.user.id)).storage_limit_bytes).toBeNull();
  });
});
