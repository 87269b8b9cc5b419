import { describe, expect, it } from 'vitest';
import { setRestrictions } from '../../src/server/users/restrictions.ts';
import { registerUser } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';
import { share, uploadTo, visitor } from '../support/shares.ts';

const env = useSeededServer();

type Ability = 'rename' | 'move' | 'share' | 'delete' | 'download' | 'upload' | 'create_folder' | 'restore';
const ALL: Ability[] = ['rename', 'move', 'share', 'delete', 'download', 'upload', 'create_folder', 'restore'];
/** The abilities that are true, as a sorted list: easier to read in a failure than eight booleans. */
const yes = (item: any): string[] => ALL.filter((k) => item.meta?.abilities?.[k] === true).sort();
const only = (...abilities: Ability[]) => [...abilities].sort();
const byName = (data: any[]) => Object.fromEntries(data.map((i) => [i.attributes.name, yes(i)]));

/** An owner with Shared/{Inner/{deep.txt}, a.txt}. */
async function drive() {
  const owner = await registerUser(env.server.url);
  const shared = await mkdir(owner.client, 'Shared');
  const inner = await mkdir(owner.client, 'Inner', shared);
  const a = await seedFile(env.seed, owner.user.id, { name: 'a.txt', parentId: shared });
  await seedFile(env.seed, owner.user.id, { name: 'deep.txt', parentId: inner });
  return { owner, shared, inner, a };
}

const OWNER_FILE = only('rename', 'move', 'share', 'delete', 'download');
const OWNER_FOLDER = only('rename', 'move', 'share', 'delete', 'download', 'upload', 'create_folder');

describe('abilities in the owner’s listings', () => {
  it('gives the owner every action on a live item, in the folder, its root, latest, search, shared items and the tree', async () => {
    const { owner, shared } = await drive();
    const list = await owner.client.get(`/api/browse/folders/${shared}`);
    expect(list.status).toBe(200);
    expect(byName(list.body.data)).toEqual({ Inner: OWNER_FOLDER, 'a.txt': OWNER_FILE });
    expect(yes(list.body.meta.root)).toEqual(OWNER_FOLDER);
    expect(yes({ meta: list.body.meta })).toEqual(OWNER_FOLDER);
    const home = await owner.client.get('/api/browse/folders/all');
    expect(byName(home.body.data)).toEqual({ Shared: OWNER_FOLDER });
    expect(yes({ meta: home.body.meta })).toEqual(only('upload', 'create_folder'));
    expect(byName((await owner.client.get('/api/browse/latest')).body.data)).toEqual({ 'a.txt': OWNER_FILE, 'deep.txt': OWNER_FILE });
    expect(byName((await owner.client.get('/api/search?query=deep')).body.data)).toEqual({ 'deep.txt': OWNER_FILE });
    await share(owner.client, shared);
    expect(byName((await owner.client.get('/api/browse/share')).body.data)).toEqual({ Shared: OWNER_FOLDER });
    const tree = (await owner.client.get('/api/browse/navigation')).body.data;
    expect(tree[0].abilities).toMatchObject({ rename: true, upload: true, restore: false });
    const level = (await owner.client.get(`/api/browse/navigation?parent_id=${tree[0].id}`)).body.data;
    expect(level[0].abilities).toMatchObject({ move: true, create_folder: true });
  });

  it('follows the owner’s restriction flags', async () => {
    const { owner, shared } = await drive();
    await setRestrictions(env.seed, owner.user.id, { canUpload: false, canDownload: false, canCreateFolder: false });
    const list = await owner.client.get(`/api/browse/folders/${shared}`);
    expect(byName(list.body.data)).toEqual({ Inner: only('rename', 'move', 'share', 'delete'), 'a.txt': only('rename', 'move', 'share', 'delete') });
    expect(yes({ meta: (await owner.client.get('/api/browse/folders/all')).body.meta })).toEqual(only());
  });

  it('offers only restore and delete for good in the trash', async () => {
    const { owner, shared, inner, a } = await drive();
    const removed = await owner.client.post('/api/remove', { items: [{ id: a.id, type: 'file' }, { id: inner, type: 'folder' }] });
    expect(removed.status, removed.text).toBe(204);
    const trash = await owner.client.get('/api/browse/trash/all');
    expect(byName(trash.body.data)).toEqual({ Inner: only('restore', 'delete'), 'a.txt': only('restore', 'delete') });
    const inside = await owner.client.get(`/api/browse/trash/${inner}`);
    expect(byName(inside.body.data)).toEqual({ 'deep.txt': only('restore', 'delete') });
    expect(yes(inside.body.meta.root)).toEqual(only('restore', 'delete'));
    expect(byName((await owner.client.get(`/api/browse/folders/${shared}`)).body.data)).toEqual({});
  });
});

describe('abilities through a share link', () => {
  it('lets a visitor only download, on the root and below', async () => {
    const { owner, shared, inner } = await drive();
    const { token } = await share(owner.client, shared, { permission: 'visitor' });
    const guest = visitor(env.server.url);
    const list = await guest.get(`/api/browse/folders/all/${token}`);
    expect(list.status).toBe(200);
    expect(byName(list.body.data)).toEqual({ Inner: only('download'), 'a.txt': only('download') });
    expect(yes(list.body.meta.root)).toEqual(only('download'));
    expect(yes((await guest.get(`/api/browse/share/${token}`)).body.data.relationships.item.data)).toEqual(only('download'));
    expect(byName((await guest.get(`/api/browse/folders/${inner}/${token}`)).body.data)).toEqual({ 'deep.txt': only('download') });
    expect((await guest.get(`/api/browse/navigation/${token}`)).body.data[0].abilities).toMatchObject({ download: true, upload: false, rename: false });
  });

  it('lets an editor change what lies below the root and upload into the root, never share', async () => {
    const { owner, shared } = await drive();
    const { token } = await share(owner.client, shared, { permission: 'editor' });
    const guest = visitor(env.server.url);
    const list = await guest.get(`/api/browse/folders/all/${token}`);
    expect(byName(list.body.data)).toEqual({
      Inner: only('rename', 'move', 'delete', 'download', 'upload', 'create_folder'),
      'a.txt': only('rename', 'move', 'delete', 'download'),
    });
    const root = only('download', 'upload', 'create_folder');
    expect(yes(list.body.meta.root)).toEqual(root);
    expect(yes((await guest.get(`/api/browse/share/${token}`)).body.data.relationships.item.data)).toEqual(root);
    const tree = (await guest.get(`/api/browse/navigation/${token}`)).body.data;
    expect(tree[0].abilities).toMatchObject({ rename: false, upload: true });
    expect(tree[0].folders[0].abilities).toMatchObject({ rename: true, move: true, share: false });
  });

  it('follows the owner’s restriction flags for the holder too', async () => {
    const { owner, shared } = await drive();
    const { token } = await share(owner.client, shared, { permission: 'editor' });
    await setRestrictions(env.seed, owner.user.id, { canUpload: false, canDownload: false });
    const list = await visitor(env.server.url).get(`/api/browse/folders/all/${token}`);
    expect(byName(list.body.data)).toEqual({ Inner: only('rename', 'move', 'delete', 'create_folder'), 'a.txt': only('rename', 'move', 'delete') });
  });
});

describe('abilities through an upload request', () => {
  it('lets the holder change what it made, not what the owner put there, and download nothing', async () => {
    const { owner, shared } = await drive();
    const res = await owner.client.post('/api/upload-request', { folder_id: shared });
    expect(res.status, res.text).toBe(201);
    const base = `/api/upload-request/${res.body.data.attributes.token}`;
    const guest = visitor(env.server.url);
    expect((await uploadTo(guest, `${base}/upload`, 'mine', {}, 'mine.txt')).status).toBe(201);
    expect((await guest.post(`${base}/create-folder`, { name: 'Made' })).status).toBe(201);
    const list = await guest.get(`${base}/browse/all?sort=name&direction=asc`);
    expect(list.status).toBe(200);
    expect(byName(list.body.data)).toEqual({
      Inner: only('upload', 'create_folder'),
      Made: only('rename', 'move', 'delete', 'upload', 'create_folder'),
      'a.txt': only(),
      'mine.txt': only('rename', 'move', 'delete'),
    });
    expect(yes(list.body.meta.root)).toEqual(only('upload', 'create_folder'));
    const tree = (await guest.get(`${base}/navigation`)).body.data;
    expect(tree[0].abilities).toMatchObject({ rename: false, upload: true, download: false });
    expect(Object.fromEntries(tree[0].folders.map((f: any) => [f.name, f.abilities.rename]))).toEqual({ Inner: false, Made: true });
  });
});
