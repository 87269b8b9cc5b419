import { createCipheriv, createHash } from 'node:crypto';
import * as tus from 'tus-js-client';
import type { AppContext } from '../../src/server/context.ts';
import { findItem } from '../../src/server/files/queries.ts';
import type { Client } from './client.ts';

/** Upload helpers for the upload tests: tus (raw and tus-js-client), deterministic bytes, hashes. */

export async function createToken(client: Client): Promise<string> {
  const res = await client.post('/api/user/tokens', { name: 'uploads' });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text}`);
  return res.body.meta.token;
}

const KEY = Buffer.alloc(16, 7);

/**
 * Pseudo-random bytes for any range of a virtual file, the same every time (AES-128-CTR of zeros,
 * the counter at the 16-byte block): a 200 MiB upload needs no 200 MiB buffer, and any offset can
 * be produced again for a resume.
 */
export function deterministicBytes(seed: number, start: number, end: number): Buffer {
  const aligned = Math.floor(start / 16) * 16;
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(seed >>> 0, 0);
  iv.writeBigUInt64BE(BigInt(aligned / 16), 8);
  const cipher = createCipheriv('aes-128-ctr', KEY, iv);
  return cipher.update(Buffer.alloc(end - aligned)).subarray(start - aligned);
}

export function sha256OfDeterministic(seed: number, size: number): string {
  const hash = createHash('sha256');
  const step = 8 * 1024 * 1024;
  for (let at = 0; at < size; at += step) hash.update(deterministicBytes(seed, at, Math.min(size, at + step)));
  return hash.digest('hex');
}

/** A tus-js-client fileReader over deterministicBytes: slices are made on demand. */
export function deterministicReader(seed: number, size: number) {
  return {
    openFile: async () => ({
      size,
      slice: async (start: number, end: number) => {
        const stop = Math.min(size, end);
        const value = deterministicBytes(seed, start, stop);
        // tus-js-client reads the length of a slice from `size`, as on a Blob.
        return { value: Object.assign(value, { size: value.length }), done: stop >= size };
      },
      close() {},
    }),
  };
}

export function tusMetadata(meta: Record<string, string>): string {
  return Object.entries(meta)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}

/** Auth headers as a script (bearer) or as our own front end (cookie, Origin, X-Requested-With). */
export function authHeaders(client: Client, bearer?: string): Record<string, string> {
  if (bearer) return { Authorization: `Bearer ${bearer}` };
  return { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), Origin: client.baseUrl, 'X-Requested-With': 'XMLHttpRequest' };
}

export interface TusResult {
  url: string;
  headers: Record<string, string>;
}

/** Runs a tus-js-client upload to the end; `onProgress` may abort it (the promise then rejects). */
export function tusClientUpload(
  baseUrl: string,
  options: {
    size: number;
    seed: number;
    metadata: Record<string, string>;
    headers: Record<string, string>;
    chunkSize?: number;
    uploadUrl?: string;
    onProgress?: (sent: number, upload: tus.Upload) => void;
  },
): { done: Promise<TusResult>; upload: tus.Upload } {
  let upload!: tus.Upload;
  const done = new Promise<TusResult>((resolve, reject) => {
    upload = new tus.Upload({} as never, {
      endpoint: `${baseUrl}/api/upload/tus`,
      ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
      uploadSize: options.size,
      chunkSize: options.chunkSize ?? Number.POSITIVE_INFINITY,
      fileReader: deterministicReader(options.seed, options.size) as never,
      metadata: options.metadata,
      headers: options.headers,
      retryDelays: null as never,
      storeFingerprintForResuming: false,
      onProgress: (sent) => options.onProgress?.(sent, upload),
      onError: reject,
      onSuccess: (payload) => {
        const res = payload.lastResponse;
        const headers: Record<string, string> = {};
        for (const name of ['x-item-id', 'x-item', 'upload-offset']) {
          const value = res.getHeader(name);
          if (value) headers[name] = value;
        }
        resolve({ url: upload.url!, headers });
      },
    });
    upload.start();
  });
  return { done, upload };
}

/** The item a finished tus upload answered with (`X-Item`). */
export function itemFromHeaders(headers: Record<string, string>): any {
  return JSON.parse(decodeURIComponent(headers['x-item']!));
}

/** SHA-256 of a stored file's bytes, read from the blob store behind the item. */
export async function storedSha256(seed: AppContext, itemId: string): Promise<string> {
  const item = await findItem(seed.db, itemId);
  if (!item?.blob_key) throw new Error(`no blob for ${itemId}`);
  const hash = createHash('sha256');
  for await (const chunk of seed.blobs.get(item.blob_key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A multipart upload as Uppy's xhr-upload sends it: the fields first, then the file. */
export function uploadForm(client: Client, bytes: Uint8Array | string, fields: Record<string, string>, options: { bearer?: string; type?: string; fileName?: string } = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : Buffer.from(bytes)], { type: options.type ?? 'application/octet-stream' }), options.fileName ?? fields.filename ?? 'file.bin');
  return client.request('/api/upload', { method: 'POST', body: form, ...(options.bearer ? { bearer: options.bearer, origin: null, xrw: false } : {}) });
}
