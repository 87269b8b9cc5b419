import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { reconcileBlobs } from '../../src/server/blobs/reconcile.ts';
import type { AppContext } from '../../src/server/context.ts';
import { purgeExpiredTrash } from '../../src/server/files/purge.ts';
import { findItem } from '../../src/server/files/queries.ts';
import { thumbnailBlobKeys } from '../../src/server/previews/sizes.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { cookieHeader, download } from '../support/downloads.ts';
import { browse, mkdir, trashTop } from '../support/files.ts';
import type { RunningS3 } from '../support/s3.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { authHeaders, itemFromHeaders, sha256OfDeterministic, storedSha256, tusClientUpload, tusMetadata, uploadForm } from '../support/uploads.ts';

// The product on STORAGE_DRIVER=s3 against a real S3-compatible server (s3rver, its own process):
// every path that stores or reads bytes goes through the bucket, none through DATA_DIR/blobs.
const ADMIN = { email: 'storage-admin@example.test', password: 'storage admin password' };
let s3: RunningS3;
let server: RunningServer;
let seed: AppContext;

beforeAll(async () => {
  server = await startServer({ storage: 's3', env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  s3 = server.s3!;
  seed = await seedContext(server);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const blobKeyOf = async (id: string) => (await findItem(seed.db, id))!.blob_key!;
const inBucket = async (key: string) => (await seed.blobs.stat(key)) !== null;
const trash = (client: Client, ...items: [string, 'folder' | 'file'][]) => client.post('/api/remove', { items: items.map(([id, type]) => ({ id, type })) });

async function upload(client: Client, bytes: Buffer, name: string, parentId = ''): Promise<string> {
  const res = await uploadForm(client, bytes, { filename: name, parent_id: parentId, path: '' }, { type: name.endsWith('.png') ? 'image/png' : 'application/octet-stream' });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function zipEntries(zip: Buffer): Promise<Record<string, string>> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true }, (error, z) => (error ? reject(error) : resolve(z!))));
  const entries: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return file.readEntry();
      file.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const parts: Buffer[] = [];
        for await (const part of stream!) parts.push(part as Buffer);
        entries[entry.fileName] = sha256(Buffer.concat(parts));
        file.readEntry();
      });
    });
    file.on('end', resolve);
    file.on('error', reject);
    file.readEntry();
  });
  return entries;
}

describe('STORAGE_DRIVER=s3', () => {
  it('stores a plain upload in the bucket and serves it whole and by byte range', async () => {
    const { client } = await registerUser(server.url);
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const id = await upload(client, bytes, 'data.bin');
    const key = await blobKeyOf(id);
    expect(await inBucket(key)).toBe(true);
    expect(existsSync(path.join(server.dataDir, 'blobs', key))).toBe(false);

    const whole = await download(server.url, `/file/${id}`, client);
    expect(whole.status).toBe(200);
    expect(sha256(whole.body)).toBe(sha256(bytes));
    const ranged = await download(server.url, `/file/${id}`, client, { Range: 'bytes=1048570-1048585' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 1048570-1048585/${bytes.length}`);
    expect(ranged.body.equals(bytes.subarray(1048570, 1048586))).toBe(true);
    const first = await download(server.url, `/file/${id}`, client, { Range: 'bytes=0-0' });
    expect(first.body.equals(bytes.subarray(0, 1))).toBe(true);
    const tail = await download(server.url, `/file/${id}`, client, { Range: 'bytes=-5' });
    expect(tail.body.equals(bytes.subarray(-5))).toBe(true);
  });

  it('finishes a tus upload staged in the bucket, leaving nothing staged on the disk', async () => {
    const { client } = await registerUser(server.url);
    const size = 6 * 1024 * 1024 + 3;
    const { done } = tusClientUpload(server.url, { size, seed: 7, chunkSize: 2 * 1024 * 1024, headers: authHeaders(client), metadata: { filename: 'video.raw', filetype: 'application/octet-stream', parent_id: '', path: '' } });
    const item = itemFromHeaders((await done).headers);
    expect(item.data.attributes.size).toBe(size);
    expect(await storedSha256(seed, item.data.id)).toBe(sha256OfDeterministic(7, size));
    const staged = (await readdir(path.join(server.dataDir, 'uploads', 'tus')).catch(() => [] as string[])).filter((name) => !name.endsWith('.json'));
    expect(staged).toEqual([]);
    const ranged = await download(server.url, `/file/${item.data.id}`, client, { Range: `bytes=${size - 10}-` });
    expect(ranged.status).toBe(206);
    expect(ranged.body.length).toBe(10);
  });

  it('finishes an empty tus upload staged in the bucket (its first bytes are none, not a failing storage)', async () => {
    const { client } = await registerUser(server.url);
    const { done } = tusClientUpload(server.url, { size: 0, seed: 1, chunkSize: 1024, headers: authHeaders(client), metadata: { filename: 'empty.txt', filetype: 'text/plain', parent_id: '', path: '' } });
    const item = itemFromHeaders((await done).headers);
    expect(item.data.attributes.size).toBe(0);
    const got = await download(server.url, `/file/${item.data.id}`, client);
    expect(got.status).toBe(200);
    expect(got.body.length).toBe(0);
  });

  it('streams a zip of a folder from the bucket', async () => {
    const { client } = await registerUser(server.url);
    const folder = await mkdir(client, 'Project');
    const a = randomBytes(200_000);
    const b = Buffer.from('plain text '.repeat(1000));
    await upload(client, a, 'a.bin', folder);
    await upload(client, b, 'b.txt', folder);
    const res = await download(server.url, `/api/zip?items=${encodeURIComponent(`${folder}|folder`)}`, client);
    expect(res.status).toBe(200);
    expect(await zipEntries(res.body)).toEqual({ 'Project/a.bin': sha256(a), 'Project/b.txt': sha256(b) });
  });

  it('makes thumbnails of an uploaded PNG from the bucket, into the bucket, and removes every blob on delete and purge', async () => {
    const { client, user } = await registerUser(server.url);
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
    const id = await upload(client, png, 'picture.png');
    // The server's own worker makes them after the upload: wait for the row to name them.
    await expect.poll(async () => (await findItem(seed.db, id))?.thumbnail_key, { timeout: 15_000 }).toBeTruthy();
    const item = (await findItem(seed.db, id))!;
    const thumbnails = thumbnailBlobKeys(item.thumbnail_key);
    expect(thumbnails.length).toBe(3);
    for (const key of thumbnails) expect(await inBucket(key)).toBe(true);
    const thumb = await download(server.url, `/thumbnail/${id}/sm`, client);
    expect(thumb.status).toBe(200);
    expect((await sharp(thumb.body).metadata()).width).toBe(256);

    // To the trash: the blobs stay; emptying the trash removes them all (one batched delete).
    const other = await upload(client, Buffer.from('other'), 'other.bin');
    const otherKey = await blobKeyOf(other);
    expect((await trash(client, [id, 'file'], [other, 'file'])).status).toBe(204);
    expect(await inBucket(item.blob_key!)).toBe(true);
    expect((await client.post('/api/trash/dump', { _method: 'delete' })).status).toBe(204);
    expect(await trashTop(client)).toEqual([]);
    for (const key of [item.blob_key!, otherKey, ...thumbnails]) expect(await inBucket(key), key).toBe(false);

    // The purge job, on the same store, removes what aged out of the trash.
    const aging = await upload(client, Buffer.from('aging'), 'aging.bin');
    const agingKey = await blobKeyOf(aging);
    expect((await trash(client, [aging, 'file'])).status).toBe(204);
    await putSetting(seed, 'trash_retention_days', 30);
    const later = { ...seed, clock: { now: () => new Date(Date.now() + 31 * 24 * 60 * 60_000) } };
    expect((await purgeExpiredTrash(later)).items).toBeGreaterThanOrEqual(1);
    expect(await inBucket(agingKey)).toBe(false);
    expect(user.id).toBeTruthy();
  });
});

describe('the admin server report on S3', () => {
  it('names the driver the process runs with', async () => {
    const admin = new Client(server.url);
    expect((await admin.post('/login', ADMIN)).status).toBe(200);
    const res = await admin.get('/api/admin/settings/server');
    expect(res.status).toBe(200);
    expect(res.body.data.storage_driver).toBe('s3');
  });
});

describe('the blob reconciler on S3', () => {
  it('lists the bucket page by page and removes old orphans in one batch, keeping every referenced blob', async () => {
    const { client, user } = await registerUser(server.url);
    const kept = await blobKeyOf(await upload(client, Buffer.from('kept'), 'kept.bin'));
    const owner = String(user.id).toLowerCase();
    const orphans = Array.from({ length: 5 }, () => `files/${owner}/${randomUUID()}`);
    for (const key of orphans) await seed.blobs.put(key, Readable.from([Buffer.from('orphan')]));
    const foreign = 'elsewhere/not-ours.bin';
    await seed.blobs.put(foreign, Readable.from([Buffer.from('x')]));
    // A day on: everything planted is past the grace period.
    const later = { ...seed, clock: { now: () => new Date(Date.now() + 24 * 60 * 60_000) } };
    const removed: string[] = [];
    const report = await reconcileBlobs(later, { repair: true, graceMs: 60 * 60_000, batchSize: 3, onOrphan: (blob, gone) => gone && removed.push(blob.key) });
    expect(removed.filter((key) => key.startsWith(`files/${owner}/`)).sort()).toEqual([...orphans].sort());
    expect(report.missing).toBe(0);
    for (const key of orphans) expect(await inBucket(key)).toBe(false);
    expect(await inBucket(kept)).toBe(true);
    expect(await inBucket(foreign)).toBe(true);
  });
});

describe('STORAGE_DRIVER=s3 when the storage goes away', () => {
  it('refuses an upload with 503 while the storage is down, leaving nothing, and takes it once it is back', async () => {
    const { client } = await registerUser(server.url);
    await s3.pause();
    try {
      const res = await uploadForm(client, randomBytes(100_000), { filename: 'down.bin', parent_id: '', path: '' });
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/Storage is not reachable/);
      expect((await browse(client)).names).toEqual([]);
    } finally {
      await s3.start();
    }
    await upload(client, randomBytes(1000), 'up.bin');
    expect((await browse(client)).names).toEqual(['up.bin']);
  });

  it('answers 503 to a tus PATCH while the storage is down, shows nothing, and takes the rest once it is back', async () => {
    const { client } = await registerUser(server.url);
    const bytes = randomBytes(300_000);
    const headers = { ...authHeaders(client), 'Tus-Resumable': '1.0.0', 'X-Forwarded-For': client.ip };
    const created = await fetch(`${server.url}/api/upload/tus`, {
      method: 'POST',
      headers: { ...headers, 'Upload-Length': String(bytes.length), 'Upload-Metadata': tusMetadata({ filename: 'late.bin', filetype: 'application/octet-stream', parent_id: '', path: '' }) },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, server.url).href;
    const patch = (from: number, to: number) =>
      fetch(location, { method: 'PATCH', headers: { ...headers, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(from) }, body: bytes.subarray(from, to) });
    expect((await patch(0, 100_000)).status).toBe(204);
    await s3.pause();
    try {
      const last = await patch(100_000, bytes.length);
      expect(last.status).toBe(503);
      expect((await last.json()).code).toBe('storage_unavailable');
      expect((await browse(client)).names).toEqual([]);
    } finally {
      await s3.start();
    }
    // The bytes staged in the bucket before it went are kept; the client resumes from there.
    const head = await fetch(location, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('100000');
    const rest = await patch(100_000, bytes.length);
    expect(rest.status).toBe(204);
    const id = rest.headers.get('x-item-id')!;
    expect((await browse(client)).names).toEqual(['late.bin']);
    expect(sha256((await download(server.url, `/file/${id}`, client)).body)).toBe(sha256(bytes));
  });

  it('answers a chunked upload’s last chunk 503 while the storage is down; the same chunk sent again once it is back finishes it', async () => {
    const { client } = await registerUser(server.url);
    const bytes = randomBytes(300_000);
    const uploadId = randomUUID();
    const chunk = (from: number, to: number, isLast: boolean) =>
      uploadForm(client, bytes.subarray(from, to), { upload_id: uploadId, offset: String(from), is_last: String(isLast), filename: 'chunks.bin', parent_id: '', path: '' });
    expect((await chunk(0, 150_000, false)).status).toBe(200);
    await s3.pause();
    try {
      const last = await chunk(150_000, bytes.length, true);
      expect(last.status).toBe(503);
      expect(last.body.code).toBe('storage_unavailable');
      expect((await browse(client)).names).toEqual([]);
    } finally {
      await s3.start();
    }
    const again = await chunk(150_000, bytes.length, true);
    expect(again.status, again.text).toBe(201);
    expect(sha256((await download(server.url, `/file/${again.body.data.id}`, client)).body)).toBe(sha256(bytes));
  });

  it('closes a download whose storage goes away mid-way, and keeps serving', async () => {
    const { client } = await registerUser(server.url);
    const bytes = randomBytes(24 * 1024 * 1024);
    const id = await upload(client, bytes, 'big.bin');
    const res = await fetch(`${server.url}/file/${id}`, { headers: { Cookie: cookieHeader(client), 'X-Forwarded-For': client.ip } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = (await reader.read()).value!.length;
    await s3.pause();
    let cutOff = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.length;
      }
    } catch {
      cutOff = true;
    } finally {
      await s3.start();
    }
    // Never a short body that looks whole: the connection is cut before the last byte.
    expect(cutOff || received < bytes.length).toBe(true);
    expect(received).toBeLessThan(bytes.length);
    const again = await download(server.url, `/file/${id}`, client, { Range: 'bytes=0-99' });
    expect(again.status).toBe(206);
    expect(again.body.equals(bytes.subarray(0, 100))).toBe(true);
  });
});

describe('STORAGE_DRIVER=s3 at boot', () => {
  // s3rver checks the access key but not a V4 signature, so a wrong secret is refused the same way
  // (403) only by a real S3: the probe answers any 403 so (its unit test: an unknown key).
  it.each([
    [{ S3_ACCESS_KEY_ID: 'NOBODY' }, /S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: .*refused the credentials/],
    [{ S3_BUCKET: 'no-such-bucket' }, /S3_BUCKET: the bucket "no-such-bucket" does not exist/],
    [{ S3_BUCKET: undefined }, /S3_BUCKET: is required when STORAGE_DRIVER=s3/],
  ])('refuses to start with %j, naming the variable, exit code 1', async (change, message) => {
    const env = Object.fromEntries(Object.entries({ ...s3.env, ...change }).map(([k, v]) => [k, v ?? '']));
    // The variables of this file's S3 server, changed: no S3 server of its own.
    const failed = await startServer({ env, storage: 'local' }).then(
      (started) => started.stop().then(() => null),
      (error: Error) => error,
    );
    expect(failed?.message).toMatch(/server exited with 1/);
    expect(failed?.message).toMatch(message);
  });
});
