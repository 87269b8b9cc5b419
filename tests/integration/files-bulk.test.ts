import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { nameKey, nextFreeName } from '../../src/server/files/names.ts';
import { moveItems, removeItems, restoreItems } from '../../src/server/files/service.ts';
import { purgeExpiredTrash } from '../../src/server/files/purge.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { registerUser, type Client } from '../support/client.ts';
import { browse, mkdir, trashTop } from '../support/files.ts';
import { seedFile, seedFolder, useSeededServer, userById } from '../support/seed.ts';

const env = useSeededServer();

type Ref = { id: string; type: 'folder' | 'file' };
const blobOnDisk = (key: string) => existsSync(path.join(env.server.dataDir, 'blobs', key));
/** Sends a selection the way the file browser does: at most 1000 items per request. */
async function inRequests(client: Client, route: string, refs: Ref[], extra: Record<string, unknown> = {}) {
  for (let i = 0; i < refs.length; i += 1000) {
    const res = await client.post(route, { ...extra, items: refs.slice(i, i + 1000) });
    expect(res.status, res.text).toBeLessThan(300);
  }
}
/** The names one item after another would get (the rule before moves became set-based). */
function sequentialNames(taken: string[], names: string[]): string[] {
  const keys = new Set(taken.map(nameKey));
  return names.map((name) => {
    const free = nextFreeName(name, true, (k) => keys.has(k));
    keys.add(nameKey(free));
    return free;
  });
}
/** Live items whose folder is in the trash: hidden everywhere but search. Must never exist. */
const strays = (userId: string) =>
  env.seed.db
    .selectFrom('items as c')
    .innerJoin('items as p', 'p.id', 'c.parent_id')
    .select('c.id')
    .where('c.owner_id', '=', userId)
    .where('c.deleted_at', 'is', null)
    .where('p.deleted_at', 'is not', null)
    .execute();
const rowsOf = async (userId: string) => Number((await env.seed.db.selectFrom('items').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', userId).executeTakeFirstOrThrow()).n);

describe('bulk operations on thousands of items', () => {
  it('moves, trashes, restores and empties 2,100 items, deduplicating names as one after another', { timeout: 240_000 }, async () => {
    const { client, user } = await registerUser(env.server.url);
    const target = await mkdir(client, 'Target');
    // Already in the target: the first clash takes "(2)", then "(4)".
    const present = ['f000.txt', 'f000 (1).txt', 'f000 (3).txt'];
    for (const name of present) await seedFile(env.seed, user.id, { name, parentId: target });
    // 20 folders of the same 105 names: each name clashes 20 ways within the selection.
    const sources: string[] = [];
    const refs: (Ref & { name: string })[] = [];
    for (let s = 0; s < 20; s += 1) {
      const folder = await seedFolder(env.seed, user.id, `Source ${s}`);
      sources.push(folder);
      for (let f = 0; f < 105; f += 1) {
        const name = `f${String(f).padStart(3, '0')}.txt`;
        refs.push({ id: (await seedFile(env.seed, user.id, { name, parentId: folder, content: 'x' })).id, type: 'file', name });
      }
    }
    const items = refs.map(({ id, type }) => ({ id, type }));

    // Move: three requests, as the browser sends 2,100 items; each request sees the ones before.
    await inRequests(client, '/api/move', items, { to_id: target });
    const expected = sequentialNames(present, refs.map((r) => r.name));
    const listed = (await browse(client, target)).body.data as any[];
    const byId = new Map(listed.map((i) => [i.id, i.attributes.name]));
    expect(listed).toHaveLength(2_103);
    expect(refs.map((r) => byId.get(r.id))).toEqual(expected);
    expect(byId.get(refs[20 * 0]!.id)).toBe('f000 (2).txt');
    expect(new Set(listed.map((i) => nameKey(i.attributes.name))).size).toBe(2_103);
    for (const folder of sources) expect((await browse(client, folder)).names).toEqual([]);

    // Trash them all, then restore them all: back in the target under the same names.
    await inRequests(client, '/api/remove', items);
    expect((await browse(client, target)).names).toEqual(expect.arrayContaining(present));
    expect((await browse(client, target)).names).toHaveLength(3);
    expect(await trashTop(client)).toHaveLength(2_100);
    // A name taken while they were away: the restored one steps aside.
    const newcomer = await seedFile(env.seed, user.id, { name: 'f001.txt', parentId: target });
    await inRequests(client, '/api/trash/restore', items);
    const back = new Map(((await browse(client, target)).body.data as any[]).map((i) => [i.id, i.attributes.name]));
    expect(back.size).toBe(2_104);
    expect(back.get(newcomer.id)).toBe('f001.txt');
    // The Source 0 file that was f001.txt steps to "f001 (1).txt", and each f001 after it one further.
    expect(refs.map((r) => back.get(r.id))).toEqual(sequentialNames([...present, 'f001.txt'], refs.map((r) => byId.get(r.id))));
    expect(refs.filter((r) => back.get(r.id) !== byId.get(r.id))).toHaveLength(20);
    expect(await trashTop(client)).toEqual([]);

    // Trash the folder with everything in it, then empty the trash: every row and blob gone.
    await inRequests(client, '/api/remove', [{ id: target, type: 'folder' }]);
    expect(await trashTop(client)).toEqual(['Target']);
    expect((await client.get(`/api/browse/trash/${target}`)).body.data).toHaveLength(2_104);
    expect((await client.post('/api/trash/dump', { _method: 'delete' })).status).toBe(204);
    expect(await trashTop(client)).toEqual([]);
    expect(await rowsOf(user.id)).toBe(20); // the empty source folders
    expect(blobOnDisk(newcomer.blobKey)).toBe(false);
  });

  it('deletes a deep folder for good with force_delete, children before parents', async () => {
    const { client, user } = await registerUser(env.server.url);
    const top = await mkdir(client, 'Deep');
    let parent = top;
    const blobs: string[] = [];
    for (let depth = 0; depth < 30; depth += 1) {
      blobs.push((await seedFile(env.seed, user.id, { name: `at ${depth}.txt`, parentId: parent })).blobKey);
      parent = await seedFolder(env.seed, user.id, `level ${depth}`, parent);
    }
    const res = await client.post('/api/remove', { items: [{ id: top, type: 'folder', force_delete: true }] });
    expect(res.status, res.text).toBe(204);
    expect(await rowsOf(user.id)).toBe(0);
    expect(blobs.some(blobOnDisk)).toBe(false);
  });
});

describe('restoring a selection', () => {
  it('puts an item back into a folder restored with it, next to what came back with the folder', async () => {
    const { client, user } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'Folder');
    const first = await seedFile(env.seed, user.id, { name: 'x.txt', parentId: folder });
    await client.post('/api/remove', { items: [{ id: first.id, type: 'file' }] });
    const second = await seedFile(env.seed, user.id, { name: 'x.txt', parentId: folder });
    await client.post('/api/remove', { items: [{ id: folder, type: 'folder' }] });
    // Either order: the folder comes back home with the second x.txt, the first lands beside it.
    const res = await client.post('/api/trash/restore', { items: [{ id: first.id, type: 'file' }, { id: folder, type: 'folder' }] });
    expect(res.status, res.text).toBe(200);
    const inside = new Map(((await browse(client, folder)).body.data as any[]).map((i) => [i.id, i.attributes.name]));
    expect(Object.fromEntries(inside)).toEqual({ [second.id]: 'x.txt', [first.id]: 'x (1).txt' });
    expect(await trashTop(client)).toEqual([]);
  });
});

describe('statements per bulk change', () => {
  it('does not grow with the number of items', { timeout: 120_000 }, async () => {
    const { user: u } = await registerUser(env.server.url);
    const user = await userById(env.seed, u.id);
    // The product code in this process, on the test server's database, counting what it sends.
    let statements = 0;
    const counter: KyselyPlugin = { transformQuery: (args) => {
        statements++;
        return args.node;
      }, transformResult: async (args) => args.result };
    const ctx = { ...env.seed, db: env.seed.db.withPlugin(counter) };
    const counts = async (size: number) => {
      const from = await seedFolder(env.seed, u.id, `From ${size}`);
      const to = await seedFolder(env.seed, u.id, `To ${size}`);
      const refs: Ref[] = [];
      for (let i = 0; i < size; i += 1) refs.push({ id: (await seedFile(env.seed, u.id, { name: `same ${i % 3}.txt`, parentId: i % 2 ? from : null, content: 'x' })).id, type: 'file' });
      const count = async (work: () => Promise<unknown>) => {
        statements = 0;
        await work();
        return statements;
      };
      return [
        await count(() => moveItems(ctx, user, to, refs)),
        await count(() => removeItems(ctx, user, refs.map((r) => ({ ...r, force_delete: false })))),
        await count(() => restoreItems(ctx, user, false, refs)),
      ];
    };
    const few = await counts(10);
    const many = await counts(400);
    expect(few.every((n) => n > 3)).toBe(true);
    // The same statements, give or take a chunk of a long list.
    many.forEach((n, i) => {
      expect(n, ['move', 'trash', 'restore'][i]).toBeLessThanOrEqual(few[i]! + 4);
    });
  });
});

describe('a move racing a trash', () => {
  it('never leaves a live item below a trashed folder, and the trash still empties', { timeout: 120_000 }, async () => {
    const { client, user } = await registerUser(env.server.url);
    for (let round = 0; round < 8; round += 1) {
      const folder = await mkdir(client, `Target ${round}`);
      const files: Ref[] = [];
      for (let i = 0; i < 40; i += 1) files.push({ id: (await seedFile(env.seed, user.id, { name: `r${round} ${i}.txt`, content: 'x' })).id, type: 'file' });
      const move = () => client.post('/api/move', { to_id: folder, items: files });
      const trash = () => client.post('/api/remove', { items: [{ id: folder, type: 'folder' }] });
      // Both orders of sending: either the move lands first (and is trashed with the folder) or it is refused.
      const [moved, trashed] = round % 2 ? await Promise.all([move(), trash()]) : (await Promise.all([trash(), move()])).reverse();
      expect(trashed!.status).toBe(204);
      expect([200, 404]).toContain(moved!.status);
      expect(await strays(user.id)).toEqual([]);
    }
    expect((await client.post('/api/trash/dump', { _method: 'delete' })).status).toBe(204);
    expect(await trashTop(client)).toEqual([]);
    expect(await strays(user.id)).toEqual([]);
  });

  it('creating a folder or a file in a folder trashed meanwhile is refused', async () => {
    const { client, user } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'Going');
    await client.post('/api/remove', { items: [{ id: folder, type: 'folder' }] });
    expect((await client.post('/api/create-folder', { name: 'Late', parent_id: folder })).status).toBe(404);
    await expect(seedFile(env.seed, user.id, { name: 'late.txt', parentId: folder })).rejects.toMatchObject({ status: 422 });
    expect(await strays(user.id)).toEqual([]);
  });
});

/** Leaves a tree the way the race used to: a trashed folder with live items (and a live folder) below it. */
async function strayTree(userId: string, trashedAt: string) {
  const folder = await seedFolder(env.seed, userId, 'Trashed');
  const sub = await seedFolder(env.seed, userId, 'Live sub', folder);
  const files = [await seedFile(env.seed, userId, { name: 'live.txt', parentId: folder }), await seedFile(env.seed, userId, { name: 'deeper.txt', parentId: sub })];
  await env.seed.db.updateTable('items').set({ deleted_at: trashedAt, deleted_with: folder, updated_at: trashedAt }).where('id', '=', folder).execute();
  expect(await strays(userId)).toHaveLength(2);
  return files;
}

describe('a tree left inconsistent', () => {
  it('empties the trash without tripping the parent foreign key', async () => {
    const { client, user } = await registerUser(env.server.url);
    const files = await strayTree(user.id, new Date().toISOString());
    const res = await client.post('/api/trash/dump', { _method: 'delete' });
    expect(res.status, res.text).toBe(204);
    expect(await rowsOf(user.id)).toBe(0);
    expect(files.map((f) => blobOnDisk(f.blobKey))).toEqual([false, false]);
  });

  it('purges it with the retention job', async () => {
    const { user } = await registerUser(env.server.url);
    const files = await strayTree(user.id, new Date(Date.now() - 40 * 24 * 60 * 60_000).toISOString());
    await putSetting(env.seed, 'trash_retention_days', 30);
    expect((await purgeExpiredTrash(env.seed)).items).toBeGreaterThanOrEqual(4);
    expect(await rowsOf(user.id)).toBe(0);
    expect(files.map((f) => blobOnDisk(f.blobKey))).toEqual([false, false]);
  });
});
