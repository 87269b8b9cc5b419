import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser, type RequestOptions } from '../support/client.ts';
import { browse, mkdir, snapshot } from '../support/files.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface Call {
  label: string;
  path: string;
  method: 'GET' | 'POST';
  body?: unknown;
}

/** Every endpoint of the file platform, aimed at the owner's items. */
function calls(ids: { folder: string; child: string; trashed: string }): Call[] {
  const { folder, child, trashed } = ids;
  return [
    { label: 'browse folder', method: 'GET', path: `/api/browse/folders/${folder}` },
    { label: 'browse trash folder', method: 'GET', path: `/api/browse/trash/${trashed}` },
    { label: 'create folder in', method: 'POST', path: '/api/create-folder', body: { name: 'Intruder', parent_id: folder } },
    { label: 'rename', method: 'POST', path: `/api/rename/${child}`, body: { _method: 'patch', name: 'Renamed' } },
    { label: 'move item', method: 'POST', path: '/api/move', body: { to_id: null, items: [{ id: child, type: 'folder' }] } },
    { label: 'move into', method: 'POST', path: '/api/move', body: { to_id: folder, items: [{ id: trashed, type: 'folder' }] } },
    { label: 'remove', method: 'POST', path: '/api/remove', body: { items: [{ id: child, type: 'folder' }] } },
    { label: 'force delete', method: 'POST', path: '/api/remove', body: { items: [{ id: trashed, type: 'folder', force_delete: true }] } },
    { label: 'restore', method: 'POST', path: '/api/trash/restore', body: { items: [{ id: trashed, type: 'folder' }] } },
    { label: 'favourite', method: 'POST', path: '/api/folders/favourites', body: { folders: [folder] } },
    { label: 'unfavourite', method: 'POST', path: `/api/folders/favourites/${folder}`, body: { _method: 'delete' } },
  ];
}

/** Endpoints that only ever act on the caller's own things. */
const ownCalls: Call[] = [
  { label: 'home', method: 'GET', path: '/api/browse/folders/all' },
  { label: 'trash top', method: 'GET', path: '/api/browse/trash' },
  { label: 'latest', method: 'GET', path: '/api/browse/latest' },
  { label: 'navigation', method: 'GET', path: '/api/browse/navigation' },
  { label: 'search', method: 'GET', path: '/api/search?query=Owner' },
  { label: 'storage', method: 'GET', path: '/api/user/storage' },
  { label: 'dump', method: 'POST', path: '/api/trash/dump', body: { _method: 'delete' } },
];

const send = (client: Client, call: Call, options: RequestOptions = {}) =>
  client.request(call.path, { method: call.method, ...(call.body !== undefined ? { json: call.body } : {}), ...options });

async function ownerWithItems() {
  const owner = await registerUser(server.url);
  const folder = await mkdir(owner.client, 'Owner folder');
  const child = await mkdir(owner.client, 'Owner child', folder);
  const trashed = await mkdir(owner.client, 'Owner trashed');
  await mkdir(owner.client, 'Inside trashed', trashed);
  await owner.client.post('/api/remove', { items: [{ id: trashed, type: 'folder' }] });
  await owner.client.post('/api/folders/favourites', { folders: [folder] });
  return { owner, ids: { folder, child, trashed } };
}

describe('who may touch an item', () => {
  it('answers another user 404 on every item endpoint and changes nothing', async () => {
    const { owner, ids } = await ownerWithItems();
    const before = await snapshot(owner.client);
    const other = await registerUser(server.url);
    for (const call of calls(ids)) {
      const res = await send(other.client, call);
      expect(res.status, `${call.label}: ${res.text}`).toBe(404);
    }
    // Their own folder into the owner's folder, the owner's item into theirs.
    const mine = await mkdir(other.client, 'Mine');
    expect((await other.client.post('/api/move', { to_id: ids.folder, items: [{ id: mine, type: 'folder' }] })).status).toBe(404);
    expect((await other.client.post('/api/move', { to_id: mine, items: [{ id: ids.child, type: 'folder' }] })).status).toBe(404);
    expect(await snapshot(owner.client)).toBe(before);
    expect((await browse(owner.client, ids.folder)).names).toEqual(['Owner child']);
    expect((await owner.client.get('/api/user')).body.data.relationships.favourites.data).toHaveLength(1);
    // And sees none of it in their own lists.
    for (const call of ownCalls.filter((c) => c.method === 'GET')) {
      const res = await send(other.client, call);
      expect(res.status, call.label).toBe(200);
      expect(JSON.stringify(res.body), call.label).not.toContain('Owner');
    }
    expect((await owner.client.get('/api/browse/trash')).body.data).toHaveLength(1);
  });

  it('answers 401 to a signed-out client and to a wrong bearer token on every endpoint', async () => {
    const { owner, ids } = await ownerWithItems();
    const before = await snapshot(owner.client);
    for (const call of [...calls(ids), ...ownCalls]) {
      const anonymous = await send(new Client(server.url), call);
      expect(anonymous.status, `${call.label} signed out`).toBe(401);
      const wrong = await send(new Client(server.url), call, { bearer: 'cd_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', origin: null, xrw: false });
      expect(wrong.status, `${call.label} wrong token`).toBe(401);
    }
    expect(await snapshot(owner.client)).toBe(before);
  });

  it('serves a script holding a valid access token', async () => {
    const { client } = await registerUser(server.url);
    const token = (await client.post('/api/user/tokens', { name: 'sync' })).body.meta.token;
    const script = new Client(server.url);
    const opts = { bearer: token, origin: null, xrw: false } as const;
    const created = await script.request('/api/create-folder', { method: 'POST', json: { name: 'From script' }, ...opts });
    expect(created.status).toBe(201);
    const listed = await script.request('/api/browse/folders/all', { ...opts });
    expect(listed.body.data.map((i: any) => i.attributes.name)).toEqual(['From script']);
  });

  it('refuses a cookie client without X-Requested-With or from another origin', async () => {
    const { client } = await registerUser(server.url);
    expect((await client.post('/api/create-folder', { name: 'x' }, { xrw: false })).status).toBe(403);
    expect((await client.post('/api/create-folder', { name: 'x' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await browse(client)).names).toEqual([]);
  });
});
