import { describe, expect, it } from 'vitest';
import { registerUser, type Client } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

const trash = (client: Client, ...items: [string, 'folder' | 'file'][]) => client.post('/api/remove', { items: items.map(([id, type]) => ({ id, type })) });
const move = (client: Client, toId: string | null, ...items: [string, 'folder' | 'file'][]) => client.post('/api/move', { to_id: toId, items: items.map(([id, type]) => ({ id, type })) });

async function listTrash(client: Client, query = '', id = 'all') {
  const res = await client.get(`/api/browse/trash/${id}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const where = (item: any) => item.attributes.original_location;
const pathOf = (item: any) => where(item).path.map((f: any) => f.name).join(' / ');

describe('the trash shows where each item was', () => {
  it('answers the folder path from home, follows the folder when it moves, and says when the folder is in the trash too', async () => {
    const { client, user } = await registerUser(env.server.url);
    const projects = await mkdir(client, 'Projects');
    const year = await mkdir(client, '2026', projects);
    const archive = await mkdir(client, 'Archive');
    const report = await seedFile(env.seed, user.id, { name: 'report.pdf', parentId: year });
    const loose = await seedFile(env.seed, user.id, { name: 'loose.txt' });
    const memo = await seedFile(env.seed, user.id, { name: 'memo.txt', parentId: archive });
    expect((await trash(client, [report.id, 'file'], [loose.id, 'file'], [memo.id, 'file'])).status).toBe(204);
    // Archive goes to the trash after the memo: the memo's folder is then trashed too.
    expect((await trash(client, [archive, 'folder'])).status).toBe(204);

    const body = await listTrash(client, '?sort=name&direction=asc');
    const byName = Object.fromEntries(body.data.map((i: any) => [i.attributes.name, i]));
    expect(Object.keys(byName).sort()).toEqual(['Archive', 'loose.txt', 'memo.txt', 'report.pdf']);
    expect(where(byName['report.pdf'])).toEqual({ path: [{ id: projects, name: 'Projects' }, { id: year, name: '2026' }], in_trash: false });
    expect(where(byName['loose.txt'])).toEqual({ path: [], in_trash: false });
    expect(where(byName.Archive)).toEqual({ path: [], in_trash: false });
    expect(where(byName['memo.txt'])).toEqual({ path: [{ id: archive, name: 'Archive' }], in_trash: true });

    // The path is where the folder is now: where Restore puts the item back.
    const office = await mkdir(client, 'Office');
    expect((await move(client, office, [projects, 'folder'])).status).toBe(200);
    expect(pathOf((await listTrash(client)).data.find((i: any) => i.attributes.name === 'report.pdf'))).toBe('Office / Projects / 2026');

    // Inside a trashed folder: its items were in it (trashed), and the folder itself was at home.
    const inside = await listTrash(client, '', archive);
    expect(inside.meta.root.attributes.original_location).toEqual({ path: [], in_trash: false });
    expect(inside.data.map((i: any) => [i.id, where(i)])).toEqual([[memo.id, { path: [{ id: archive, name: 'Archive' }], in_trash: true }]]);
    const box = await mkdir(client, 'Box', office);
    const note = await seedFile(env.seed, user.id, { name: 'note.txt', parentId: box });
    await trash(client, [box, 'folder']);
    const boxed = await listTrash(client, '', box);
    expect(boxed.meta.root.attributes.original_location.path.map((f: any) => f.name)).toEqual(['Office']);
    expect(boxed.data.map((i: any) => [i.id, where(i)])).toEqual([[note.id, { path: [{ id: office, name: 'Office' }, { id: box, name: 'Box' }], in_trash: true }]]);

    // Folder listings outside the trash carry no such field.
    const home = await client.get('/api/browse/folders/all');
    expect(home.body.data.every((i: any) => !('original_location' in i.attributes))).toBe(true);
  });

  it('walks deep paths for a whole page at once', async () => {
    const { client, user } = await registerUser(env.server.url);
    let parent: string | null = null;
    const names: string[] = [];
    for (let depth = 0; depth < 25; depth++) {
      names.push(`level ${depth}`);
      parent = await mkdir(client, `level ${depth}`, parent);
    }
    const files = [];
    for (let n = 0; n < 30; n++) files.push(await seedFile(env.seed, user.id, { name: `deep-${n}.txt`, parentId: parent }));
    expect((await trash(client, ...files.map((f) => [f.id, 'file'] as [string, 'file']))).status).toBe(204);
    const body = await listTrash(client, '?limit=30');
    expect(body.data).toHaveLength(30);
    for (const item of body.data) expect(pathOf(item)).toBe(names.join(' / '));
  });
});

describe('sorting the trash by location', () => {
  it('orders by the folder path (home first ascending), folders first, and pages with the cursor', async () => {
    const { client, user } = await registerUser(env.server.url);
    const b = await mkdir(client, 'bravo');
    const a = await mkdir(client, 'Alpha');
    const aSub = await mkdir(client, 'sub', a);
    const trashed: [string, 'folder' | 'file'][] = [];
    const file = async (name: string, parentId: string | null) => trashed.push([(await seedFile(env.seed, user.id, { name, parentId })).id, 'file']);
    await file('in-bravo.txt', b);
    await file('at-home.txt', null);
    await file('in-alpha.txt', a);
    await file('in-alpha-sub.txt', aSub);
    const folderInAlpha = await mkdir(client, 'Folder in alpha', a);
    trashed.push([folderInAlpha, 'folder']);
    expect((await trash(client, ...trashed)).status).toBe(204);

    const names = (body: any) => body.data.map((i: any) => i.attributes.name);
    const asc = await listTrash(client, '?sort=location&direction=asc');
    // Folders first (as in every listing), then by path: Files, Files / Alpha, Files / Alpha / sub, Files / bravo (case-insensitive).
    expect(names(asc)).toEqual(['Folder in alpha', 'at-home.txt', 'in-alpha.txt', 'in-alpha-sub.txt', 'in-bravo.txt']);
    const desc = await listTrash(client, '?sort=location&direction=desc');
    expect(names(desc)).toEqual(['Folder in alpha', 'in-bravo.txt', 'in-alpha-sub.txt', 'in-alpha.txt', 'at-home.txt']);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listTrash(client, `?sort=location&direction=asc&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...names(page));
      cursor = page.meta.next_cursor;
    } while (cursor);
    expect(seen).toEqual(names(asc));
  });

  it('refuses a location sort outside the trash and a cursor of another sort, changing nothing', async () => {
    const { client } = await registerUser(env.server.url);
    const folders = await client.get('/api/browse/folders/all?sort=location');
    expect(folders.status).toBe(422);
    expect(folders.body.message).toMatch(/The sort must be one of created_at, updated_at, deleted_at, name, size, type\./);
    const bad = await client.get('/api/browse/trash/all?sort=place');
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/location/);
    const sizeCursor = Buffer.from(JSON.stringify(['file', 12, 'x'])).toString('base64url');
    const mixed = await client.get(`/api/browse/trash/all?sort=location&cursor=${sizeCursor}`);
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors.cursor).toEqual(['The cursor does not fit this sort.']);
  });
});
