import { createHash, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { createS3Client } from '../../src/server/blobs/s3-store.ts';
import type { AppContext } from '../../src/server/context.ts';
import { sweepUploads } from '../../src/server/uploads/tus.ts';
import { registerUser } from '../support/client.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { MiB } from '../support/tus-s3.ts';
import { authHeaders, createToken, deterministicBytes, sha256OfDeterministic, storedSha256 } from '../support/uploads.ts';

// STORAGE_DRIVER=s3 keeps chunked uploads (POST /api/upload with upload_id, uploads/chunks.ts) in
// progress in the bucket (uploads/chunks/…, chunk-staging-s3.ts): app nodes with data dirs of their
// own, on one PostgreSQL database and one bucket (s3rver), take the chunks of one upload in turn.
// Several nodes need PostgreSQL (SQLite is one process), so they run there; one node on S3 runs on
// SQLite alone: what it checks is the bucket, and the database's side of chunked uploads and their
// sweep runs on both databases in uploads-chunked.test.ts.
const onPostgres = process.env.TEST_DB === 'postgres';
const APP_KEY = 'a shared app key of at least thirty-two characters';
const PREFIX = 'uploads/chunks/';

const started: RunningServer[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  // Joined nodes first: the first node's stop drops the database and the bucket.
  for (const s of started.splice(0).reverse()) await s.stop();
});

async function nodes(count: number): Promise<{ servers: RunningServer[]; s3: S3Client; seed: AppContext }> {
  const first = await startServer({ storage: 's3', env: { APP_KEY } });
  started.push(first);
  for (let i = 1; i < count; i++) started.push(await startServer({ join: first, ownDataDir: true, env: { APP_KEY } }));
  const s3 = await createS3Client(first.s3!.settings);
  closers.push(async () => s3.destroy());
  const seed = await seedContext(first);
  closers.push(() => seed.db.destroy());
  return { servers: started.slice(-count), s3, seed };
}

async function staged(s3: S3Client, bucket: string): Promise<string[]> {
  const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: PREFIX }));
  return (page.Contents ?? []).map((o) => o.Key!.slice(PREFIX.length)).sort();
}

async function record(s3: S3Client, bucket: string, key: string): Promise<any> {
  const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: `${PREFIX}${key}.json` }));
  return JSON.parse(await answer.Body!.transformToString());
}

/** One chunk as the spec's store sends it (fields first, then the file part), to the node at `url`. */
async function sendChunk(url: string, auth: Record<string, string>, bytes: Uint8Array, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ filename: 'data.bin', parent_id: '', path: '', ...fields })) form.append(k, v);
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'application/octet-stream' }), 'blob');
  const res = await fetch(`${url}/api/upload`, { method: 'POST', headers: auth, body: form });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null };
}

const localChunks = (server: RunningServer) => readdir(path.join(server.dataDir, 'uploads', 'chunks')).catch(() => [] as string[]);
const newId = () => randomUUID().replaceAll('-', '');
const keyOf = (binding: string, uploadId: string) => createHash('sha256').update(`${binding}\0${uploadId}`).digest('hex');
const reservations = (seed: AppContext, ownerId: string) => seed.db.selectFrom('upload_reservations').select(['id', 'bytes']).where('owner_id', '=', ownerId).execute();

describe('chunked uploads staged in the bucket (STORAGE_DRIVER=s3)', () => {
  it.skipIf(onPostgres)('keeps the chunks in the bucket (8 MiB parts and a tail), answers a repeated chunk 409, makes the file once, and sweeps an abandoned upload', async () => {
    const { servers, s3, seed } = await nodes(1);
    const server = servers[0]!;
    const bucket = server.s3!.bucket;
    const { client, user } = await registerUser(server.url);
    const auth = authHeaders(client, await createToken(client));
    const size = 10 * MiB + 77;
    const uploadId = newId();
    const key = keyOf(user.id, uploadId);
    let item: string | null = null;
    for (let offset = 0; offset < size; offset += 3 * MiB) {
      const end = Math.min(size, offset + 3 * MiB);
      const res = await sendChunk(server.url, auth, deterministicBytes(21, offset, end), { upload_id: uploadId, offset: String(offset), is_last: String(end === size) });
      if (end < size) {
        expect(res.status, res.text).toBe(200);
        expect(res.body.offset).toBe(end);
        const stored = await record(s3, bucket, key);
        expect(stored.offset).toBe(end);
        expect(stored.staged.parts.reduce((sum: number, p: { size: number }) => sum + p.size, 0) + stored.staged.tail).toBe(end);
        if (end === 9 * MiB) expect(stored.staged).toMatchObject({ parts: [{ size: 8 * MiB }], tail: MiB });
        // One tail object at a time: the one the record counts.
        expect((await staged(s3, bucket)).filter((n) => n.includes('.tail.'))).toEqual([stored.staged.tailKey.slice(PREFIX.length)]);
        if (offset === 0) {
          const again = await sendChunk(server.url, auth, deterministicBytes(21, 0, end), { upload_id: uploadId, offset: '0', is_last: 'false' });
          expect(again.status, again.text).toBe(409);
          expect(again.body).toMatchObject({ code: 'offset_mismatch', offset: end });
        }
      } else {
        expect(res.status, res.text).toBe(201);
        item = res.body.data.id;
      }
    }
    expect(await storedSha256(seed, item!)).toBe(sha256OfDeterministic(21, size));
    // Only the record stays (a repeated last chunk learns the item), nothing on the node's disk.
    expect(await staged(s3, bucket)).toEqual([`${key}.json`]);
    expect(await localChunks(server)).toEqual([]);
    expect(await reservations(seed, user.id)).toEqual([]);

    // A small file in two chunks: one PUT, no multipart upload.
    const small = newId();
    expect((await sendChunk(server.url, auth, deterministicBytes(22, 0, 1000), { upload_id: small, offset: '0', is_last: 'false' })).status).toBe(200);
    const smallLast = await sendChunk(server.url, auth, deterministicBytes(22, 1000, 3000), { upload_id: small, offset: '1000', is_last: 'true' });
    expect(smallLast.status, smallLast.text).toBe(201);
    expect(await storedSha256(seed, smallLast.body.data.id)).toBe(sha256OfDeterministic(22, 3000));

    // An upload abandoned after a part and a tail: the sweep, run past the abandonment time, removes
    // its objects, its multipart upload (aborted from its record) and its reservation.
    const lost = newId();
    const lostKey = keyOf(user.id, lost);
    expect((await sendChunk(server.url, auth, deterministicBytes(23, 0, 5 * MiB), { upload_id: lost, offset: '0', is_last: 'false' })).status).toBe(200);
    expect((await sendChunk(server.url, auth, deterministicBytes(23, 5 * MiB, 9 * MiB), { upload_id: lost, offset: String(5 * MiB), is_last: 'false' })).status).toBe(200);
    expect((await record(s3, bucket, lostKey)).staged).toMatchObject({ parts: [{ size: 8 * MiB }], tail: MiB });
    expect((await staged(s3, bucket)).filter((n) => n.startsWith(lostKey))).toHaveLength(2);
    expect((await reservations(seed, user.id)).map((r) => Number(r.bytes))).toEqual([9 * MiB]);
    await sweepUploads({ ...seed, clock: { now: () => new Date(Date.now() + 2 * 3600_000) } });
    expect((await staged(s3, bucket)).filter((n) => n.startsWith(lostKey))).toHaveLength(2);
    await sweepUploads({ ...seed, clock: { now: () => new Date(Date.now() + 3 * 3600_000 + 60_000) } });
    expect((await staged(s3, bucket)).filter((n) => n.startsWith(lostKey))).toEqual([]);
    expect(await reservations(seed, user.id)).toEqual([]);
    const late = await sendChunk(server.url, auth, deterministicBytes(23, 9 * MiB, 10 * MiB), { upload_id: lost, offset: String(9 * MiB), is_last: 'true' });
    expect(late.status, late.text).toBe(404);
  });

  it.skipIf(onPostgres)('finishes an empty file sent as one chunk (nothing to sniff is asked of the bucket)', async () => {
    const { servers, seed } = await nodes(1);
    const server = servers[0]!;
    const { client } = await registerUser(server.url);
    const auth = authHeaders(client, await createToken(client));
    const res = await sendChunk(server.url, auth, new Uint8Array(0), { upload_id: newId(), offset: '0', is_last: 'true', filename: 'empty.txt' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes.size).toBe(0);
    expect(await storedSha256(seed, res.body.data.id)).toBe(createHash('sha256').digest('hex'));
  });

  it.skipIf(onPostgres)('drops a chunk over the chunk cap (413) whose bytes had already made a part: the record is kept, the chunk goes again and the bytes come out right', async () => {
    const { servers, s3, seed } = await nodes(1);
    const server = servers[0]!;
    const bucket = server.s3!.bucket;
    const { client, user } = await registerUser(server.url);
    const auth = authHeaders(client, await createToken(client));
    const uploadId = newId();
    const key = keyOf(user.id, uploadId);
    const size = 3 * MiB + 8 * MiB + 128 * 1024;
    expect((await sendChunk(server.url, auth, deterministicBytes(26, 0, 3 * MiB), { upload_id: uploadId, offset: '0', is_last: 'false' })).status).toBe(200);
    const committed = await record(s3, bucket, key);
    expect(committed.staged).toMatchObject({ parts: [], tail: 3 * MiB });
    // 8 MiB + 128 KiB: over the cap (8 MiB + 64 KiB) only after the tail and 5 MiB of it made the first part.
    const big = await sendChunk(server.url, auth, deterministicBytes(26, 3 * MiB, size), { upload_id: uploadId, offset: String(3 * MiB), is_last: 'true' });
    expect(big.status, big.text).toBe(413);
    expect(big.body.code).toBe('chunk_too_large');
    const kept = await record(s3, bucket, key);
    expect(kept.offset).toBe(3 * MiB);
    expect(kept.staged).toMatchObject({ parts: [], tail: 3 * MiB, tailKey: committed.staged.tailKey });
    // Its multipart upload was begun (and recorded, to be aborted if the upload is given up).
    expect(kept.staged.multipart).toBeTruthy();
    expect((await reservations(seed, user.id)).map((r) => Number(r.bytes))).toEqual([3 * MiB]);
    // Smaller chunks finish it: part 1 is sent again over the dropped one.
    const half = 3 * MiB + 4 * MiB;
    expect((await sendChunk(server.url, auth, deterministicBytes(26, 3 * MiB, half), { upload_id: uploadId, offset: String(3 * MiB), is_last: 'false' })).status).toBe(200);
    const last = await sendChunk(server.url, auth, deterministicBytes(26, half, size), { upload_id: uploadId, offset: String(half), is_last: 'true' });
    expect(last.status, last.text).toBe(201);
    expect(await storedSha256(seed, last.body.data.id)).toBe(sha256OfDeterministic(26, size));
    expect(await staged(s3, bucket)).toEqual([`${key}.json`]);
  });

  it.skipIf(!onPostgres)('takes the chunks of one upload alternately on two nodes with data dirs of their own, byte-identical; the sweep on either cleans an abandoned one', async () => {
    const { servers, s3, seed } = await nodes(2);
    const [a, b] = servers as [RunningServer, RunningServer];
    expect(a.dataDir).not.toBe(b.dataDir);
    const bucket = a.s3!.bucket;
    const { client, user } = await registerUser(a.url);
    const auth = authHeaders(client, await createToken(client));
    // 3 MiB chunks: parts are made of bytes received on both nodes (the tail of one read back by the other).
    const size = 17 * MiB + 4321;
    const uploadId = newId();
    const answers: number[] = [];
    let item: string | null = null;
    let n = 0;
    for (let offset = 0; offset < size; offset += 3 * MiB, n += 1) {
      const end = Math.min(size, offset + 3 * MiB);
      const node = n % 2 === 0 ? a : b;
      const res = await sendChunk(node.url, auth, deterministicBytes(24, offset, end), { upload_id: uploadId, offset: String(offset), is_last: String(end === size) });
      answers.push(res.status);
      if (end === size) item = res.body?.data?.id;
      else expect(res.body.offset).toBe(end);
    }
    expect(answers).toEqual([200, 200, 200, 200, 200, 201]);
    expect(await storedSha256(seed, item!)).toBe(sha256OfDeterministic(24, size));
    for (const node of [a, b]) expect(await localChunks(node)).toEqual([]);

    // An abandoned one, begun on A and continued on B; the sweep of B's own context cleans it.
    const lost = newId();
    const lostKey = keyOf(user.id, lost);
    expect((await sendChunk(a.url, auth, deterministicBytes(25, 0, 6 * MiB), { upload_id: lost, offset: '0', is_last: 'false' })).status).toBe(200);
    expect((await sendChunk(b.url, auth, deterministicBytes(25, 6 * MiB, 9 * MiB), { upload_id: lost, offset: String(6 * MiB), is_last: 'false' })).status).toBe(200);
    expect((await staged(s3, bucket)).filter((o) => o.startsWith(lostKey)).length).toBeGreaterThan(0);
    const seedB = await seedContext(b);
    closers.push(() => seedB.db.destroy());
    await sweepUploads({ ...seedB, clock: { now: () => new Date(Date.now() + 3 * 3600_000 + 60_000) } });
    expect((await staged(s3, bucket)).filter((o) => o.startsWith(lostKey))).toEqual([]);
    expect(await reservations(seed, user.id)).toEqual([]);
  });
});
