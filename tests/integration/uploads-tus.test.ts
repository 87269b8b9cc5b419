import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { registerUser } from '../support/client.ts';
import { browse, mkdir } from '../support/files.ts';
import { useSeededServer } from '../support/seed.ts';
import { authHeaders, createToken, deterministicBytes, itemFromHeaders, sha256OfDeterministic, storedSha256, tusClientUpload, tusMetadata } from '../support/uploads.ts';

const env = useSeededServer();
const TUS = '/api/upload/tus';

async function tusFetch(pathOrUrl: string, init: { method: string; headers?: Record<string, string>; body?: BodyInit }) {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : env.server.url + pathOrUrl;
  const res = await fetch(url, { method: init.method, headers: { 'Tus-Resumable': '1.0.0', ...init.headers }, body: init.body ?? null, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Creates an upload by hand; answers its absolute URL. */
async function create(auth: Record<string, string>, size: number, meta: Record<string, string>) {
  const res = await tusFetch(TUS, { method: 'POST', headers: { ...auth, 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata(meta) } });
  expect(res.status, res.text).toBe(201);
  return new URL(res.headers.get('location')!, env.server.url).href;
}

function patch(url: string, auth: Record<string, string>, offset: number, body: Uint8Array, type = 'application/offset+octet-stream') {
  return tusFetch(url, { method: 'PATCH', headers: { ...auth, 'Upload-Offset': String(offset), 'Content-Type': type }, body: new Uint8Array(body) });
}

async function tusFiles(): Promise<string[]> {
  return readdir(path.join(env.server.dataDir, 'uploads', 'tus')).catch(() => []);
}

describe('tus uploads', () => {
  it('uploads with tus-js-client and a bearer token, in chunks, answering the item', async () => {
    const { client } = await registerUser(env.server.url);
    const token = await createToken(client);
    const folder = await mkdir(client, 'Inbox');
    const size = 5 * 1024 * 1024 + 123;
    const { done } = tusClientUpload(env.server.url, { size, seed: 1, chunkSize: 1024 * 1024, headers: authHeaders(client, token), metadata: { filename: 'data.bin', filetype: 'application/octet-stream', parent_id: folder, path: '' } });
    const result = await done;
    const item = itemFromHeaders(result.headers);
    expect(item.data).toMatchObject({ type: 'file', attributes: { name: 'data.bin', size, parent_id: folder } });
    expect(result.headers['x-item-id']).toBe(item.data.id);
    expect(await storedSha256(env.seed, item.data.id)).toBe(sha256OfDeterministic(1, size));
    expect((await browse(client, folder)).names).toEqual(['data.bin']);

    // A HEAD after the end (a client that lost the last answer) learns it is done, with the item.
    const head = await tusFetch(result.url, { method: 'HEAD', headers: authHeaders(client, token) });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(size));
    expect(head.headers.get('x-item-id')).toBe(item.data.id);
  });

  it('uploads with tus-js-client and the session cookie, creating the folders of its path', async () => {
    const { client } = await registerUser(env.server.url);
    const size = 300_000;
    const { done } = tusClientUpload(env.server.url, { size, seed: 2, headers: authHeaders(client), metadata: { filename: 'photo.raw', filetype: 'image/x-raw', parent_id: '', path: 'Trip/Day 1' } });
    const item = itemFromHeaders((await done).headers);
    const trip = (await browse(client)).body.data.find((i: any) => i.attributes.name === 'Trip');
    expect(trip).toBeDefined();
    const day = (await browse(client, trip.id)).body.data[0];
    expect(day.attributes.name).toBe('Day 1');
    expect(item.data.attributes.parent_id).toBe(day.id);
  });

  it('creates with the body in the POST (creation-with-upload) and answers the item there', async () => {
    const { client } = await registerUser(env.server.url);
    const token = await createToken(client);
    const body = deterministicBytes(3, 0, 1000);
    const res = await tusFetch(TUS, {
      method: 'POST',
      headers: { ...authHeaders(client, token), 'Upload-Length': '1000', 'Upload-Metadata': tusMetadata({ filename: 'one-shot.bin' }), 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(body),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('upload-offset')).toBe('1000');
    expect(itemFromHeaders({ 'x-item': res.headers.get('x-item')! }).data.attributes.name).toBe('one-shot.bin');
  });

  it('answers 409 to a PATCH at the wrong offset and changes nothing', async () => {
    const { client } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const url = await create(auth, 2000, { filename: 'offset.bin' });
    expect((await patch(url, auth, 0, deterministicBytes(4, 0, 500))).status).toBe(204);
    const wrong = await patch(url, auth, 100, deterministicBytes(4, 100, 600));
    expect(wrong.status).toBe(409);
    const head = await tusFetch(url, { method: 'HEAD', headers: auth });
    expect(head.headers.get('upload-offset')).toBe('500');
  });

  it('answers 415 to a PATCH with another content type', async () => {
    const { client } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const url = await create(auth, 100, { filename: 'type.bin' });
    const res = await patch(url, auth, 0, deterministicBytes(5, 0, 100), 'application/octet-stream');
    expect(res.status).toBe(415);
    expect((await tusFetch(url, { method: 'HEAD', headers: auth })).headers.get('upload-offset')).toBe('0');
  });

  it('refuses bytes past the declared length (413) and keeps the upload as it was', async () => {
    const { client } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const url = await create(auth, 100, { filename: 'long.bin' });
    const res = await patch(url, auth, 0, deterministicBytes(6, 0, 150));
    expect(res.status).toBe(413);
    expect((await tusFetch(url, { method: 'HEAD', headers: auth })).headers.get('upload-offset')).toBe('0');
    expect((await browse(client)).names).toEqual([]);
  });

  it("answers 404 to every request on another user's upload id, and refuses GET to anyone", async () => {
    const owner = await registerUser(env.server.url);
    const auth = authHeaders(owner.client);
    const url = await create(auth, 1000, { filename: 'mine.bin' });
    await patch(url, auth, 0, deterministicBytes(7, 0, 400));
    const other = await registerUser(env.server.url);
    const otherAuth = authHeaders(other.client);
    expect((await tusFetch(url, { method: 'HEAD', headers: otherAuth })).status).toBe(404);
    expect((await patch(url, otherAuth, 400, deterministicBytes(7, 400, 1000))).status).toBe(404);
    expect((await tusFetch(url, { method: 'DELETE', headers: otherAuth })).status).toBe(404);
    for (const headers of [auth, otherAuth, {}]) {
      const get = await tusFetch(url, { method: 'GET', headers });
      expect(get.status).toBe(405);
      expect(get.text).not.toContain(deterministicBytes(7, 0, 16).toString('latin1'));
    }
    expect((await tusFetch(url, { method: 'HEAD', headers: auth })).headers.get('upload-offset')).toBe('400');
  });

  it('refuses a signed-out client, a wrong bearer token and a cookie without our Origin', async () => {
    const { client } = await registerUser(env.server.url);
    const url = await create(authHeaders(client), 100, { filename: 'guarded.bin' });
    const anonymous = { 'Upload-Length': '10', 'Upload-Metadata': tusMetadata({ filename: 'x.bin' }), Origin: env.server.url };
    expect((await tusFetch(TUS, { method: 'POST', headers: anonymous })).status).toBe(401);
    expect((await tusFetch(TUS, { method: 'POST', headers: { ...anonymous, Authorization: 'Bearer cd_wrongwrongwrongwrongwrongwrongwr' } })).status).toBe(401);
    expect((await tusFetch(url, { method: 'HEAD', headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await tusFetch(url, { method: 'HEAD' })).status).toBe(401);
    expect((await patch(url, { Origin: env.server.url }, 0, deterministicBytes(8, 0, 100))).status).toBe(401);
    // Without our Origin, a signed-out write is refused as cross-site before anything else.
    expect((await patch(url, {}, 0, deterministicBytes(8, 0, 100))).status).toBe(403);
    const cookieOnly = { Cookie: authHeaders(client).Cookie! };
    expect((await tusFetch(TUS, { method: 'POST', headers: { ...anonymous, ...cookieOnly, Origin: 'https://evil.example' } })).status).toBe(403);
    expect((await patch(url, { ...cookieOnly, Origin: env.server.url }, 0, deterministicBytes(8, 0, 100))).status).toBe(403);
  });

  it('answers CORS for our own origin only', async () => {
    const { client } = await registerUser(env.server.url);
    const token = await createToken(client);
    const ours = await tusFetch(TUS, { method: 'OPTIONS', headers: { Authorization: `Bearer ${token}`, Origin: env.server.url } });
    expect(ours.headers.get('access-control-allow-origin')).toBe(env.server.url);
    const theirs = await tusFetch(TUS, { method: 'OPTIONS', headers: { Authorization: `Bearer ${token}`, Origin: 'https://evil.example' } });
    expect(theirs.headers.get('access-control-allow-origin')).toBeNull();
    expect(ours.headers.get('tus-extension')).not.toContain('creation-defer-length');
  });

  it('terminates an upload: its files are gone and it cannot be resumed', async () => {
    const { client } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const url = await create(auth, 1000, { filename: 'dropped.bin' });
    await patch(url, auth, 0, deterministicBytes(9, 0, 300));
    const id = url.split('/').pop()!;
    expect(await tusFiles()).toContain(id);
    expect((await tusFetch(url, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await tusFiles()).filter((f) => f.startsWith(id))).toEqual([]);
    expect((await tusFetch(url, { method: 'HEAD', headers: auth })).status).toBe(404);
    expect((await browse(client)).names).toEqual([]);
  });

  it('refuses at creation what the limits refuse, with the JSON body', async () => {
    const { client } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const res = await tusFetch(TUS, { method: 'POST', headers: { ...auth, 'Upload-Length': String(6 * 1024 ** 3), 'Upload-Metadata': tusMetadata({ filename: 'huge.bin' }) } });
    expect(res.status).toBe(423);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'storage_limit_exceeded' });
    const bad = await tusFetch(TUS, { method: 'POST', headers: { ...auth, 'Upload-Length': '10', 'Upload-Metadata': tusMetadata({ filename: 'a.txt', path: '../etc' }) } });
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.text).errors.path).toBeDefined();
    const other = await registerUser(env.server.url);
    const theirs = await mkdir(other.client, 'Theirs');
    const foreign = await tusFetch(TUS, { method: 'POST', headers: { ...auth, 'Upload-Length': '10', 'Upload-Metadata': tusMetadata({ filename: 'a.txt', parent_id: theirs }) } });
    expect(foreign.status).toBe(404);
    expect(await tusFiles()).not.toContain(undefined);
  });


  it('refuses at creation a tus upload that does not fit next to an open one, and checks the quota again at the end', async () => {
    const { client } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    await putSetting(env.seed, 'default_storage_limit_bytes', 60_000);
    try {
      // The first reserves its length: the second no longer fits (uploads-quota.test.ts has more).
      const url = await create(auth, 40_000, { filename: 'a.bin' });
      const second = await tusFetch(TUS, { method: 'POST', headers: { ...auth, 'Upload-Length': '40000', 'Upload-Metadata': tusMetadata({ filename: 'b.bin' }) } });
      expect(second.status).toBe(423);
      expect(JSON.parse(second.text).code).toBe('storage_limit_exceeded');
      // The quota shrinks while the bytes flow: the finishing step refuses, and nothing is left.
      await putSetting(env.seed, 'default_storage_limit_bytes', 30_000);
      const answer = await patch(url, auth, 0, deterministicBytes(60, 0, 40_000));
      expect(answer.status).toBe(423);
      expect(JSON.parse(answer.text).code).toBe('storage_limit_exceeded');
      expect((await browse(client)).names).toEqual([]);
      expect((await tusFiles()).filter((f) => f.startsWith(url.split('/').pop()!))).toEqual([]);
    } finally {
      await putSetting(env.seed, 'default_storage_limit_bytes', 5 * 1024 ** 3);
    }
  });

  it('refuses at the end a blacklisted type found in the bytes, whatever the name says', async () => {
    const { client } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const exe = Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000', 'hex'), Buffer.alloc(5000)]);
    await putSetting(env.seed, 'mimetypes_blacklist', ['exe']);
    try {
      const byName = await tusFetch(TUS, { method: 'POST', headers: { ...auth, 'Upload-Length': '10', 'Upload-Metadata': tusMetadata({ filename: 'tool.exe' }) } });
      expect(byName.status).toBe(422);
      const url = await create(auth, exe.length, { filename: 'holiday.jpg', filetype: 'image/jpeg' });
      const last = await patch(url, auth, 0, exe);
      expect(last.status).toBe(422);
      expect(JSON.parse(last.text)).toMatchObject({ code: 'mimetype_blacklisted' });
      expect((await tusFiles()).filter((f) => f.startsWith(url.split('/').pop()!))).toEqual([]);
    } finally {
      await putSetting(env.seed, 'mimetypes_blacklist', []);
    }
    expect((await browse(client)).names).toEqual([]);
  });
});
