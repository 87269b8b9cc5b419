import { describe, expect, it } from 'vitest';
import { setRestrictions } from '../../src/server/users/restrictions.ts';
import { registerUser } from '../support/client.ts';
import { browse, mkdir, snapshot } from '../support/files.ts';
import { seedFile, seedFolder, useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

describe('create and browse', () => {
  it('creates folders at home and inside folders and lists them with the item resource', async () => {
    const { client } = await registerUser(env.server.url);
    const docs = await mkdir(client, 'Documents', null, { emoji: '📁' });
    const created = await client.post('/api/create-folder', { name: 'Invoices', parent_id: docs });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'folder',
      attributes: { name: 'Invoices', parent_id: docs, deleted_at: null, items: 0, color: null, emoji: null, file_url: null },
      relationships: { shared: null },
    });

    const home = await browse(client);
    expect(home.names).toEqual(['Documents']);
    expect(home.body.meta.root).toBeNull();
    expect(home.body.data[0].attributes).toMatchObject({ items: 1, emoji: '📁' });
    // No id at all is home too, with or without a trailing slash.
    expect((await client.get('/api/browse/folders')).body.data).toHaveLength(1);
    expect((await client.get('/api/browse/folders/all/')).body.data).toHaveLength(1);

    const inside = await browse(client, docs);
    expect(inside.names).toEqual(['Invoices']);
    expect(inside.body.meta.root).toMatchObject({ id: docs, attributes: { name: 'Documents' } });
  });

  it('lists folders before files, newest first by default, and sorts by name, size and type', async () => {
    const { client, user } = await registerUser(env.server.url);
    const parent = await seedFolder(env.seed, user.id, 'Sorted');
    await seedFile(env.seed, user.id, { name: 'b-small.txt', parentId: parent, mimetype: 'text/plain', content: 'x' });
    await seedFolder(env.seed, user.id, 'Zeta', parent);
    await seedFile(env.seed, user.id, { name: 'A-large.png', parentId: parent, mimetype: 'image/png', content: 'x'.repeat(500) });
    await seedFolder(env.seed, user.id, 'alpha', parent);
    await seedFile(env.seed, user.id, { name: 'c-mid.pdf', parentId: parent, mimetype: 'application/pdf', content: 'x'.repeat(50) });

    expect((await browse(client, parent)).names).toEqual(['alpha', 'Zeta', 'c-mid.pdf', 'A-large.png', 'b-small.txt']);
    expect((await browse(client, parent, '?sort=created_at&direction=asc')).names).toEqual(['Zeta', 'alpha', 'b-small.txt', 'A-large.png', 'c-mid.pdf']);
    expect((await browse(client, parent, '?sort=name&direction=asc')).names).toEqual(['alpha', 'Zeta', 'A-large.png', 'b-small.txt', 'c-mid.pdf']);
    expect((await browse(client, parent, '?sort=name&direction=DESC')).names).toEqual(['Zeta', 'alpha', 'c-mid.pdf', 'b-small.txt', 'A-large.png']);
    expect((await browse(client, parent, '?sort=size&direction=desc')).names.slice(2)).toEqual(['A-large.png', 'c-mid.pdf', 'b-small.txt']);
    expect((await browse(client, parent, '?sort=type&direction=asc')).names.slice(2)).toEqual(['c-mid.pdf', 'A-large.png', 'b-small.txt']);

    const file = (await browse(client, parent)).body.data.find((i: any) => i.attributes.name === 'A-large.png');
    expect(file).toMatchObject({ type: 'file', attributes: { mimetype: 'image/png', size: 500, items: null, file_url: `/file/${file.id}` } });
  });

  it('pages a folder with limit and cursor, in the same order as the whole listing', async () => {
    const { client, user } = await registerUser(env.server.url);
    const parent = await seedFolder(env.seed, user.id, 'Paged');
    for (let i = 0; i < 7; i += 1) await seedFile(env.seed, user.id, { name: `file ${i}.txt`, parentId: parent, content: 'x'.repeat(i % 3) });
    for (let i = 0; i < 3; i += 1) await seedFolder(env.seed, user.id, `sub ${i}`, parent);
    for (const sort of ['created_at', 'name', 'size', 'type']) {
      const all = (await browse(client, parent, `?sort=${sort}`)).names;
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { names: string[]; body: any } = await browse(client, parent, `?sort=${sort}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        paged.push(...page.names);
        cursor = page.body.meta.next_cursor;
      } while (cursor);
      expect(paged).toEqual(all);
      expect(all).toHaveLength(10);
    }
  });

  it('answers latest files, newest first, without folders', async () => {
    const { client, user } = await registerUser(env.server.url);
    const folder = await seedFolder(env.seed, user.id, 'Photos');
    await seedFile(env.seed, user.id, { name: 'one.jpg', parentId: folder, mimetype: 'image/jpeg' });
    await seedFile(env.seed, user.id, { name: 'two.jpg', mimetype: 'image/jpeg' });
    const res = await client.get('/api/browse/latest');
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: any) => i.attributes.name)).toEqual(['two.jpg', 'one.jpg']);
  });

  it('builds the navigation tree of folders', async () => {
    const { client } = await registerUser(env.server.url);
    const a = await mkdir(client, 'A');
    const b = await mkdir(client, 'B', a);
    await mkdir(client, 'C', b);
    await mkdir(client, 'D');
    // A level at a time: the top, then each branch on asking (navigation-tree.test.ts has the rest).
    const res = await client.get('/api/browse/navigation');
    expect(res.status).toBe(200);
    expect(res.body.data.map((n: any) => [n.name, n.has_folders, n.folders])).toEqual([['A', true, []], ['D', false, []]]);
    const open = await client.get(`/api/browse/navigation?open=${b}`);
    expect(open.body.data[0].folders[0]).toMatchObject({ id: b, name: 'B', parent_id: a, has_folders: true, folders: [{ name: 'C', folders: [], has_folders: false }] });
  });

  it('searches names of files and folders, case-insensitively, treating % and _ literally', async () => {
    const { client, user } = await registerUser(env.server.url);
    const other = await registerUser(env.server.url);
    const folder = await seedFolder(env.seed, user.id, 'Quarterly Reports');
    await seedFile(env.seed, user.id, { name: 'report 100%.pdf', parentId: folder });
    await seedFile(env.seed, user.id, { name: 'notes.txt' });
    await seedFile(env.seed, other.user.id, { name: 'their report.pdf' });
    const names = async (query: string) => (await client.get(`/api/search?query=${encodeURIComponent(query)}`)).body.data.map((i: any) => i.attributes.name);
    expect(await names('REPORT')).toEqual(['Quarterly Reports', 'report 100%.pdf']);
    expect(await names('0%')).toEqual(['report 100%.pdf']);
    expect(await names('_')).toEqual([]);
    expect(await names('nothing like it')).toEqual([]);
  });

  it('keeps the search index in step with renames, trash, restore and deletion', async () => {
    const { client } = await registerUser(env.server.url);
    const names = async (query: string) => (await client.get(`/api/search?query=${encodeURIComponent(query)}`)).body.data.map((i: any) => i.attributes.name);
    const id = await mkdir(client, 'Budget "draft" 2026');
    await mkdir(client, 'Ünïcödé Ordner');
    expect(await names('"draft"')).toEqual(['Budget "draft" 2026']);
    expect(await names('ÜNÏC')).toEqual(['Ünïcödé Ordner']);
    expect(await names('dé or')).toEqual(['Ünïcödé Ordner']);

    expect((await client.post(`/api/rename/${id}`, { _method: 'patch', name: 'Forecast' })).status).toBe(200);
    expect(await names('budget')).toEqual([]);
    expect(await names('recas')).toEqual(['Forecast']);

    expect((await client.post('/api/remove', { items: [{ id, type: 'folder' }] })).status).toBeLessThan(300);
    expect(await names('recas')).toEqual([]);
    expect((await client.post('/api/trash/restore', { items: [{ id, type: 'folder' }] })).status).toBeLessThan(300);
    expect(await names('recas')).toEqual(['Forecast']);
    await client.post('/api/remove', { items: [{ id, type: 'folder' }] });
    expect((await client.post('/api/remove', { items: [{ id, type: 'folder', force_delete: true }] })).status).toBeLessThan(300);
    expect(await names('recas')).toEqual([]);
    // The freed name is searchable again when something new takes it.
    await mkdir(client, 'Forecast');
    expect(await names('recas')).toEqual(['Forecast']);
  });
});

describe('names', () => {
  it('treats names as equal case-insensitively after NFC normalisation', async () => {
    const { client } = await registerUser(env.server.url);
    await mkdir(client, 'Café');
    for (const name of ['cafe\u0301', 'CAFÉ', 'café', '  Café  ']) {
      const res = await client.post('/api/create-folder', { name });
      expect(res.status, name).toBe(422);
      expect(res.body.errors.name).toBeDefined();
    }
    // The same name elsewhere is fine.
    const other = await mkdir(client, 'Other');
    await mkdir(client, 'CAFE\u0301', other);
    expect((await browse(client)).names.sort()).toEqual(['Café', 'Other']);
  });

  it('keeps quotes, markup, right-to-left marks and emoji as plain text', async () => {
    const { client } = await registerUser(env.server.url);
    const tricky = ['"quoted" \'name\'', '<img src=x onerror=alert(1)>', 'שלום abc', '🎉 party'];
    for (const name of tricky) await mkdir(client, name);
    const res = await client.get('/api/browse/folders/all?sort=name&direction=asc');
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.data.map((i: any) => i.attributes.name).sort()).toEqual([...tricky].sort());
  });

  it('refuses a rename into a taken name with 422 and allows changing only the case', async () => {
    const { client } = await registerUser(env.server.url);
    const a = await mkdir(client, 'Alpha');
    await mkdir(client, 'Beta');
    const clash = await client.post(`/api/rename/${a}`, { _method: 'patch', name: 'BETA' });
    expect(clash.status).toBe(422);
    expect(clash.body.errors.name).toBeDefined();
    const recase = await client.post(`/api/rename/${a}`, { _method: 'patch', name: 'ALPHA' });
    expect(recase.status).toBe(200);
    expect(recase.body.data.attributes.name).toBe('ALPHA');
  });

  it('renames, colours and sets an emoji', async () => {
    const { client } = await registerUser(env.server.url);
    const id = await mkdir(client, 'Plain');
    const emoji = { char: '🚀', name: 'rocket', codepoints: '1f680' };
    const res = await client.post(`/api/rename/${id}`, { _method: 'patch', name: 'Fancy', color: '#00BC7E', emoji, type: 'folder' });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ name: 'Fancy', color: '#00BC7E', emoji });
    const cleared = await client.post(`/api/rename/${id}`, { _method: 'patch', emoji: null, color: null });
    expect(cleared.body.data.attributes).toMatchObject({ name: 'Fancy', color: null, emoji: null });
  });

  it('gives uploads (createFileItem) the next free name', async () => {
    const { client, user } = await registerUser(env.server.url);
    const names = [];
    for (let i = 0; i < 3; i += 1) names.push((await seedFile(env.seed, user.id, { name: 'Report.pdf' })).name);
    names.push((await seedFile(env.seed, user.id, { name: 'report (1).PDF' })).name);
    expect(names).toEqual(['Report.pdf', 'Report (1).pdf', 'Report (2).pdf', 'report (3).PDF']);
    expect((await browse(client)).names).toHaveLength(4);
  });
});

describe('move', () => {
  it('moves items into a folder and home, taking the next free name on a clash', async () => {
    const { client, user } = await registerUser(env.server.url);
    const target = await mkdir(client, 'Target');
    await seedFile(env.seed, user.id, { name: 'notes.txt', parentId: target });
    const notes = await seedFile(env.seed, user.id, { name: 'notes.txt' });
    const folder = await mkdir(client, 'Box');
    const res = await client.post('/api/move', { to_id: target, items: [{ id: notes.id, type: 'file' }, { id: folder, type: 'folder' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: any) => i.attributes.name)).toEqual(['notes (1).txt', 'Box']);
    expect((await browse(client, target)).names.sort()).toEqual(['Box', 'notes (1).txt', 'notes.txt']);
    expect((await browse(client)).names).toEqual(['Target']);

    const back = await client.post('/api/move', { to_id: null, items: [{ id: folder, type: 'folder' }] });
    expect(back.status).toBe(200);
    expect((await browse(client)).names.sort()).toEqual(['Box', 'Target']);
  });

  it('refuses moving a folder into itself or a descendant with 422, changing nothing', async () => {
    const { client } = await registerUser(env.server.url);
    const a = await mkdir(client, 'A');
    const b = await mkdir(client, 'B', a);
    const c = await mkdir(client, 'C', b);
    const other = await mkdir(client, 'Other');
    const before = await snapshot(client);
    for (const to of [a, b, c]) {
      const res = await client.post('/api/move', { to_id: to, items: [{ id: other, type: 'folder' }, { id: a, type: 'folder' }] });
      expect(res.status).toBe(422);
      expect(res.body.errors.to_id).toBeDefined();
    }
    expect(await snapshot(client)).toBe(before);
  });

  it('never lets two opposite moves sent at once make a cycle', async () => {
    const { client } = await registerUser(env.server.url);
    for (let round = 0; round < 5; round++) {
      const x = await mkdir(client, `X${round}`);
      const y = await mkdir(client, `Y${round}`);
      const [one, two] = await Promise.all([
        client.post('/api/move', { to_id: y, items: [{ id: x, type: 'folder' }] }),
        client.post('/api/move', { to_id: x, items: [{ id: y, type: 'folder' }] }),
      ]);
      expect([one.status, two.status].sort()).toEqual([200, 422]);
      // Both are still reachable from home: exactly one sits inside the other.
      const home = (await client.get('/api/browse/navigation')).body.data as { id: string; name: string }[];
      const top = home.filter((n) => n.name === `X${round}` || n.name === `Y${round}`);
      expect(top).toHaveLength(1);
      const inside = (await client.get(`/api/browse/navigation?parent_id=${top[0]!.id}`)).body.data as { name: string }[];
      expect(inside.map((f) => f.name)).toEqual([top[0]!.name === `X${round}` ? `Y${round}` : `X${round}`]);
    }
  });
});

describe('restrictions', () => {
  it('refuses folder creation when canCreateFolder is off, with the spec message key', async () => {
    const { client, user } = await registerUser(env.server.url);
    await setRestrictions(env.seed, user.id, { canCreateFolder: false });
    expect((await client.get('/api/user')).body.data.meta.restrictions.canCreateFolder).toBe(false);
    const res = await client.post('/api/create-folder', { name: 'Nope' });
    expect(res.status).toBe(423);
    expect(res.body.code).toBe('create_folder_temporarily_disabled');
    expect(res.body.message).toMatch(/temporarily disabled/);
    expect((await browse(client)).names).toEqual([]);
    await setRestrictions(env.seed, user.id, {});
    expect((await client.post('/api/create-folder', { name: 'Yes' })).status).toBe(201);
  });
});

describe('storage usage', () => {
  it('splits used bytes into images, videos, audios, documents and others against the capacity', async () => {
    const { client, user } = await registerUser(env.server.url);
    await seedFile(env.seed, user.id, { name: 'a.png', mimetype: 'image/png', content: 'x'.repeat(1000) });
    await seedFile(env.seed, user.id, { name: 'b.jpg', mimetype: 'image/jpeg', content: 'x'.repeat(24) });
    await seedFile(env.seed, user.id, { name: 'c.mp4', mimetype: 'video/mp4', content: 'x'.repeat(2000) });
    await seedFile(env.seed, user.id, { name: 'd.mp3', mimetype: 'audio/mpeg', content: 'x'.repeat(300) });
    await seedFile(env.seed, user.id, { name: 'e.pdf', mimetype: 'application/pdf', content: 'x'.repeat(400) });
    await seedFile(env.seed, user.id, { name: 'f.docx', mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', content: 'x'.repeat(100) });
    await seedFile(env.seed, user.id, { name: 'g.zip', mimetype: 'application/zip', content: 'x'.repeat(76) });
    const res = await client.get('/api/user/storage');
    expect(res.status).toBe(200);
    const capacity = 5 * 1024 ** 3;
    const pct = (n: number) => Math.round((n / capacity) * 10_000) / 100;
    expect(res.body.data.attributes).toEqual({ used: 3900, capacity, percentage: pct(3900) });
    expect(res.body.data.meta).toEqual({
      images: { used: 1024, percentage: pct(1024) },
      videos: { used: 2000, percentage: pct(2000) },
      audios: { used: 300, percentage: pct(300) },
      documents: { used: 500, percentage: pct(500) },
      others: { used: 76, percentage: pct(76) },
    });
    // Another user's files do not count.
    const other = await registerUser(env.server.url);
    expect((await other.client.get('/api/user/storage')).body.data.attributes.used).toBe(0);
  });
});

describe('bad input', () => {
  const longName = 'é'.repeat(128); // 256 bytes
  it.each([
    ['missing name', {}],
    ['empty name', { name: '' }],
    ['whitespace name', { name: '   ' }],
    ['dot', { name: '.' }],
    ['dot dot', { name: '..' }],
    ['slash', { name: 'a/b' }],
    ['backslash', { name: 'a\\b' }],
    ['NUL', { name: 'a\u0000b' }],
    ['control character', { name: 'a\u0007b' }],
    ['over 255 bytes', { name: longName }],
    ['non-text name', { name: ['x'] }],
    ['bad emoji', { name: 'ok', emoji: 42 }],
  ])('create-folder refuses %s with 422 and creates nothing', async (_label, body) => {
    const { client } = await registerUser(env.server.url);
    const res = await client.post('/api/create-folder', body);
    expect(res.status).toBe(422);
    expect(res.body.message).toEqual(expect.any(String));
    expect((await browse(client)).names).toEqual([]);
  });

  it('refuses bad ids, bad parents and wrong types', async () => {
    const { client, user } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'Folder');
    const file = await seedFile(env.seed, user.id, { name: 'file.txt' });
    const before = await snapshot(client);
    const expectations: [string, Promise<{ status: number }>, number][] = [
      ['parent does not exist', client.post('/api/create-folder', { name: 'x', parent_id: 'no-such-id' }), 404],
      ['parent is a file', client.post('/api/create-folder', { name: 'x', parent_id: file.id }), 422],
      ['parent id not text', client.post('/api/create-folder', { name: 'x', parent_id: 12 }), 422],
      ['browse unknown folder', client.get('/api/browse/folders/no-such-id'), 404],
      ['browse a file as a folder', client.get(`/api/browse/folders/${file.id}`), 422],
      ['browse unknown sort', client.get('/api/browse/folders/all?sort=colour'), 422],
      ['browse bad direction', client.get('/api/browse/folders/all?direction=sideways'), 422],
      ['browse bad limit', client.get('/api/browse/folders/all?limit=0'), 422],
      ['browse bad cursor', client.get('/api/browse/folders/all?limit=5&cursor=nonsense'), 422],
      ['browse cursor of another sort', client.get(`/api/browse/folders/all?sort=size&limit=5&cursor=${Buffer.from(JSON.stringify(['file', 'x', 'y'])).toString('base64url')}`), 422],
      ['trash of a live folder', client.get(`/api/browse/trash/${folder}`), 404],
      ['rename unknown', client.post('/api/rename/no-such-id', { _method: 'patch', name: 'x' }), 404],
      ['rename with nothing', client.post(`/api/rename/${folder}`, { _method: 'patch' }), 422],
      ['rename with slash', client.post(`/api/rename/${folder}`, { _method: 'patch', name: 'a/b' }), 422],
      ['rename with a wrong type', client.post(`/api/rename/${folder}`, { _method: 'patch', name: 'x', type: 'file' }), 422],
      ['rename bad colour', client.post(`/api/rename/${folder}`, { _method: 'patch', color: 'red; drop table' }), 422],
      ['rename without _method', client.post(`/api/rename/${folder}`, { name: 'x' }), 405],
      ['move items not a list', client.post('/api/move', { to_id: folder, items: 'everything' }), 422],
      ['move empty list', client.post('/api/move', { to_id: folder, items: [] }), 422],
      ['move wrong item type', client.post('/api/move', { to_id: folder, items: [{ id: file.id, type: 'folder' }] }), 422],
      ['move bad type word', client.post('/api/move', { to_id: folder, items: [{ id: file.id, type: 'document' }] }), 422],
      ['move unknown item', client.post('/api/move', { to_id: folder, items: [{ id: 'no-such-id', type: 'file' }] }), 404],
      ['move into a file', client.post('/api/move', { to_id: file.id, items: [{ id: folder, type: 'folder' }] }), 422],
      ['move into unknown', client.post('/api/move', { to_id: 'no-such-id', items: [{ id: folder, type: 'folder' }] }), 404],
      ['remove items not a list', client.post('/api/remove', { items: { id: folder } }), 422],
      ['remove bad force flag', client.post('/api/remove', { items: [{ id: folder, type: 'folder', force_delete: 'yes' }] }), 422],
      ['remove unknown', client.post('/api/remove', { items: [{ id: 'no-such-id', type: 'folder' }] }), 404],
      ['remove wrong type', client.post('/api/remove', { items: [{ id: folder, type: 'file' }] }), 422],
      ['restore what is not in the trash', client.post('/api/trash/restore', { items: [{ id: folder, type: 'folder' }] }), 404],
      ['restore bad to_home', client.post('/api/trash/restore', { to_home: 'please', items: [{ id: folder, type: 'folder' }] }), 422],
      ['favourite a file', client.post('/api/folders/favourites', { folders: [file.id] }), 422],
      ['favourite unknown', client.post('/api/folders/favourites', { folders: ['no-such-id'] }), 404],
      ['favourites not a list', client.post('/api/folders/favourites', { folders: folder }), 422],
      ['search without query', client.get('/api/search'), 422],
      ['search blank query', client.get('/api/search?query=%20%20'), 422],
      ['search too long', client.get(`/api/search?query=${'x'.repeat(256)}`), 422],
      ['JSON array body', client.request('/api/move', { method: 'POST', body: '[]', headers: { 'Content-Type': 'application/json' } }), 400],
      ['broken JSON', client.request('/api/remove', { method: 'POST', body: '{"items":', headers: { 'Content-Type': 'application/json' } }), 400],
    ];
    for (const [label, pending, status] of expectations) expect((await pending).status, label).toBe(status);
    expect(await snapshot(client)).toBe(before);
    expect((await client.get('/api/user')).body.data.relationships.favourites.data).toEqual([]);
  });
});
