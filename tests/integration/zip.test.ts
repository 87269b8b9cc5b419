import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { updateItem } from '../../src/server/files/queries.ts';
import { setRestrictions } from '../../src/server/users/restrictions.ts';
import { registerUser } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { seedFile, seedFolder, useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

interface Entry {
  name: string;
  method: number;
  sha256: string | null;
  size: number;
}

/** Every entry of a zip (read with yauzl from its central directory), with the SHA-256 of each file's bytes. */
async function readZip(zip: Buffer): Promise<Entry[]> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error, z) => (error ? reject(error) : resolve(z!))),
  );
  const entries: Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject);
    file.on('end', resolve);
    file.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) {
        entries.push({ name: entry.fileName, method: entry.compressionMethod, sha256: null, size: 0 });
        return file.readEntry();
      }
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const hash = createHash('sha256');
        let size = 0;
        stream!.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          size += chunk.length;
        });
        stream!.on('error', reject);
        stream!.on('end', () => {
          entries.push({ name: entry.fileName, method: entry.compressionMethod, sha256: hash.digest('hex'), size });
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return entries;
}

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const zipUrl = (items: [string, 'file' | 'folder'][]) => `/api/zip?items=${encodeURIComponent(items.map(([id, type]) => `${id}|${type}`).join(','))}`;

describe('GET /api/zip', () => {
  it('names the zip after the one item, the folder the items are in, or what it holds', async () => {
    const owner = await registerUser(env.server.url);
    const uid = owner.user.id;
    const trip = await seedFolder(env.seed, uid, 'Trip to Lisbon');
    const a = await seedFile(env.seed, uid, { name: 'tram.jpg', parentId: trip });
    const b = await seedFile(env.seed, uid, { name: 'tiles.jpg', parentId: trip });
    const loose = await seedFile(env.seed, uid, { name: 'budget.xlsx' });
    const name = async (items: [string, 'file' | 'folder'][]) => (await download(env.server.url, zipUrl(items), owner.client)).headers.get('content-disposition');
    expect(await name([[trip, 'folder']])).toBe('attachment; filename="Trip to Lisbon.zip"');
    expect(await name([[a.id, 'file'], [b.id, 'file']])).toBe('attachment; filename="Trip to Lisbon.zip"');
    expect(await name([[loose.id, 'file'], [a.id, 'file'], [b.id, 'file']])).toBe('attachment; filename="3 files.zip"');
    // Items of the home folder, which has no name of its own to give.
    const notes = await seedFile(env.seed, uid, { name: 'notes.txt' });
    const drafts = await seedFolder(env.seed, uid, 'Drafts');
    expect(await name([[loose.id, 'file'], [notes.id, 'file']])).toBe('attachment; filename="2 files.zip"');
    expect(await name([[trip, 'folder'], [drafts, 'folder']])).toBe('attachment; filename="2 folders.zip"');
    expect(await name([[drafts, 'folder'], [notes.id, 'file']])).toBe('attachment; filename="2 items.zip"');
  });


  it('streams nested folders as folders with their live subtree, bytes intact, the trash left out', async () => {
    const owner = await registerUser(env.server.url);
    const uid = owner.user.id;
    const project = await seedFolder(env.seed, uid, 'Project');
    const docs = await seedFolder(env.seed, uid, 'docs', project);
    const deep = await seedFolder(env.seed, uid, 'deeper', await seedFolder(env.seed, uid, 'deep', docs));
    await seedFolder(env.seed, uid, 'empty', project);
    const text = 'hello '.repeat(5000);
    const photo = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 31) % 251));
    await seedFile(env.seed, uid, { name: 'readme.txt', parentId: docs, mimetype: 'text/plain', content: text });
    await seedFile(env.seed, uid, { name: 'Résumé 日本.md', parentId: deep, mimetype: 'text/markdown', content: 'unicode' });
    await seedFile(env.seed, uid, { name: 'photo.jpg', parentId: project, mimetype: 'image/jpeg', content: photo });
    const trashedFile = await seedFile(env.seed, uid, { name: 'secret.txt', parentId: docs, mimetype: 'text/plain' });
    const trashedFolder = await seedFolder(env.seed, uid, 'old', project);
    await seedFile(env.seed, uid, { name: 'inside-old.txt', parentId: trashedFolder });
    const loose = await seedFile(env.seed, uid, { name: 'loose.bin', mimetype: 'application/octet-stream', content: Buffer.alloc(1234, 9) });
    expect(
      (await owner.client.post('/api/remove', { items: [{ id: trashedFile.id, type: 'file' }, { id: trashedFolder, type: 'folder' }] })).status,
    ).toBe(204);

    const res = await download(env.server.url, zipUrl([[project, 'folder'], [loose.id, 'file']]), owner.client);
    expect(res.status, res.body.toString().slice(0, 200)).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    // Items from home, a folder and a file: what it holds.
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="2 items.zip"');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');

    const entries = await readZip(res.body);
    const byName = new Map(entries.map((e) => [e.name, e]));
    expect([...byName.keys()].sort()).toEqual(
      [
        'Project/',
        'Project/docs/',
        'Project/docs/deep/',
        'Project/docs/deep/deeper/',
        'Project/docs/deep/deeper/Résumé 日本.md',
        'Project/docs/readme.txt',
        'Project/empty/',
        'Project/photo.jpg',
        'loose.bin',
      ].sort(),
    );
    expect(byName.get('Project/docs/readme.txt')!.sha256).toBe(sha(text));
    expect(byName.get('Project/photo.jpg')!.sha256).toBe(sha(photo));
    expect(byName.get('loose.bin')!.sha256).toBe(sha(Buffer.alloc(1234, 9)));
    expect(byName.get('Project/docs/deep/deeper/Résumé 日本.md')!.sha256).toBe(sha('unicode'));
    // Already-compressed types are stored, others deflated.
    expect(byName.get('Project/photo.jpg')!.method).toBe(0);
    expect(byName.get('Project/docs/readme.txt')!.method).toBe(8);

    // And the zip is one the everyday tool accepts.
    const work = mkdtempSync(path.join(os.tmpdir(), 'cd-zip-test-'));
    try {
      writeFileSync(path.join(work, 'a.zip'), res.body);
      let unzip: string | null = null;
      try {
        unzip = execFileSync('unzip', ['-t', path.join(work, 'a.zip')], { encoding: 'utf8' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      if (unzip !== null) expect(unzip).toContain('No errors detected');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }

    // One folder: the zip is named after it.
    const single = await download(env.server.url, zipUrl([[docs, 'folder']]), owner.client);
    expect(single.headers.get('content-disposition')).toBe('attachment; filename="docs.zip"');
    expect((await readZip(single.body)).map((e) => e.name).sort()).toEqual(['docs/', 'docs/deep/', 'docs/deep/deeper/', 'docs/deep/deeper/Résumé 日本.md', 'docs/readme.txt']);
  });

  it('makes entry names safe: no absolute paths, no .., no backslashes, no clashes', async () => {
    const owner = await registerUser(env.server.url);
    const uid = owner.user.id;
    const a = await seedFolder(env.seed, uid, 'A');
    const b = await seedFolder(env.seed, uid, 'B');
    const one = await seedFile(env.seed, uid, { name: 'same.txt', parentId: a, content: 'one' });
    const two = await seedFile(env.seed, uid, { name: 'same.txt', parentId: b, content: 'two' });
    // Names the API refuses, put in the database directly (an import, an old row): still safe entries.
    const evil = await seedFile(env.seed, uid, { name: 'evil.txt', content: 'evil' });
    await updateItem(env.seed.db, evil.id, { name: '../../etc/passwd' });
    const back = await seedFile(env.seed, uid, { name: 'back.txt', content: 'back' });
    await updateItem(env.seed.db, back.id, { name: '..\\..\\win.ini' });
    const abs = await seedFile(env.seed, uid, { name: 'abs.txt', content: 'abs' });
    await updateItem(env.seed.db, abs.id, { name: '/root/.ssh/id' });
    const dots = await seedFile(env.seed, uid, { name: 'dots.txt', content: 'dots' });
    await updateItem(env.seed.db, dots.id, { name: '..' });
    const colon = await seedFile(env.seed, uid, { name: 'C: notes "x".txt', content: 'colon' });

    const res = await download(env.server.url, zipUrl([[one.id, 'file'], [two.id, 'file'], [evil.id, 'file'], [back.id, 'file'], [abs.id, 'file'], [dots.id, 'file'], [colon.id, 'file']]), owner.client);
    expect(res.status).toBe(200);
    const entries = await readZip(res.body);
    const names = entries.map((e) => e.name);
    expect(names).toEqual(['same.txt', 'same (1).txt', '.._.._etc_passwd', '.._.._win.ini', '_root_.ssh_id', '_', 'C_ notes _x_.txt']);
    for (const name of names) {
      expect(name.startsWith('/')).toBe(false);
      expect(name.split('/')).not.toContain('..');
      expect(name).not.toContain('\\');
    }
    expect(entries.map((e) => e.sha256)).toEqual(['one', 'two', 'evil', 'back', 'abs', 'dots', 'colon'].map((t) => sha(t)));
  });

  it('refuses bad items 422, another user’s item 404, canDownload false 403, signed out 401', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await seedFolder(env.seed, owner.user.id, 'Mine');
    const file = await seedFile(env.seed, owner.user.id, { name: 'mine.txt' });
    const json = (body: Buffer) => JSON.parse(body.toString());

    for (const bad of ['/api/zip', '/api/zip?items=', '/api/zip?items=nonsense', `/api/zip?items=${folder}|widget`, `/api/zip?items=${folder}`, `/api/zip?items=${folder}|folder|x`]) {
      const res = await download(env.server.url, bad, owner.client);
      expect(res.status, bad).toBe(422);
      expect(json(res.body).errors.items, bad).toBeTruthy();
    }
    // The type named must be the item's.
    expect((await download(env.server.url, zipUrl([[file.id, 'folder']]), owner.client)).status).toBe(422);

    const other = await registerUser(env.server.url);
    const theirs = await seedFile(env.seed, other.user.id, { name: 'theirs.txt' });
    expect((await download(env.server.url, zipUrl([[file.id, 'file'], [theirs.id, 'file']]), owner.client)).status).toBe(404);
    expect((await download(env.server.url, zipUrl([[folder, 'folder']]), other.client)).status).toBe(404);
    expect((await download(env.server.url, zipUrl([['00000000-0000-0000-0000-000000000000', 'file']]), owner.client)).status).toBe(404);
    // A trashed item chosen directly is not found either.
    const trashed = await seedFile(env.seed, owner.user.id, { name: 'trashed.txt' });
    await owner.client.post('/api/remove', { items: [{ id: trashed.id, type: 'file' }] });
    expect((await download(env.server.url, zipUrl([[trashed.id, 'file']]), owner.client)).status).toBe(404);

    expect((await download(env.server.url, zipUrl([[folder, 'folder']]), null)).status).toBe(401);
    expect((await download(env.server.url, zipUrl([[folder, 'folder']]), null, { Authorization: 'Bearer cd_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).status).toBe(401);

    await setRestrictions(env.seed, owner.user.id, { canDownload: false });
    const blocked = await download(env.server.url, zipUrl([[folder, 'folder']]), owner.client);
    expect(blocked.status).toBe(403);
    expect(json(blocked.body).code).toBe('download_temporarily_disabled');
    await setRestrictions(env.seed, owner.user.id, {});
    expect((await download(env.server.url, zipUrl([[folder, 'folder']]), owner.client)).status).toBe(200);
  });

  it('stores a file that does not compress and deflates one that does, whatever its type; both extract byte-exact', async () => {
    const owner = await registerUser(env.server.url);
    const uid = owner.user.id;
    const folder = await seedFolder(env.seed, uid, 'mixed');
    // Random bytes under a type that is not on the already-compressed list: only the trial can tell.
    const noise = randomBytes(3 * 1024 * 1024 + 17);
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog\n`).join('');
    await seedFile(env.seed, uid, { name: 'noise.bin', parentId: folder, mimetype: 'application/octet-stream', content: noise });
    await seedFile(env.seed, uid, { name: 'notes.txt', parentId: folder, mimetype: 'text/plain', content: text });
    await seedFile(env.seed, uid, { name: 'zeros.dat', parentId: folder, mimetype: 'application/octet-stream', content: Buffer.alloc(200_000) });
    await seedFile(env.seed, uid, { name: 'empty.txt', parentId: folder, mimetype: 'text/plain', content: '' });

    const res = await download(env.server.url, zipUrl([[folder, 'folder']]), owner.client);
    expect(res.status).toBe(200);
    const byName = new Map((await readZip(res.body)).map((e) => [e.name, e]));
    expect(byName.get('mixed/noise.bin')).toMatchObject({ method: 0, size: noise.length, sha256: sha(noise) });
    expect(byName.get('mixed/notes.txt')).toMatchObject({ method: 8, size: Buffer.byteLength(text), sha256: sha(text) });
    expect(byName.get('mixed/zeros.dat')).toMatchObject({ method: 8, sha256: sha(Buffer.alloc(200_000)) });
    expect(byName.get('mixed/empty.txt')).toMatchObject({ size: 0, sha256: sha('') });
    // The stored entry costs no more than its bytes; the text shrank.
    expect(res.body.length).toBeLessThan(noise.length + Buffer.byteLength(text) / 2);

    // Debian's unzip agrees: every CRC checks and each file extracts to the same bytes.
    const work = mkdtempSync(path.join(os.tmpdir(), 'cd-zip-method-'));
    try {
      const file = path.join(work, 'm.zip');
      writeFileSync(file, res.body);
      let tested: string | null = null;
      try {
        tested = execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      if (tested !== null) {
        expect(tested).toContain('No errors detected');
        expect(sha(execFileSync('unzip', ['-p', file, 'mixed/noise.bin'], { maxBuffer: 64 * 1024 * 1024 }))).toBe(sha(noise));
        expect(sha(execFileSync('unzip', ['-p', file, 'mixed/notes.txt'], { maxBuffer: 64 * 1024 * 1024 }))).toBe(sha(text));
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('cuts the zip off rather than finishing a corrupt one when a blob is missing', async () => {
    const owner = await registerUser(env.server.url);
    const good = await seedFile(env.seed, owner.user.id, { name: 'good.txt', content: 'good' });
    const lost = await seedFile(env.seed, owner.user.id, { name: 'lost.txt', content: 'lost' });
    await env.seed.blobs.delete(lost.blobKey);
    let failed = false;
    try {
      const res = await download(env.server.url, zipUrl([[good.id, 'file'], [lost.id, 'file']]), owner.client);
      await readZip(res.body);
    } catch {
      failed = true;
    }
    expect(failed).toBe(true);
    // The server is still there.
    expect((await download(env.server.url, zipUrl([[good.id, 'file']]), owner.client)).status).toBe(200);
  });
});
