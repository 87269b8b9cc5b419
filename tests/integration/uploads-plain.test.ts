import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { setRestrictions } from '../../src/server/users/restrictions.ts';
import { Client, registerUser } from '../support/client.ts';
import { browse, mkdir } from '../support/files.ts';
import { useSeededServer } from '../support/seed.ts';
import { createToken, deterministicBytes, storedSha256, uploadForm } from '../support/uploads.ts';

const env = useSeededServer();

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function raw(client: Client, bytes: Uint8Array, query: string, options: { bearer?: string; name?: string } = {}) {
  return client.request(`/api/upload${query}`, {
    method: 'POST',
    body: new Uint8Array(bytes),
    headers: { 'Content-Type': 'application/octet-stream', ...(options.name ? { 'X-File-Name': encodeURIComponent(options.name) } : {}) },
    ...(options.bearer ? { bearer: options.bearer, origin: null, xrw: false } : {}),
  });
}

/** Every blob file of the instance, the temporary ones included. */
async function blobFiles(): Promise<string[]> {
  const root = path.join(env.server.dataDir, 'blobs');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function withSetting<K extends 'upload_limit_bytes' | 'mimetypes_blacklist' | 'default_storage_limit_bytes' | 'subscription_type'>(key: K, value: any, fallback: any, work: () => Promise<void>) {
  await putSetting(env.seed, key, value);
  try {
    await work();
  } finally {
    await putSetting(env.seed, key, fallback);
  }
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c70000000049454e44ae426082', 'hex');
const EXE = Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000', 'hex'), Buffer.alloc(200)]);

describe('POST /api/upload', () => {
  it('takes a multipart upload from our front end (cookie) and answers 201 with the item', async () => {
    const { client } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'Docs');
    const bytes = deterministicBytes(11, 0, 200_000);
    const res = await uploadForm(client, bytes, { filename: 'notes.bin', parent_id: folder, path: '', extension: 'bin' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'file', attributes: { name: 'notes.bin', size: 200_000, parent_id: folder, file_url: `/file/${res.body.data.id}` } });
    expect(await storedSha256(env.seed, res.body.data.id)).toBe(sha(bytes));
    // A second file of the same name gets the next free one.
    const again = await uploadForm(client, 'x', { filename: 'notes.bin', parent_id: folder });
    expect(again.body.data.attributes.name).toBe('notes (1).bin');
  });

  it('takes a raw octet-stream body from curl with a bearer token, the name in X-File-Name or the query', async () => {
    const { client } = await registerUser(env.server.url);
    const token = await createToken(client);
    const bytes = deterministicBytes(12, 0, 70_000);
    const script = new Client(env.server.url);
    const res = await raw(script, bytes, '', { bearer: token, name: 'Überweisung 2024.pdf' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes.name).toBe('Überweisung 2024.pdf');
    expect(await storedSha256(env.seed, res.body.data.id)).toBe(sha(bytes));
    const byQuery = await raw(script, bytes, `?filename=${encodeURIComponent('q.txt')}&path=${encodeURIComponent('A/B')}`, { bearer: token });
    expect(byQuery.status, byQuery.text).toBe(201);
    expect(byQuery.body.data.attributes.mimetype).toBe('text/plain');
    expect((await browse(client)).names).toEqual(['A', 'Überweisung 2024.pdf']);
  });

  it('judges the type by the bytes, not the name or the declared type', async () => {
    const { client } = await registerUser(env.server.url);
    const res = await uploadForm(client, PNG, { filename: 'picture.dat' }, { type: 'text/html' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes.mimetype).toBe('image/png');
  });

  it('refuses bad names and paths of a folder upload with 422 and stores nothing', async () => {
    const { client } = await registerUser(env.server.url);
    const before = await blobFiles();
    const cases: [Record<string, string>, string][] = [
      [{ filename: 'a.txt', path: '../outside' }, 'path'],
      [{ filename: 'a.txt', path: 'ok/../../up' }, 'path'],
      [{ filename: 'a.txt', path: '/etc' }, 'path'],
      [{ filename: 'a.txt', path: 'C:\\Windows' }, 'path'],
      [{ filename: 'a.txt', path: 'bad\u0000name' }, 'path'],
      [{ filename: 'a.txt', path: 'tab\there' }, 'path'],
      [{ filename: 'a.txt', path: 'ok//empty' }, 'path'],
      [{ filename: 'a.txt', path: 'CON' }, 'path'],
      [{ filename: 'a.txt', path: 'fine/nul.txt' }, 'path'],
      [{ filename: 'a.txt', path: 'com1' }, 'path'],
      [{ filename: '../a.txt' }, 'filename'],
      [{ filename: 'LPT1.log' }, 'filename'],
      [{ filename: 'line\nbreak.txt' }, 'filename'],
    ];
    for (const [fields, field] of cases) {
      const res = await uploadForm(client, "payload", fields).catch((e) => { throw new Error(`${JSON.stringify(fields)}: ${e}`); });
      expect(res.status, `${JSON.stringify(fields)}: ${res.text}`).toBe(422);
      expect(res.body.errors[field], JSON.stringify(fields)).toBeDefined();
    }
    const rawCase = await raw(client, Buffer.from('payload'), `?filename=a.txt&path=${encodeURIComponent('../x')}`);
    expect(rawCase.status).toBe(422);
    expect((await browse(client)).names).toEqual([]);
    expect(await blobFiles()).toEqual(before);
  });

  it('refuses a blacklisted type by name, by declared type and by its magic bytes (422, the type named)', async () => {
    const { client } = await registerUser(env.server.url);
    await withSetting('mimetypes_blacklist', ['exe', 'text/html'], [], async () => {
      const byName = await uploadForm(client, 'MZ', { filename: 'setup.EXE' });
      expect(byName.status).toBe(422);
      expect(byName.body).toMatchObject({ code: 'mimetype_blacklisted' });
      expect(byName.body.message).toContain('exe');
      const byType = await uploadForm(client, '<p>hi</p>', { filename: 'page.bin' }, { type: 'text/html' });
      expect(byType.status).toBe(422);
      expect(byType.body.message).toContain('text/html');
      // An innocent name does not help: the bytes are a Windows executable.
      const byBytes = await uploadForm(client, EXE, { filename: 'holiday.jpg' }, { type: 'image/jpeg' });
      expect(byBytes.status, byBytes.text).toBe(422);
      expect(byBytes.body.message).toContain('exe');
      const rawBytes = await raw(client, EXE, '?filename=readme.txt');
      expect(rawBytes.status).toBe(422);
    });
    expect((await browse(client)).names).toEqual([]);
  });

  it('refuses a file over the upload limit with 413 and the formatted limit, before and while reading', async () => {
    const { client } = await registerUser(env.server.url);
    await withSetting('upload_limit_bytes', 100 * 1024, 0, async () => {
      const declared = await raw(client, deterministicBytes(13, 0, 150 * 1024), '?filename=big.bin');
      expect(declared.status).toBe(413);
      expect(declared.body).toMatchObject({ code: 'upload_limit_exceeded' });
      expect(declared.body.message).toContain('100 KB');
      // Multipart: the body length only bounds the file, so the counted bytes decide.
      const counted = await uploadForm(client, deterministicBytes(13, 0, 110 * 1024), { filename: 'big.bin' });
      expect(counted.status).toBe(413);
      expect(counted.body.message).toContain('100 KB');
      const fits = await uploadForm(client, deterministicBytes(13, 0, 100 * 1024), { filename: 'fits.bin' });
      expect(fits.status).toBe(201);
    });
    expect((await browse(client)).names).toEqual(['fits.bin']);
  });

  it('answers 423 with the spec codes when the account may not upload', async () => {
    const { client, user } = await registerUser(env.server.url);
    await setRestrictions(env.seed, user.id, { canUpload: false });
    try {
      const none = await uploadForm(client, 'x', { filename: 'a.txt' });
      expect(none.status).toBe(423);
      expect(none.body.code).toBe('exceed_upload_limit');
      await withSetting('subscription_type', 'metered', 'none', async () => {
        const metered = await raw(client, Buffer.from('x'), '?filename=a.txt');
        expect(metered.status).toBe(423);
        expect(metered.body.code).toBe('upload_temporarily_disabled');
      });
    } finally {
      await setRestrictions(env.seed, user.id, {});
    }
    expect((await browse(client)).names).toEqual([]);
  });

  it('lets only one of two uploads racing for the last bytes of the quota in', async () => {
    const { client } = await registerUser(env.server.url);
    const first = await uploadForm(client, deterministicBytes(14, 0, 10_000), { filename: 'base.bin' });
    expect(first.status).toBe(201);
    await withSetting('default_storage_limit_bytes', 10_000 + 60_000, 5 * 1024 ** 3, async () => {
      for (let round = 0; round < 3; round += 1) {
        const [a, b] = await Promise.all([
          uploadForm(client, deterministicBytes(15, 0, 40_000), { filename: `a${round}.bin` }),
          raw(client, deterministicBytes(16, 0, 40_000), `?filename=b${round}.bin`),
        ]);
        const statuses = [a.status, b.status].sort();
        if (round === 0) {
          expect(statuses, `${a.text} ${b.text}`).toEqual([201, 423]);
          expect([a, b].find((r) => r.status === 423)!.body.code).toBe('storage_limit_exceeded');
        } else expect(statuses).toEqual([423, 423]);
      }
      const usage = await client.get('/api/user/storage');
      expect(usage.body.data.attributes.used).toBe(50_000);
    });
    expect((await browse(client)).names).toHaveLength(2);
  });

  it('keeps no item and no blob when the body is shorter than its Content-Length (the client went away)', async () => {
    const { client } = await registerUser(env.server.url);
    const before = await blobFiles();
    const url = new URL(env.server.url);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /api/upload?filename=liar.bin HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${cookie}\r\nOrigin: ${env.server.url}\r\nX-Requested-With: XMLHttpRequest\r\n` +
            `Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n`,
        );
        socket.write(deterministicBytes(17, 0, 30_000));
        setTimeout(() => socket.destroy(), 300);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await browse(client)).names).toEqual([]);
    expect(await blobFiles()).toEqual(before);
  });

  it('creates the folders of a 30-file folder upload once, 8 files at a time', async () => {
    const { client } = await registerUser(env.server.url);
    const target = await mkdir(client, 'Target');
    const files = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.txt`, path: ['Album', 'Album/2024', 'Album/2024/Summer'][i % 3]! }));
    for (let i = 0; i < files.length; i += 8) {
      const batch = files.slice(i, i + 8);
      const answers = await Promise.all(batch.map((f) => uploadForm(client, `bytes of ${f.name}`, { filename: f.name, parent_id: target, path: f.path })));
      for (const a of answers) expect(a.status, a.text).toBe(201);
    }
    const top = await browse(client, target);
    expect(top.names).toEqual(['Album']);
    const album = top.body.data[0].id;
    const level1 = await browse(client, album);
    expect(level1.names.filter((n) => !n.endsWith('.txt'))).toEqual(['2024']);
    expect(level1.names.filter((n) => n.endsWith('.txt'))).toHaveLength(10);
    const level2 = await browse(client, level1.body.data.find((i: any) => i.attributes.name === '2024').id);
    expect(level2.names.filter((n) => !n.endsWith('.txt'))).toEqual(['Summer']);
    // The tree with the branch down to 2024 open holds Summer once.
    const tree = await client.get(`/api/browse/navigation?open=${level1.body.data.find((i: any) => i.attributes.name === '2024').id}`);
    expect(JSON.stringify(tree.body).match(/"Summer"/g)).toHaveLength(1);
  });

  it('refuses a signed-out client, a wrong bearer token and another user\'s folder', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Private');
    const anonymous = new Client(env.server.url);
    expect((await uploadForm(anonymous, 'x', { filename: 'a.txt' })).status).toBe(401);
    expect((await raw(anonymous, Buffer.from('x'), '?filename=a.txt', { bearer: 'cd_notarealtokennotarealtokennotar' })).status).toBe(401);
    const cookieNoXrw = await owner.client.request('/api/upload?filename=a.txt', { method: 'POST', body: 'x', headers: { 'Content-Type': 'application/octet-stream' }, xrw: false });
    expect(cookieNoXrw.status).toBe(403);
    const other = await registerUser(env.server.url);
    const intoTheirs = await uploadForm(other.client, 'x', { filename: 'a.txt', parent_id: folder });
    expect(intoTheirs.status).toBe(404);
    expect((await browse(owner.client, folder)).names).toEqual([]);
    expect((await owner.client.request('/api/upload', { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
  });
});
