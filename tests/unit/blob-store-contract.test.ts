import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../src/server/blobs/s3-store.ts';
import { createLocalBlobStore, type BlobStore } from '../../src/server/blobs/store.ts';
import { ConfigError } from '../../src/server/config/env.ts';
import { createLogger } from '../../src/server/logging/logger.ts';
import { freePort } from '../support/server.ts';
import { startS3, type RunningS3 } from '../support/s3.ts';

/** What every blob store promises (blobs/store.ts), checked on the local disk and on a real S3 server. */

const logger = createLogger('silent');
let s3: RunningS3;
let tmp: string;

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3.stop());
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'cd-contract-'));
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

async function read(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Each test gets keys of its own: the S3 bucket is shared by the file's tests. */
const owner = () => randomBytes(6).toString('hex');

const stores: [string, () => BlobStore | Promise<BlobStore>][] = [
  ['local', () => createLocalBlobStore(path.join(tmp, 'blobs'))],
  ['s3', () => createS3BlobStore(s3.settings, logger, { listPageSize: 2 })],
];

describe.each(stores)('%s blob store', (_name, make) => {
  let store: BlobStore;
  beforeEach(async () => {
    store = await make();
  });

  it('stores a stream, states its size, and reads it whole or by byte range', async () => {
    const key = `files/${owner()}/a`;
    const stored = await store.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(stored.size).toBe(11);
    expect(await store.stat(key)).toEqual({ size: 11, modifiedAt: expect.any(Date) });
    expect((await read(store.get(key))).toString()).toBe('hello world');
    expect((await read(store.get(key, { start: 6, end: 10 }))).toString()).toBe('world');
    expect((await read(store.get(key, { start: 0, end: 0 }))).toString()).toBe('h');
  });

  it('takes an async iterable and an empty body', async () => {
    const key = `files/${owner()}/b`;
    async function* parts() {
      yield new Uint8Array([1, 2, 3]);
    }
    expect((await store.put(key, parts())).size).toBe(3);
    const empty = `files/${owner()}/empty`;
    expect((await store.put(empty, Readable.from([]))).size).toBe(0);
    expect(await store.stat(empty)).toMatchObject({ size: 0 });
    expect((await read(store.get(empty))).length).toBe(0);
  });

  it('stores 12 MiB byte for byte (several multipart parts on S3) and reads a range across a part boundary', async () => {
    const key = `files/${owner()}/large`;
    const data = randomBytes(12 * 1024 * 1024);
    // In 64 KiB pieces, as a request body arrives: never one buffer handed over whole.
    const pieces = Array.from({ length: data.length / 65536 }, (_, i) => data.subarray(i * 65536, (i + 1) * 65536));
    expect((await store.put(key, Readable.from(pieces))).size).toBe(data.length);
    expect(sha256(await read(store.get(key)))).toBe(sha256(data));
    const start = 8 * 1024 * 1024 - 10;
    expect((await read(store.get(key, { start, end: start + 19 }))).equals(data.subarray(start, start + 20))).toBe(true);
  });

  it('adopts a local file: the blob holds its bytes and the file is gone', async () => {
    const key = `files/${owner()}/adopted`;
    const file = path.join(tmp, 'upload');
    await writeFile(file, 'finished upload');
    expect((await store.adopt(key, file)).size).toBe(15);
    expect(existsSync(file)).toBe(false);
    expect((await read(store.get(key))).toString()).toBe('finished upload');
  });

  it('answers a missing blob: stat null, a read failing with ENOENT, a delete that is no error', async () => {
    const key = `files/${owner()}/missing`;
    expect(await store.stat(key)).toBeNull();
    await expect(read(store.get(key))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('keeps nothing of a put whose source fails, and rejects with the source’s error', async () => {
    const key = `files/${owner()}/failed`;
    async function* failing() {
      yield Buffer.alloc(1024, 1);
      throw new Error('the client went away');
    }
    await expect(store.put(key, failing())).rejects.toThrow('the client went away');
    expect(await store.stat(key)).toBeNull();
  });

  it('deletes one and many (missing ones included), and lists by prefix across pages', async () => {
    const user = owner();
    const keys = ['a', 'b', 'c', 'd', 'e'].map((name) => `files/${user}/${name}`);
    for (const key of keys) await store.put(key, Readable.from([Buffer.from(key)]));
    await store.put(`thumbnails/${user}/x-sm.webp`, Readable.from([Buffer.from('t')]));
    const listed = async (prefix: string) => {
      const found = [];
      for await (const entry of store.list(prefix)) found.push(entry);
      return found.sort((x, y) => x.key.localeCompare(y.key));
    };
    const files = await listed(`files/${user}/`);
    expect(files.map((e) => e.key)).toEqual(keys);
    expect(files[0]).toEqual({ key: keys[0], size: keys[0]!.length, modifiedAt: expect.any(Date) });
    expect((await listed('thumbnails/')).map((e) => e.key)).toContain(`thumbnails/${user}/x-sm.webp`);
    await store.delete(keys[0]!);
    expect(await store.deleteMany([keys[1]!, keys[2]!, `files/${user}/never-there`])).toEqual([]);
    expect((await listed(`files/${user}/`)).map((e) => e.key)).toEqual(keys.slice(3));
    expect(await store.deleteMany([])).toEqual([]);
  });

  it('refuses keys the server would never make, before touching anything', async () => {
    for (const key of ['../etc/passwd', 'files/../x', '/abs', 'Files/UPPER', 'a/b/c/d/e', '']) {
      await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/Invalid blob key/);
      expect(() => store.get(key)).toThrow(/Invalid blob key/);
      await expect(store.stat(key)).rejects.toThrow(/Invalid blob key/);
      await expect(store.delete(key)).rejects.toThrow(/Invalid blob key/);
    }
    expect(() => store.list('files')).toThrow();
    expect(() => store.list('../')).toThrow();
  });
});

describe('S3 blob store when the storage fails', () => {
  it('answers 503 "Storage is not reachable" while the server is down, and works again once it is back', async () => {
    const store = await createS3BlobStore(s3.settings, logger);
    const kept = `files/${owner()}/kept`;
    await store.put(kept, Readable.from([Buffer.from('kept')]));
    await s3.pause();
    try {
      const key = `files/${owner()}/during`;
      await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toMatchObject({ status: 503, code: 'storage_unavailable', message: expect.stringMatching(/Storage is not reachable/) });
      await expect(store.stat(kept)).rejects.toMatchObject({ status: 503 });
      await expect(store.delete(kept)).rejects.toMatchObject({ status: 503 });
      expect((await store.deleteMany([kept])).map((f) => f.key)).toEqual([kept]);
      // A read fails as a stream error, which the data plane turns into a closed response.
      await expect(read(store.get(kept))).rejects.toThrow();
    } finally {
      await s3.start();
    }
    expect((await read(store.get(kept))).toString()).toBe('kept');
  });

  it('checks the bucket at boot and names the variable to fix', async () => {
    await expect((await createS3BlobStore(s3.settings, logger)).probe!()).resolves.toBeUndefined();
    const wrongKey = await createS3BlobStore({ ...s3.settings, credentials: { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' } }, logger);
    await expect(wrongKey.probe!()).rejects.toThrow(ConfigError);
    await expect(wrongKey.probe!()).rejects.toThrow(/S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: .*refused the credentials/);
    const noBucket = await createS3BlobStore({ ...s3.settings, bucket: 'no-such-bucket' }, logger);
    await expect(noBucket.probe!()).rejects.toThrow(/S3_BUCKET: the bucket "no-such-bucket" does not exist/);
    const nowhere = await createS3BlobStore({ ...s3.settings, endpoint: `http://127.0.0.1:${await freePort()}` }, logger);
    await expect(nowhere.probe!()).rejects.toThrow(/S3_ENDPOINT: .* could not be reached/);
  });
});
