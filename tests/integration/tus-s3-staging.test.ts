import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { createS3BlobStore, createS3Client } from '../../src/server/blobs/s3-store.ts';
import type { AppContext } from '../../src/server/context.ts';
import { createContext } from '../../src/server/context.ts';
import { loadConfig } from '../../src/server/config/env.ts';
import { sweepUploads } from '../../src/server/uploads/tus.ts';
import { registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { seedContext } from '../support/seed.ts';
import { createUpload, MiB, record, staged, TUS, tusFetch, until } from '../support/tus-s3.ts';
import { authHeaders, createToken, deterministicBytes, sha256OfDeterministic, storedSha256 } from '../support/uploads.ts';

// STORAGE_DRIVER=s3 keeps tus uploads in progress in the bucket (uploads/tus/…): app nodes with
// data dirs of their own, on one PostgreSQL database and one bucket (s3rver), take the PATCHes of
// one upload in turn. Several nodes need PostgreSQL (SQLite is one process), so they run there; one
// node on S3 runs on SQLite alone: what it checks is the bucket, and the database's side of staging
// and sweeping runs on both databases in uploads-tus-lifecycle.test.ts and uploads-chunked.test.ts.
const onPostgres = process.env.TEST_DB === 'postgres';
const APP_KEY = 'a shared app key of at least thirty-two characters';

const started: RunningServer[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  // Joined nodes first: the first node's stop drops the database and the bucket.
  for (const s of started.splice(0).reverse()) await s.stop();
});

async function nodes(count: number): Promise<RunningServer[]> {
  const first = await startServer({ storage: 's3', env: { APP_KEY } });
  started.push(first);
  for (let i = 1; i < count; i++) started.push(await startServer({ join: first, ownDataDir: true, env: { APP_KEY } }));
  return started.slice(-count);
}

async function seedOf(server: RunningServer, blobs?: AppContext['blobs']): Promise<AppContext> {
  const seed = blobs ? await contextWith(server, blobs) : await seedContext(server);
  closers.push(() => seed.db.destroy());
  return seed;
}

async function contextWith(server: RunningServer, blobs: AppContext['blobs']): Promise<AppContext> {
  const config = await loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}), ...server.storageEnv }, server.dataDir);
  return createContext(config, { blobs });
}

/** Nothing of tus in a node's own data dir. */
async function localStaging(server: RunningServer): Promise<string[]> {
  return readdir(path.join(server.dataDir, 'uploads', 'tus')).catch(() => []);
}

describe('tus staging in the bucket (STORAGE_DRIVER=s3)', () => {
  it.skipIf(onPostgres)('keeps an upload of small PATCHes in the bucket (parts and a tail), finishes it by a copy inside the bucket and sweeps an abandoned one, aborting its multipart upload', async () => {
    const [server] = (await nodes(1)) as [RunningServer];
    const s3 = await createS3Client(server.s3!.settings);
    closers.push(async () => s3.destroy());
    const seed = await seedOf(server);
    const { client } = await registerUser(server.url);
    const auth = authHeaders(client, await createToken(client));

    // 3 MiB PATCHes: the first two wait in the tail, the third makes an 8 MiB part.
    const size = 10 * MiB + 77;
    const location = await createUpload(server, auth, size, 'pieces.bin');
    const id = location.split('/').pop()!;
    let itemId: string | null = null;
    for (let offset = 0; offset < size; offset += 3 * MiB) {
      const end = Math.min(size, offset + 3 * MiB);
      const res = await tusFetch(server.url + location, 'PATCH', { ...auth, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(3, offset, end));
      expect(res.status, res.text).toBe(204);
      expect(res.headers.get('upload-offset')).toBe(String(end));
      if (end < size) {
        const stored = (await record(s3, server.s3!.bucket, id))!;
        expect((stored.parts ?? []).reduce((sum, p) => sum + p.size, 0) + (stored.tail ?? 0)).toBe(end);
        if (end === 9 * MiB) expect(stored).toMatchObject({ parts: [{ size: 8 * MiB }], tail: MiB });
        expect((await tusFetch(server.url + location, 'HEAD', auth)).headers.get('upload-offset')).toBe(String(end));
      } else itemId = res.headers.get('x-item-id');
    }
    expect(await storedSha256(seed, itemId!)).toBe(sha256OfDeterministic(3, size));
    // Only the record stays (a HEAD still answers the item), nothing on the node's disk.
    expect(await staged(s3, server.s3!.bucket)).toEqual([`${id}.json`]);
    expect(await localStaging(server)).toEqual([]);
    const head = await tusFetch(server.url + location, 'HEAD', auth);
    expect(head.headers.get('x-item-id')).toBe(itemId);

    // An upload abandoned half-way: a 9 MiB PATCH sent on as one part as it arrived, then a 1 MiB tail.
    const lost = await createUpload(server, auth, 20 * MiB, 'lost.bin');
    const lostId = lost.split('/').pop()!;
    for (const [from, to] of [
      [0, 9 * MiB],
      [9 * MiB, 10 * MiB],
    ] as const) {
      const res = await tusFetch(server.url + lost, 'PATCH', { ...auth, 'Upload-Offset': String(from), 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(4, from, to));
      expect(res.status, res.text).toBe(204);
    }
    const lostRecord = (await record(s3, server.s3!.bucket, lostId))!;
    expect(lostRecord).toMatchObject({ parts: [{ size: 9 * MiB }], tail: MiB });
    const multipart = lostRecord.multipart;
    expect(multipart).toBeTruthy();
    expect(await staged(s3, server.s3!.bucket)).toEqual([`${id}.json`, `${lostId}.json`, `${lostId}.tail`].sort());
    // A staged object of no upload (its record lost), and the sweep run later than the abandonment
    // time, in a context whose S3 client records the requests it sends.
    const orphan = `${'0'.repeat(31)}1.tail`;
    await s3.send(new PutObjectCommand({ Bucket: server.s3!.bucket, Key: `uploads/tus/${orphan}`, Body: 'left by a crash' }));
    const sent: { command: string; key?: string; uploadId?: string }[] = [];
    const watched = await createS3Client(server.s3!.settings);
    closers.push(async () => watched.destroy());
    watched.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: string; UploadId?: string };
        sent.push({ command: context.commandName ?? '', key: input.Key, uploadId: input.UploadId });
        return next(args);
      },
      { step: 'initialize' },
    );
    const later = await seedOf(server, await createS3BlobStore(server.s3!.settings, seed.logger, { client: watched }));
    const hours = 48 * 3600 * 1000;
    const swept = await sweepUploads({ ...later, clock: { now: () => new Date(Date.now() + hours) } });
    expect(swept.removed).toBe(3);
    expect(sent).toContainEqual({ command: 'AbortMultipartUploadCommand', key: `uploads/tus/${lostId}`, uploadId: multipart });
    expect(await staged(s3, server.s3!.bucket)).toEqual([]);
    expect((await tusFetch(server.url + lost, 'HEAD', auth)).status).toBe(404);
    const reservations = await seed.db.selectFrom('upload_reservations').select('id').where('id', '=', lostId).execute();
    expect(reservations).toEqual([]);
  });

  it.skipIf(onPostgres)('copies a staged object into a blob inside the bucket (CopyObject), or streamed above the copy limit', async () => {
    const [server] = (await nodes(1)) as [RunningServer];
    const seed = await seedOf(server);
    for (const copyLimit of [undefined, 1024]) {
      const store = await createS3BlobStore(server.s3!.settings, seed.logger, { copyLimit });
      const bytes = deterministicBytes(5, 0, 3 * MiB + 5);
      await store.put('uploads/tus/copy-source', Readable.from([bytes]));
      const key = `files/copies/${copyLimit ?? 'whole'}`;
      expect((await store.bucket!.copy('uploads/tus/copy-source', key)).size).toBe(bytes.length);
      const chunks: Buffer[] = [];
      for await (const chunk of store.get(key)) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      await store.deleteMany(['uploads/tus/copy-source', key]);
    }
  });

  it.skipIf(onPostgres)('aborts, in the upload sweep, multipart uploads nobody will complete: a put whose node died, a tus upload whose record went; not fresh ones nor a live upload', async () => {
    const [server] = (await nodes(1)) as [RunningServer];
    const seed = await seedOf(server);
    const { client } = await registerUser(server.url);
    const auth = authHeaders(client, await createToken(client));
    const live = (await createUpload(server, auth, 20 * MiB, 'live.bin')).split('/').pop()!;
    expect((await tusFetch(`${server.url}${TUS}/${live}`, 'PATCH', { ...auth, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(6, 0, 9 * MiB))).status).toBe(204);
    const s3 = await createS3Client(server.s3!.settings);
    closers.push(async () => s3.destroy());
    const liveUpload = (await record(s3, server.s3!.bucket, live))!.multipart!;
    // Multipart uploads really begun on s3rver, each with a part.
    const begin = async (key: string) => {
      const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: server.s3!.bucket, Key: key }));
      await s3.send(new UploadPartCommand({ Bucket: server.s3!.bucket, Key: key, UploadId, PartNumber: 1, Body: Buffer.from('part') }));
      return UploadId!;
    };
    const now = Date.now();
    const day = 24 * 3600 * 1000;
    const uploads = [
      { Key: 'files/dead-node/put', UploadId: await begin('files/dead-node/put'), Initiated: new Date(now - 3 * day) },
      { Key: `uploads/tus/${'f'.repeat(32)}`, UploadId: await begin(`uploads/tus/${'f'.repeat(32)}`), Initiated: new Date(now - 3 * day) },
      { Key: 'files/busy/put', UploadId: await begin('files/busy/put'), Initiated: new Date(now + 3 * day) },
      { Key: `uploads/tus/${live}`, UploadId: liveUpload, Initiated: new Date(now - 3 * day) },
    ];
    // s3rver has no ListMultipartUploads (nor ListParts, nor AbortMultipartUpload: 501 and 405): the
    // sweeping context's client answers the listing with the uploads above and records what it sends.
    const sent: { command: string; key?: string; uploadId?: string }[] = [];
    const watched = await createS3Client(server.s3!.settings);
    closers.push(async () => watched.destroy());
    watched.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: string; UploadId?: string; Prefix?: string };
        sent.push({ command: context.commandName ?? '', key: input.Key, uploadId: input.UploadId });
        if (context.commandName === 'ListMultipartUploadsCommand') return { output: { $metadata: {}, IsTruncated: false, Uploads: uploads.filter((u) => u.Key.startsWith(input.Prefix ?? '')) }, response: {} } as never;
        return next(args);
      },
      { step: 'initialize' },
    );
    const later = await seedOf(server, await createS3BlobStore(server.s3!.settings, seed.logger, { client: watched }));
    // An hour on: past the idle time of a put (10 minutes), not past the abandonment of the live tus upload (3 hours).
    await sweepUploads({ ...later, clock: { now: () => new Date(now + 3600 * 1000) } });
    const aborts = sent.filter((c) => c.command === 'AbortMultipartUploadCommand');
    expect(aborts.map((a) => a.key).sort()).toEqual([uploads[0]!.Key, uploads[1]!.Key]);
    expect(aborts.map((a) => a.uploadId).sort()).toEqual([uploads[0]!.UploadId, uploads[1]!.UploadId].sort());
    // The live upload goes on.
    expect((await tusFetch(`${server.url}${TUS}/${live}`, 'HEAD', auth)).headers.get('upload-offset')).toBe(String(9 * MiB));
  });

  it.skipIf(!onPostgres)('takes PATCHes of one upload alternately on two nodes with data dirs of their own, byte-identical', async () => {
    const [a, b] = (await nodes(2)) as [RunningServer, RunningServer];
    expect(a.dataDir).not.toBe(b.dataDir);
    const seed = await seedOf(a);
    const { client } = await registerUser(a.url);
    const auth = authHeaders(client, await createToken(client));
    // PATCHes of 8 MiB go on as one part each as they arrive; 3 and 5 MiB ones wait in the tail
    // until a part is whole; the last one is the final part.
    const size = 26 * MiB + 321;
    const cuts = [0, 8 * MiB, 11 * MiB, 16 * MiB, 24 * MiB, size];
    const location = await createUpload(a, auth, size, 'both.bin');
    let itemId: string | null = null;
    for (let i = 0; i < cuts.length - 1; i += 1) {
      const node = i % 2 === 0 ? b : a;
      const other = i % 2 === 0 ? a : b;
      const offset = cuts[i]!;
      const end = cuts[i + 1]!;
      const res = await tusFetch(node.url + location, 'PATCH', { ...auth, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(7, offset, end));
      expect(res.status, res.text).toBe(204);
      expect(res.headers.get('upload-offset')).toBe(String(end));
      if (end === size) itemId = res.headers.get('x-item-id');
      else expect((await tusFetch(other.url + location, 'HEAD', auth)).headers.get('upload-offset')).toBe(String(end));
    }
    expect(itemId).toBeTruthy();
    expect(await storedSha256(seed, itemId!)).toBe(sha256OfDeterministic(7, size));
    expect(await localStaging(a)).toEqual([]);
    expect(await localStaging(b)).toEqual([]);
  });

  it.skipIf(!onPostgres)('resumes on another node an upload whose node was killed (SIGKILL) mid-PATCH, byte-identical', async () => {
    const [a, b] = (await nodes(2)) as [RunningServer, RunningServer];
    const seed = await seedOf(a);
    const s3 = await createS3Client(a.s3!.settings);
    closers.push(async () => s3.destroy());
    const { client } = await registerUser(a.url);
    const auth = authHeaders(client, await createToken(client));
    const size = 20 * MiB + 99;
    const location = await createUpload(a, auth, size, 'cut.bin');
    const id = location.split('/').pop()!;

    // Node B gets a PATCH of no announced length (chunked), 10 MiB of it sent, and dies once it has stored a part.
    const cut = http.request(b.url + location, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' } });
    const ended = new Promise<void>((resolve) => {
      cut.on('error', () => resolve());
      cut.on('response', (res) => res.resume().on('end', () => resolve()));
    });
    cut.write(deterministicBytes(9, 0, 10 * MiB));
    await until(async () => (await record(s3, a.s3!.bucket, id))?.parts?.length ?? 0, (n) => n >= 1, 'node B to store a part');
    await b.kill();
    await ended;

    // Node A takes the upload's lock (it went with B's connection) and the rest from where the bucket has it.
    const head = await tusFetch(a.url + location, 'HEAD', auth);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(8 * MiB);
    const res = await tusFetch(a.url + location, 'PATCH', { ...auth, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(9, offset, size));
    expect(res.status, res.text).toBe(204);
    expect(await storedSha256(seed, res.headers.get('x-item-id')!)).toBe(sha256OfDeterministic(9, size));
  });

  it.skipIf(!onPostgres)('resumes on another node an upload whose node was killed while sending a PATCH on to the bucket as it arrived', async () => {
    const [a, b] = (await nodes(2)) as [RunningServer, RunningServer];
    const seed = await seedOf(a);
    const { client } = await registerUser(a.url);
    const auth = authHeaders(client, await createToken(client));
    const size = 20 * MiB + 5;
    const location = await createUpload(a, auth, size, 'streamed.bin');
    const first = await tusFetch(b.url + location, 'PATCH', { ...auth, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(12, 0, 8 * MiB));
    expect(first.status, first.text).toBe(204);
    // The rest announced (Content-Length), 6 MiB of it written to node B, which dies mid-part.
    const rest = size - 8 * MiB;
    const cut = http.request(b.url + location, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(8 * MiB), 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(rest) } });
    const ended = new Promise<void>((resolve) => {
      cut.on('error', () => resolve());
      cut.on('response', (res) => res.resume().on('end', () => resolve()));
    });
    await new Promise<void>((resolve) => cut.write(deterministicBytes(12, 8 * MiB, 14 * MiB), () => resolve()));
    await b.kill();
    await ended;
    const head = await tusFetch(a.url + location, 'HEAD', auth);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(8 * MiB));
    const res = await tusFetch(a.url + location, 'PATCH', { ...auth, 'Upload-Offset': String(8 * MiB), 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(12, 8 * MiB, size));
    expect(res.status, res.text).toBe(204);
    expect(await storedSha256(seed, res.headers.get('x-item-id')!)).toBe(sha256OfDeterministic(12, size));
  });
});
