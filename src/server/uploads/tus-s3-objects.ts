import type { Readable } from 'node:stream';
import type { S3Bucket } from '../blobs/store.ts';
import type { StoredUpload } from './tus-finish.ts';
import { ID } from './tus-staging.ts';

/** The objects of tus staging in the bucket (tus-staging-s3.ts): their keys, the record's shape, and reading and writing them. */
export const PREFIX = 'uploads/tus/';
export const PART_SIZE = 8 * 1024 * 1024;
export const MAX_PARTS = 10_000;

export interface Manifest extends StoredUpload {
  multipart?: string;
  parts?: { n: number; etag: string; size: number }[];
  tail?: number;
  assembled?: boolean;
}

export const dataKey = (id: string) => `${PREFIX}${id}`;
export const infoKey = (id: string) => `${PREFIX}${id}.json`;
export const tailKey = (id: string) => `${PREFIX}${id}.tail`;
const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
export const isNotFound = (error: unknown) => statusOf(error) === 404 || ['NotFound', 'NoSuchKey', 'NoSuchUpload'].includes((error as { name?: string })?.name ?? '');

/** S3's largest part or PUT. */
const MAX_STREAMED = 5 * 1024 * 1024 * 1024;

/** A PATCH of this length is sent on as one part as it arrives: a whole part (at least the usual size), or the last bytes. */
export function streamable(length: number, offset: number, size: number, partSize: number, parts: number): boolean {
  if (length <= 0 || length > MAX_STREAMED || offset + length > size || parts >= MAX_PARTS - 1) return false;
  return length >= partSize || offset + length === size;
}

export const offsetOf = (m: Manifest) => (m.finished || m.assembled ? (m.size ?? 0) : (m.parts ?? []).reduce((sum, p) => sum + p.size, 0) + (m.tail ?? 0));
export const partSizeFor = (size: number | undefined) => Math.max(PART_SIZE, Math.ceil((size ?? 0) / MAX_PARTS));

/** Reads and writes of one bucket's staged objects; a failure of the storage is its 503 (bucket.unavailable), a missing object the SDK's 404. */
export function stagedObjects(bucket: S3Bucket) {
  const { client, name: Bucket, sdk } = bucket;
  const send = async <T>(action: string, key: string, command: unknown): Promise<T> => {
    try {
      return (await client.send(command as never)) as T;
    } catch (error) {
      // A missing object, or a Range past an empty one's end, is an answer about the object, not a failing storage.
      if (isNotFound(error) || statusOf(error) === 416) throw error;
      throw bucket.unavailable(error, action, key);
    }
  };
  const readBytes = async (key: string): Promise<Buffer | null> => {
    try {
      const answer = await send<{ Body: Readable }>('get', key, new sdk.GetObjectCommand({ Bucket, Key: key }));
      const chunks: Buffer[] = [];
      for await (const chunk of answer.Body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };
  /** The object's first `bytes` (for sniffing its type); an empty or missing object, none (a Range of an empty one is a 416). */
  const readHead = async (key: string, bytes: number): Promise<Uint8Array> => {
    try {
      const answer = await send<{ Body: Readable }>('get', key, new sdk.GetObjectCommand({ Bucket, Key: key, Range: `bytes=0-${bytes - 1}` }));
      const chunks: Buffer[] = [];
      let length = 0;
      for await (const chunk of answer.Body) {
        chunks.push(chunk as Buffer);
        length += (chunk as Buffer).length;
        if (length >= bytes) break;
      }
      return Buffer.concat(chunks).subarray(0, bytes);
    } catch (error) {
      if (isNotFound(error) || statusOf(error) === 416) return new Uint8Array(0);
      throw error;
    }
  };
  const put = (key: string, body: Buffer | string) => send('put', key, new sdk.PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: Buffer.byteLength(body) }));
  const head = async (key: string): Promise<number | undefined> => {
    try {
      return (await send<{ ContentLength?: number }>('stat', key, new sdk.HeadObjectCommand({ Bucket, Key: key }))).ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  };
  const readManifest = async (id: string): Promise<Manifest | undefined> => {
    const bytes = await readBytes(infoKey(id));
    return bytes ? (JSON.parse(bytes.toString('utf8')) as Manifest) : undefined;
  };
  const saveManifest = (m: Manifest) => put(infoKey(m.id), JSON.stringify(m));
  const deleteKeys = async (keys: string[]) => {
    await send('delete', keys[0]!, new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
  };

  /** Every staged object, by upload id (one listing of `uploads/tus/`, a page at a time). */
  async function listStaged(): Promise<Map<string, { id: string; info: boolean; keys: [string, number][] }>> {
    const found = new Map<string, { id: string; info: boolean; keys: [string, number][] }>();
    let ContinuationToken: string | undefined;
    do {
      const page = await send<{ Contents?: { Key?: string; LastModified?: Date }[]; IsTruncated?: boolean; NextContinuationToken?: string }>('list', PREFIX, new sdk.ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(PREFIX.length) ?? '';
        const id = name.split('.')[0]!;
        if (!ID.test(id)) continue;
        const entry = found.get(id) ?? { id, info: false, keys: [] };
        if (name === `${id}.json`) entry.info = true;
        entry.keys.push([object.Key!, object.LastModified?.getTime() ?? 0]);
        found.set(id, entry);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return found;
  }

  return { send, readBytes, readHead, put, head, readManifest, saveManifest, deleteKeys, listStaged };
}
