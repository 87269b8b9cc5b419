import { describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { browse, mkdir, snapshot } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';
import { tusAsTokenHolder, uploadTo } from '../support/shares.ts';

const env = useSeededServer();

async function request(body: Record<string, unknown> = {}) {
  const owner = await registerUser(env.server.url);
  const folder = await mkdir(owner.client, 'Inbox');
  const sibling = await mkdir(owner.client, 'Private');
  const own = await seedFile(env.seed, owner.user.id, { name: 'owners.txt', parentId: folder });
  const secret = await seedFile(env.seed, owner.user.id, { name: 'secret.txt', parentId: sibling });
  const res = await owner.client.post('/api/upload-request', { folder_id: folder, ...body });
  expect(res.status, res.text).toBe(201);
  const token = res.body.data.attributes.token as string;
  return { owner, folder, sibling, own, secret, token, created: res.body.data, guest: new Client(env.server.url), base: `/api/upload-request/${token}` };
}

const notifications = (userId: string) => env.seed.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('category', '=', 'file-request').execute();

describe('upload requests', () => {
  it('creates a request into an existing folder or a new one named for it, and emails the recipient', async () => {
    const { created, folder } = await request({ notes: 'Your tax papers', email: 'friend@example.test' });
    expect(created.attributes).toMatchObject({ status: 'active', notes: 'Your tax papers', email: 'friend@example.test' });
    expect(created.attributes.token).toMatch(/^[a-z2-7]{39}$/);
    expect(created.relationships.folder.data.id).toBe(folder);
    expect(Date.parse(created.attributes.expires_at) - Date.now()).toBeGreaterThan(71 * 3600_000);
    const owner = await registerUser(env.server.url);
    const fresh = await owner.client.post('/api/upload-request', { name: 'Holiday photos', expiration: 24 });
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.body.data.relationships.folder.data.attributes.name).toBe('Holiday photos');
    expect((await browse(owner.client)).names).toEqual(['Holiday photos']);
  });

  it('refuses bad input, another user’s folder and a signed-out client, making nothing', async () => {
    const { client } = await registerUser(env.server.url);
    const other = await registerUser(env.server.url);
    const theirs = await mkdir(other.client, 'Theirs');
    const before = await snapshot(client);
    for (const body of [{ expiration: 0 }, { expiration: 'x' }, { email: 'nope' }, { name: '../x' }, { notes: 'n'.repeat(3000) }]) {
      expect((await client.post('/api/upload-request', body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await client.post('/api/upload-request', { folder_id: theirs })).status).toBe(404);
    expect((await new Client(env.server.url).post('/api/upload-request', {})).status).toBe(401);
    expect(await snapshot(client)).toBe(before);
  });

  it('lets the holder upload, create folders, rename, move and remove what they uploaded, and tells the owner', async () => {
    const { guest, base, owner, folder } = await request();
    const info = await guest.get(base);
    expect(info.status).toBe(200);
    expect(info.body.data.attributes).toMatchObject({ status: 'active', owner_name: 'Test User' });
    expect(info.body.data.attributes.email).toBeUndefined();
    const up = await uploadTo(guest, `${base}/upload`, 'scan', {}, 'scan.pdf');
    expect(up.status, up.text).toBe(201);
    expect(up.body.data.attributes.parent_id).toBe(folder);
    expect(up.body.data.attributes.file_url).toBeNull();
    const sub = await guest.post(`${base}/create-folder`, { name: 'Receipts' });
    expect(sub.status, sub.text).toBe(201);
    expect((await guest.post(`${base}/rename/${up.body.data.id}`, { _method: 'patch', name: 'scan-2024.pdf' })).status).toBe(200);
    expect((await guest.post(`${base}/move`, { to_id: sub.body.data.id, items: [{ id: up.body.data.id, type: 'file' }] })).status).toBe(200);
    const list = await guest.get(`${base}/browse/${sub.body.data.id}?sort=name&direction=asc`);
    expect(list.body.data.map((i: any) => i.attributes.name)).toEqual(['scan-2024.pdf']);
    const tree = await guest.get(`${base}/navigation`);
    expect(tree.body.data[0].folders.map((f: any) => f.name)).toEqual(['Receipts']);
    const second = await uploadTo(guest, `${base}/upload`, 'oops', { parent_id: sub.body.data.id }, 'oops.txt');
    expect((await guest.post(`${base}/remove`, { items: [{ id: second.body.data.id, type: 'file' }] })).status).toBe(204);
    expect((await browse(owner.client, sub.body.data.id)).names).toEqual(['scan-2024.pdf']);
    // One notice for the session, counting both files.
    const notes = await notifications(owner.user.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ count: 2, description: '2 files arrived in "Inbox", the latest "oops.txt".' });
    expect(JSON.parse(notes[0]!.action!)).toMatchObject({ type: 'route', params: { id: folder } });
    // Once the owner has read it, the next file starts a new one.
    expect((await owner.client.post('/api/user/notifications/read', {})).status).toBeLessThan(300);
    await uploadTo(guest, `${base}/upload`, 'late', {}, 'late.txt');
    const after = await notifications(owner.user.id);
    expect(after).toHaveLength(2);
    expect(after.find((n) => n.read_at === null)).toMatchObject({ count: 1, description: '"late.txt" arrived in "Inbox".' });
  });

  it('never lets the holder change the owner’s own files, or reach outside the folder', async () => {
    const { guest, base, owner, own, sibling, secret, folder } = await request();
    const other = await registerUser(env.server.url);
    const theirs = await mkdir(other.client, 'Theirs');
    const before = await snapshot(owner.client);
    expect((await guest.post(`${base}/rename/${own.id}`, { _method: 'patch', name: 'mine.txt' })).status).toBe(403);
    expect((await guest.post(`${base}/remove`, { items: [{ id: own.id, type: 'file' }] })).status).toBe(403);
    expect((await guest.post(`${base}/rename/${folder}`, { _method: 'patch', name: 'Mine' })).status).toBe(403);
    for (const id of [sibling, theirs]) {
      const res = await guest.get(`${base}/browse/${id}`);
      expect(res.status).toBe(404);
      expect(res.text).not.toMatch(/Private|Theirs/);
      expect((await guest.post(`${base}/create-folder`, { name: 'X', parent_id: id })).status).toBe(404);
      expect((await uploadTo(guest, `${base}/upload`, 'x', { parent_id: id })).status).toBe(404);
    }
    expect((await guest.post(`${base}/rename/${secret.id}`, { _method: 'patch', name: 'x' })).status).toBe(404);
    const up = await uploadTo(guest, `${base}/upload`, 'x', {}, 'x.txt');
    expect((await guest.post(`${base}/move`, { to_id: sibling, items: [{ id: up.body.data.id, type: 'file' }] })).status).toBe(404);
    expect((await guest.post(`${base}/create-folder`, { name: '../up' })).status).toBe(422);
    // Only the upload changed the owner's files.
    await guest.post(`${base}/remove`, { items: [{ id: up.body.data.id, type: 'file' }] });
    expect(JSON.parse(await snapshot(owner.client))[0]).toEqual(JSON.parse(before)[0]);
  });

  it('takes tus uploads with the request token, records and announces them, and refuses them once filled', async () => {
    const { guest, base, token, owner, folder } = await request();
    const done = await tusAsTokenHolder(env.server.url, { 'X-Upload-Request-Token': token }, 'resumable', { filename: 'video.bin' });
    expect(done.created, done.text).toBe(201);
    expect(done.item.data.attributes.parent_id).toBe(folder);
    expect((await guest.post(`${base}/rename/${done.item.data.id}`, { _method: 'patch', name: 'clip.bin' })).status).toBe(200);
    expect(await notifications(owner.user.id)).toHaveLength(1);
    await guest.request(base, { method: 'DELETE' });
    expect((await tusAsTokenHolder(env.server.url, { 'X-Upload-Request-Token': token }, 'x', { filename: 'late.bin' })).created).toBe(423);
  });

  it('answers guessed and truncated tokens 404', async () => {
    const { token } = await request();
    const guest = new Client(env.server.url);
    for (const t of ['d'.repeat(39), token.slice(0, 30), `${token}x`]) {
      expect((await guest.get(`/api/upload-request/${t}`)).status).toBe(404);
      expect((await guest.get(`/api/upload-request/${t}/browse/all`)).status).toBe(404);
      expect((await uploadTo(guest, `/api/upload-request/${t}/upload`, 'x')).status).toBe(404);
    }
  });

  it('once filled, loads empty and refuses every write', async () => {
    const { guest, base, owner } = await request();
    const up = await uploadTo(guest, `${base}/upload`, 'x', {}, 'x.txt');
    const closed = await guest.request(base, { method: 'DELETE' });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.data.attributes.status).toBe('filled');
    expect((await guest.get(base)).body.data.attributes.status).toBe('filled');
    expect((await guest.get(`${base}/browse/all`)).body.data).toEqual([]);
    expect((await guest.get(`${base}/navigation`)).body.data).toEqual([]);
    const before = await snapshot(owner.client);
    expect((await uploadTo(guest, `${base}/upload`, 'y', {}, 'y.txt')).status).toBe(423);
    expect((await guest.post(`${base}/create-folder`, { name: 'Late' })).status).toBe(423);
    expect((await guest.post(`${base}/rename/${up.body.data.id}`, { _method: 'patch', name: 'z.txt' })).status).toBe(423);
    expect((await guest.post(`${base}/remove`, { items: [{ id: up.body.data.id, type: 'file' }] })).status).toBe(423);
    expect(await snapshot(owner.client)).toBe(before);
  });

  it('once expired, loads empty and refuses every write', async () => {
    const { guest, base, token } = await request({ expiration: 1 });
    await env.seed.db.updateTable('upload_requests').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token', '=', token).execute();
    expect((await guest.get(base)).body.data.attributes.status).toBe('expired');
    expect((await guest.get(`${base}/browse/all`)).body.data).toEqual([]);
    expect((await uploadTo(guest, `${base}/upload`, 'y')).status).toBe(423);
    expect((await guest.post(`${base}/create-folder`, { name: 'Late' })).status).toBe(423);
    expect((await guest.request(base, { method: 'DELETE' })).status).toBe(423);
  });

  it('refuses uploads past the owner’s quota (423) and cross-site uploads (403)', async () => {
    const { guest, base } = await request();
    expect((await uploadTo(guest, `${base}/upload`, 'x', {}, 'x.txt').then((r) => r.status))).toBe(201);
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    expect((await guest.request(`${base}/upload`, { method: 'POST', body: form, origin: 'https://evil.test' })).status).toBe(403);
    await putSetting(env.seed, 'default_storage_limit_bytes', 20);
    try {
      const res = await uploadTo(guest, `${base}/upload`, 'x'.repeat(100));
      expect(res.status).toBe(423);
      expect(res.body.code).toBe('storage_limit_exceeded');
    } finally {
      await putSetting(env.seed, 'default_storage_limit_bytes', 5 * 1024 ** 3);
    }
  });
});

describe('upload requests: the page', () => {
  it('serves /request/:token/upload, and 404 for an unknown token', async () => {
    const { guest, token, folder } = await request();
    const html = (p: string) => guest.request(p, { headers: { Accept: 'text/html' } });
    expect((await html(`/request/${token}/upload`)).status).toBe(200);
    expect((await html(`/request/${token}/upload/${folder}`)).status).toBe(200);
    expect((await html(`/request/${'g'.repeat(39)}/upload`)).status).toBe(404);
    expect((await html(`/request/${token}/upload/not-an-id`)).status).toBe(404);
  });
});
