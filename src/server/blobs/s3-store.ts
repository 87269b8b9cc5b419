import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { ConfigError } from '../config/env.ts';
import type { Logger } from '../logging/logger.ts';
import { storageUnavailable } from './errors.ts';
import { sweepMultipartUploads, type Multipart } from './s3-multipart.ts';
import { assertBlobKey, assertListPrefix, isBlobKey, type BlobStat, type BlobStore } from './store.ts';

export interface S3Settings {
  /** null: AWS itself, by region. */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** null: the SDK's own credential chain (instance role, AWS_* variables). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /**
   * The SDK's default (`when_supported`) adds CRC checksums to every request and checks them on
   * answers; many S3-compatible servers (s3rver, older MinIO and Ceph) refuse or lack them.
   */
  checksums: 'when_supported' | 'when_required';
}

/**
 * One multipart part, buffered while it is sent: an upload holds at most PART_SIZE × PART_QUEUE in
 * memory. S3 allows 10,000 parts, so a streamed upload of unknown length (POST /api/upload) may be
 * up to about 78 GiB; a finished tus or chunked upload (adopt) has its parts sized to fit.
 */
const PART_SIZE = 8 * 1024 * 1024;
const PART_QUEUE = 2;
const MAX_PARTS = 10_000;
/** S3's limit per DeleteObjects request. */
const DELETE_BATCH = 1000;
/** S3's limit for one CopyObject; a larger object is copied as a stream. */
const COPY_LIMIT = 5 * 1024 * 1024 * 1024;
const READ_HIGH_WATER_MARK = 256 * 1024;

interface SdkError {
  name?: string;
  code?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (error: unknown) => (error as SdkError)?.$metadata?.httpStatusCode;
const isNotFound = (error: unknown) => statusOf(error) === 404 || ['NotFound', 'NoSuchKey'].includes((error as SdkError)?.name ?? '');

/** The AWS SDK, loaded on first use (context.ts loads this module only for STORAGE_DRIVER=s3, but the bundle hoists static imports). */
const loadSdk = () => import('@aws-sdk/client-s3');

export async function createS3Client(settings: S3Settings): Promise<S3Client> {
  const { S3Client } = await loadSdk();
  const checksums = settings.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: checksums,
    responseChecksumValidation: checksums,
    // Every open download holds a socket for as long as its client reads: the default 50 would
    // queue the 51st. No request timeout: a download paused by a slow client is idle, not dead.
    requestHandler: { connectionTimeout: 5_000, httpAgent: { keepAlive: true, maxSockets: 512 }, httpsAgent: { keepAlive: true, maxSockets: 512 } },
  });
}

/**
 * Blobs as objects of one S3 bucket, keyed as on the local disk. Uploads stream (lib-storage: one
 * PUT for a small blob, a multipart upload for a large one, aborted on failure, so nothing is
 * visible until the blob is complete); reads stream with the byte range passed to S3.
 */
export async function createS3BlobStore(settings: S3Settings, logger: Logger, options: { client?: S3Client; listPageSize?: number; copyLimit?: number } = {}): Promise<BlobStore> {
  const sdk = await loadSdk();
  const { CopyObjectCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command } = sdk;
  const { Upload } = await import('@aws-sdk/lib-storage');
  const client = options.client ?? (await createS3Client(settings));
  const Bucket = settings.bucket;
  const MaxKeys = options.listPageSize ?? 1000;
  /** An SDK failure as the 503 the client sees, logged with what S3 (or the network) said. */
  const unavailable = (error: unknown, action: string, key?: string) => {
    logger.error({ err: error, action, key, bucket: Bucket }, 'the S3 storage failed');
    return storageUnavailable();
  };

  const multipart: Multipart = { client, sdk, bucket: Bucket, logger };
  // Keys this process is putting now: their multipart uploads are never swept, however slow.
  const writing = new Map<string, number>();

  const store: BlobStore = {
    put(key, source) {
      return upload(key, source, PART_SIZE);
    },

    async adopt(key, file) {
      // The size is known: parts grow for a file over S3's 10,000 parts of PART_SIZE.
      const { size } = await stat(file);
      const partSize = Math.max(PART_SIZE, Math.ceil(size / MAX_PARTS));
      // Streamed up; the local file goes only once the object exists, so a failure can be retried.
      const stored = await upload(key, createReadStream(file, { highWaterMark: READ_HIGH_WATER_MARK }), partSize);
      await rm(file, { force: true });
      return stored;
    },

    get(key, range) {
      assertBlobKey(key);
      const out = new PassThrough({ highWaterMark: READ_HIGH_WATER_MARK });
      const abort = new AbortController();
      let source: Readable | null = null;
      // The reader gave up (a client gone): the request to S3, or its answer, stops too.
      out.once('close', () => {
        if (out.readableEnded) return;
        abort.abort();
        source?.destroy();
      });
      const failed = (error: unknown) => {
        if (out.destroyed) return;
        if (isNotFound(error)) return void out.destroy(Object.assign(new Error(`No blob ${key}`), { code: 'ENOENT' }));
        logger.error({ err: error, action: 'get', key, bucket: Bucket }, 'reading from the S3 storage failed');
        out.destroy(error as Error);
      };
      const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
      client
        .send(new GetObjectCommand({ Bucket, Key: key, Range }), { abortSignal: abort.signal })
        .then((answer) => {
          const body = answer.Body as Readable;
          source = range ? exactly(body, range, answer.ContentRange) : body;
          if (out.destroyed) return void source.destroy();
          // Piped by hand, not pipeline(): an error of the answer (the storage gone mid-way) is
          // told apart from the reader leaving, and logged.
          source.once('error', failed);
          source.pipe(out);
        })
        .catch(failed);
      return out;
    },

    async stat(key) {
      assertBlobKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw unavailable(error, 'stat', key);
      }
    },

    async delete(key) {
      assertBlobKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        if (!isNotFound(error)) throw unavailable(error, 'delete', key);
      }
    },

    async deleteMany(keys) {
      for (const key of keys) assertBlobKey(key);
      const failed: { key: string; error: unknown }[] = [];
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const batch = keys.slice(i, i + DELETE_BATCH);
        try {
          const answer = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
          for (const e of answer.Errors ?? []) if (e.Key && e.Code !== 'NoSuchKey') failed.push({ key: e.Key, error: new Error(`${e.Code}: ${e.Message}`) });
        } catch (error) {
          for (const key of batch) failed.push({ key, error });
        }
      }
      return failed;
    },

    list(prefix = '') {
      assertListPrefix(prefix);
      return listPages(prefix);
    },

    async presignedGet(key, { expiresInSeconds, contentDisposition, contentType }) {
      assertBlobKey(key);
      const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
      const command = new GetObjectCommand({ Bucket, Key: key, ResponseContentDisposition: contentDisposition, ResponseContentType: contentType });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },

    async sweepTemporary(staleBefore) {
      // Multipart uploads of puts that died with their node (tus staging, under uploads/, has its own sweep).
      try {
        return await sweepMultipartUploads(multipart, { prefix: '', before: staleBefore.getTime(), keep: (u) => u.key.startsWith('uploads/') || writing.has(u.key) });
      } catch (error) {
        throw unavailable(error, 'sweep multipart uploads');
      }
    },

    bucket: {
      client,
      name: Bucket,
      sdk,
      unavailable,
      multipart,
      async copy(from, to) {
        assertBlobKey(to);
        const source = await store.stat(from);
        if (!source) throw Object.assign(new Error(`No blob ${from}`), { code: 'ENOENT' });
        if (source.size > (options.copyLimit ?? COPY_LIMIT)) {
          const partSize = Math.max(PART_SIZE, Math.ceil(source.size / MAX_PARTS));
          return upload(to, store.get(from), partSize);
        }
        try {
          await client.send(new CopyObjectCommand({ Bucket, Key: to, CopySource: `${Bucket}/${from.split('/').map(encodeURIComponent).join('/')}` }));
        } catch (error) {
          throw unavailable(error, 'copy', from);
        }
        return { size: source.size, modifiedAt: new Date() };
      },
    },

    async probe() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw new ConfigError(`Invalid configuration:\n  ${probeFailure(settings, error)}`);
      }
    },
  };

  async function upload(key: string, source: Readable | AsyncIterable<Uint8Array>, partSize: number): Promise<BlobStat> {
    assertBlobKey(key);
    writing.set(key, (writing.get(key) ?? 0) + 1);
    try {
      return await uploadCounted(key, source, partSize);
    } finally {
      const left = (writing.get(key) ?? 1) - 1;
      if (left > 0) writing.set(key, left);
      else writing.delete(key);
    }
  }

  async function uploadCounted(key: string, source: Readable | AsyncIterable<Uint8Array>, partSize: number): Promise<BlobStat> {
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // The source's own failure (a refused upload, a client gone) is the answer, not the storage's.
    let sourceError: unknown;
    const fed = pipeline(source, counter).catch((error: unknown) => {
      sourceError = error;
    });
    const transfer = new Upload({ client, params: { Bucket, Key: key, Body: counter }, partSize, queueSize: PART_QUEUE, leavePartsOnError: false });
    try {
      await transfer.done();
    } catch (error) {
      counter.destroy();
      await fed;
      throw sourceError ?? unavailable(error, 'put', key);
    }
    await fed;
    if (sourceError) {
      await store.delete(key).catch(() => undefined);
      throw sourceError;
    }
    return { size, modifiedAt: new Date() };
  }

  async function* listPages(prefix: string): AsyncGenerator<{ key: string } & BlobStat> {
    let ContinuationToken: string | undefined;
    do {
      let page;
      try {
        page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken, MaxKeys }));
      } catch (error) {
        throw unavailable(error, 'list');
      }
      for (const object of page.Contents ?? []) {
        // Objects the product did not write (anything else in a shared bucket) are not blobs.
        if (!object.Key || !isBlobKey(object.Key)) continue;
        yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  return store;
}

/**
 * The bytes of `range` out of an answer, whatever the server made of the Range header: some
 * S3-compatible servers send the whole object (no Content-Range) or more than asked (s3rver reads
 * `bytes=0-0` as the whole object). A server that kept to the range passes straight through.
 */
function exactly(body: Readable, range: { start: number; end: number }, contentRange: string | undefined): Readable {
  const sent = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  const from = sent ? Number(sent[1]) : 0;
  if (sent && from === range.start && Number(sent[2]) === range.end) return body;
  if (from > range.start) {
    body.destroy();
    throw new Error(`The storage answered ${contentRange} for bytes ${range.start}-${range.end}`);
  }
  return Readable.from(slice(body, range.start - from, range.end - range.start + 1), { objectMode: false });
}

async function* slice(body: Readable, skip: number, length: number): AsyncGenerator<Buffer> {
  for await (const part of body) {
    let chunk = part as Buffer;
    if (skip >= chunk.length) {
      skip -= chunk.length;
      continue;
    }
    chunk = chunk.subarray(skip);
    skip = 0;
    // Leaving the loop ends the answer's stream: the rest is never read.
    if (chunk.length >= length) return yield chunk.subarray(0, length);
    length -= chunk.length;
    yield chunk;
  }
}

/** What the boot probe's failure means, naming the variable to fix. */
function probeFailure(settings: S3Settings, error: unknown): string {
  const status = statusOf(error);
  const where = settings.endpoint ?? `AWS S3 in ${settings.region}`;
  const detail = (error as SdkError)?.Code ?? (error as SdkError)?.code ?? (error as SdkError)?.name ?? String(error);
  if (status === 403 || status === 401) {
    return `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: ${where} refused the credentials for bucket "${settings.bucket}" (${status} ${detail})`;
  }
  if (status === 404) return `S3_BUCKET: the bucket "${settings.bucket}" does not exist at ${where}`;
  if (status === 301 || status === 400) return `S3_REGION: the bucket "${settings.bucket}" is not in region ${settings.region} at ${where} (${status} ${detail})`;
  if (status === undefined) return `S3_ENDPOINT: ${where} could not be reached (${detail})`;
  return `S3_BUCKET: ${where} answered ${status} (${detail}) when the bucket "${settings.bucket}" was checked`;
}
