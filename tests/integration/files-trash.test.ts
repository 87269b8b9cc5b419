import { describe, expect, it } from 'vitest';
import { purgeExpiredTrash } from '../../src/server/files/purge.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { registerUser, type Client } from '../support/client.ts';
import { browse, mkdir, trashTop } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

/** Whether the blob is in the server's store (the disk, or S3 with TEST_STORAGE=s3). */
const blobStored = async (key: string) => (await env.seed.blobs.stat(key)) !== null;
const trash = (client: Client, ...items: [string, 'folder' | 'file'][]) => client.post('/api/remove', { items: items.map(([id, type]) => ({ id, type })) });
const restore = (client: Client, items: [string, 'folder' | 'file'][], toHome = false) =>
  client.post('/api/trash/restore', { to_home: toHome, items: items.map(([id, type]) => ({ id, type })) });
const searchNames = async (client: Client, query: string) => (await client.get(`/api/search?query=${query}`)).body.data.map((i: any) => i.attributes.name);

describe('trash and restore', () => {
  it('trashes a folder with its subtree, hides it everywhere, and restores it whole to where it was', async () => {
    const { client, user } = await registerUser(env.server.url);
    const a = await mkdir(client, 'Alpha');
    const b = await mkdir(client, 'Bravo', a);
    await mkdir(client, 'Charlie', b);
    await seedFile(env.seed, user.id, { name: 'secret.txt', parentId: b });

    expect((await trash(client, [a, 'folder'])).status).toBe(204);
    expect((await browse(client)).names).toEqual([]);
    expect((await client.get(`/api/browse/folders/${a}`)).status).toBe(404);
    expect((await client.get(`/api/browse/folders/${b}`)).status).toBe(404);
    expect((await client.get('/api/browse/navigation')).body.data).toEqual([]);
    expect(await searchNames(client, 'secret')).toEqual([]);
    expect(await searchNames(client, 'bravo')).toEqual([]);
    expect((await client.get('/api/browse/latest')).body.data).toEqual([]);
    expect(await trashTop(client)).toEqual(['Alpha']);
    const inTrash = await client.get(`/api/browse/trash/${a}`);
    expect(inTrash.body.data.map((i: any) => i.attributes.name)).toEqual(['Bravo']);
    expect(inTrash.body.meta.root).toMatchObject({ id: a, attributes: { deleted_at: expect.any(String), items: 1 } });
    // Something trashed cannot be renamed, moved or trashed again.
    expect((await client.post(`/api/rename/${b}`, { _method: 'patch', name: 'x' })).status).toBe(404);
    expect((await trash(client, [a, 'folder'])).status).toBe(422);

    const restored = await restore(client, [[a, 'folder']]);
    expect(restored.status).toBe(200);
    expect(restored.body.data[0].attributes).toMatchObject({ name: 'Alpha', parent_id: null, deleted_at: null });
    expect(await trashTop(client)).toEqual([]);
    expect((await browse(client, a)).names).toEqual(['Bravo']);
    expect((await browse(client, b)).names).toEqual(['Charlie', 'secret.txt']);
    expect(await searchNames(client, 'secret')).toEqual(['secret.txt']);
  });

  it('sorts the trash by when things went there, page by page', async () => {
    const { client } = await registerUser(env.server.url);
    const names = ['Zulu', 'Alpha', 'Mike'];
    for (const name of names) {
      const id = await mkdir(client, name);
      expect((await trash(client, [id, 'folder'])).status).toBe(204);
      // Each its own millisecond, so the order is the order of trashing.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const list = async (direction: string) => (await client.get(`/api/browse/trash/all?sort=deleted_at&direction=${direction}`)).body.data.map((i: any) => i.attributes.name);
    expect(await list('asc')).toEqual(names);
    expect(await list('desc')).toEqual([...names].reverse());
    const first = await client.get('/api/browse/trash/all?sort=deleted_at&direction=desc&limit=2');
    expect(first.body.data.map((i: any) => i.attributes.name)).toEqual(['Mike', 'Alpha']);
    const next = await client.get(`/api/browse/trash/all?sort=deleted_at&direction=desc&limit=2&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
    expect(next.body.data.map((i: any) => i.attributes.name)).toEqual(['Zulu']);
    expect((await client.get('/api/browse/trash/all?sort=trashed_when')).status).toBe(422);
  });

  it('keeps what was trashed on its own in the trash when its folder is restored', async () => {
    const { client } = await registerUser(env.server.url);
    const a = await mkdir(client, 'Outer');
    const inner = await mkdir(client, 'Inner', a);
    const kept = await mkdir(client, 'Kept', a);
    await trash(client, [inner, 'folder']);
    await trash(client, [a, 'folder']);
    expect((await trashTop(client)).sort()).toEqual(['Inner', 'Outer']);
    expect((await client.get(`/api/browse/trash/${a}`)).body.data.map((i: any) => i.attributes.name).sort()).toEqual(['Inner', 'Kept']);

    await restore(client, [[a, 'folder']]);
    expect((await browse(client, a)).names).toEqual(['Kept']);
    expect(await trashTop(client)).toEqual(['Inner']);
    // Its folder is back, so it goes back there.
    await restore(client, [[inner, 'folder']]);
    expect((await browse(client, a)).names.sort()).toEqual(['Inner', 'Kept']);
    expect(kept).toBeTruthy();
  });

  it('restores home when the original folder is in the trash, or when to_home is set; clashes take the next free name', async () => {
    const { client, user } = await registerUser(env.server.url);
    const parent = await mkdir(client, 'Parent');
    const child = await mkdir(client, 'Child', parent);
    const file = await seedFile(env.seed, user.id, { name: 'memo.txt', parentId: parent });
    await trash(client, [child, 'folder']);
    await trash(client, [parent, 'folder']);
    const res = await restore(client, [[child, 'folder']]);
    expect(res.body.data[0].attributes).toMatchObject({ name: 'Child', parent_id: null });
    expect((await browse(client)).names).toEqual(['Child']);

    // Restored together with the folder it was trashed with, an item stays inside it, whatever the order.
    const box = await mkdir(client, 'Box');
    const boxed = await mkdir(client, 'Boxed', box);
    await trash(client, [box, 'folder']);
    await restore(client, [[boxed, 'folder'], [box, 'folder']]);
    expect((await browse(client, box)).names).toEqual(['Boxed']);

    // The memo was trashed with Parent; restored by itself it goes home too.
    await seedFile(env.seed, user.id, { name: 'memo.txt' });
    const memo = await restore(client, [[file.id, 'file']]);
    expect(memo.body.data[0].attributes).toMatchObject({ name: 'memo (1).txt', parent_id: null });

    await restore(client, [[parent, 'folder']]);
    const other = await mkdir(client, 'Other', parent);
    await trash(client, [other, 'folder']);
    const home = await restore(client, [[other, 'folder']], true);
    expect(home.body.data[0].attributes.parent_id).toBeNull();
    expect((await browse(client, parent)).names).toEqual([]);
  });
});

describe('deleting for good', () => {
  it('force_delete removes a trashed folder, its subtree and the blobs on disk', async () => {
    const { client, user } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'Doomed');
    const sub = await mkdir(client, 'Sub', folder);
    const f1 = await seedFile(env.seed, user.id, { name: 'one.bin', parentId: folder });
    const f2 = await seedFile(env.seed, user.id, { name: 'two.bin', parentId: sub });
    const keep = await seedFile(env.seed, user.id, { name: 'keep.bin' });
    expect((await blobStored(f1.blobKey)) && (await blobStored(f2.blobKey))).toBe(true);

    await trash(client, [folder, 'folder']);
    const res = await client.post('/api/remove', { items: [{ id: folder, type: 'folder', force_delete: true }] });
    expect(res.status).toBe(204);
    expect(await trashTop(client)).toEqual([]);
    expect(await blobStored(f1.blobKey)).toBe(false);
    expect(await blobStored(f2.blobKey)).toBe(false);
    expect(await blobStored(keep.blobKey)).toBe(true);
    expect((await client.get(`/api/browse/trash/${folder}`)).status).toBe(404);
    // A live item can be deleted for good directly too.
    await client.post('/api/remove', { items: [{ id: keep.id, type: 'file', force_delete: true }] });
    expect(await blobStored(keep.blobKey)).toBe(false);
    expect((await browse(client)).names).toEqual([]);
  });

  it('empties the trash for good and leaves live files alone', async () => {
    const { client, user } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'Old');
    const inside = await seedFile(env.seed, user.id, { name: 'inside.txt', parentId: folder });
    const loose = await seedFile(env.seed, user.id, { name: 'loose.txt' });
    const live = await seedFile(env.seed, user.id, { name: 'live.txt' });
    await trash(client, [folder, 'folder'], [loose.id, 'file']);
    const other = await registerUser(env.server.url);
    const othersFile = await seedFile(env.seed, other.user.id, { name: 'theirs.txt' });
    await trash(other.client, [othersFile.id, 'file']);

    const res = await client.post('/api/trash/dump', { _method: 'delete' });
    expect(res.status).toBe(204);
    expect(await trashTop(client)).toEqual([]);
    expect((await blobStored(inside.blobKey)) || (await blobStored(loose.blobKey))).toBe(false);
    expect(await blobStored(live.blobKey)).toBe(true);
    expect((await browse(client)).names).toEqual(['live.txt']);
    // The other user's trash is untouched.
    expect(await trashTop(other.client)).toEqual(['theirs.txt']);
    expect(await blobStored(othersFile.blobKey)).toBe(true);
  });

  it('purges items trashed longer ago than the retention setting, with their blobs', async () => {
    const { client, user } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'Aging');
    const file = await seedFile(env.seed, user.id, { name: 'aging.txt', parentId: folder });
    await trash(client, [folder, 'folder']);
    const at = (days: number) => ({ ...env.seed, clock: { now: () => new Date(Date.now() + days * 24 * 60 * 60_000) } });

    expect((await purgeExpiredTrash(at(29))).items).toBe(0);
    expect(await trashTop(client)).toEqual(['Aging']);
    await putSetting(env.seed, 'trash_retention_days', 0); // 0 keeps the trash forever
    expect((await purgeExpiredTrash(at(400))).items).toBe(0);
    await putSetting(env.seed, 'trash_retention_days', 30);
    expect((await purgeExpiredTrash(at(31))).items).toBeGreaterThanOrEqual(2);
    expect(await trashTop(client)).toEqual([]);
    expect(await blobStored(file.blobKey)).toBe(false);
  });
});

describe('favourites', () => {
  it('adds favourite folders to the user resource, hides trashed ones, and removes them', async () => {
    const { client } = await registerUser(env.server.url);
    const a = await mkdir(client, 'Fav A');
    const b = await mkdir(client, 'Fav B');
    const added = await client.post('/api/folders/favourites', { folders: [a, b, a] });
    expect(added.status).toBe(200);
    expect(added.body.data.relationships.favourites.data.map((f: any) => f.attributes.name)).toEqual(['Fav A', 'Fav B']);
    const favourites = async () => (await client.get('/api/user')).body.data.relationships.favourites.data.map((f: any) => f.id);
    expect(await favourites()).toEqual([a, b]);

    await trash(client, [b, 'folder']);
    expect(await favourites()).toEqual([a]);
    await restore(client, [[b, 'folder']]);
    expect(await favourites()).toEqual([a, b]);

    expect((await client.post(`/api/folders/favourites/${a}`, { _method: 'delete' })).status).toBe(204);
    expect(await favourites()).toEqual([b]);
    await client.post('/api/remove', { items: [{ id: b, type: 'folder', force_delete: true }] });
    expect(await favourites()).toEqual([]);
  });
});
