import { DataStore, ERRORS, Upload } from '@tus/server';
import { Readable } from 'node:stream';
import type { S3Bucket } from '../blobs/store.ts';
import type { AppContext } from '../context.ts';
import { releaseReservation } from './reservations.ts';
import { HEAD_BYTES } from './sniff.ts';
import { isStorageUnavailable } from '../blobs/errors.ts';
import { abortMultipartUpload, sweepMultipartUploads } from '../blobs/s3-multipart.ts';
import { wholeUpload, type TusStaging } from './tus-staging.ts';
import { dataKey, infoKey, isNotFound, offsetOf, partSizeFor, PREFIX, stagedObjects, streamable, tailKey, type Manifest } from './tus-s3-objects.ts';

/**
 * tus uploads in progress kept in the bucket (STORAGE_DRIVER=s3), so that every app node reaches
 * every upload with no shared DATA_DIR: consecutive PATCHes of one upload may reach any node (the
 * lock is tus-locker.ts's), and a node dying mid-PATCH loses at most the bytes it had not stored.
 *
 * Objects under `uploads/tus/` (a folder the reconciler leaves alone):
 * - `<id>.json`, the upload's record (the @tus/file-store record plus the staging state): its
 *   multipart upload's id and parts (number, ETag, size), and the length of its tail. It is the
 *   truth: it is written (one PUT, replacing it whole) after the bytes it counts are stored, so a
 *   crash leaves bytes it does not count, never a count without bytes;
 * - a multipart upload on `<id>`, begun with the first full part: parts of PART_SIZE (8 MiB, more
 *   for an upload over 10,000 of them), the last one shorter; it becomes the object `<id>` when
 *   every byte is in (`assembled`); an upload of one part or less is one PUT of `<id>` instead;
 * - `<id>.tail`: bytes after the last full part (S3 parts but the last must be 5 MiB or more), read
 *   back and sent again with the next PATCH's bytes. Only the first `tail` bytes of it count.
 *
 * Everything needed is plain S3 every compatible server has (no ListParts or UploadPartCopy); AbortMultipartUpload is sent for a discarded upload, and multipart uploads of no
 * record are found by ListMultipartUploads (blobs/s3-multipart.ts; a server without them is logged).
 * A PATCH whose Content-Length makes a whole part (or the last bytes) is sent on as it arrives;
 * other bytes are held in memory until a part is whole (at most PART_SIZE per PATCH being received).
 */
export function createS3Staging(ctx: AppContext, bucket: S3Bucket): TusStaging {
  const { name: Bucket, sdk } = bucket;
  const { send, readBytes, readHead, put, head, readManifest, saveManifest, deleteKeys, listStaged } = stagedObjects(bucket);


  /** The staged bytes all in: made the object `<id>` (the multipart upload completed, or the tail put whole). */
  const assemble = async (m: Manifest): Promise<void> => {
    const parts = m.parts ?? [];
    if (m.multipart && parts.length > 0) {
      try {
        await send('complete', dataKey(m.id), new sdk.CompleteMultipartUploadCommand({ Bucket, Key: dataKey(m.id), UploadId: m.multipart, MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) } }));
      } catch (error) {
        // Completed already (a crash before the record said so): the object is there.
        if (!isNotFound(error) || (await head(dataKey(m.id))) === undefined) throw error;
      }
    } else {
      const tail = m.tail ? ((await readBytes(tailKey(m.id))) ?? Buffer.alloc(0)).subarray(0, m.tail) : Buffer.alloc(0);
      if (tail.length !== (m.tail ?? 0)) throw ERRORS.FILE_NOT_FOUND;
      await put(dataKey(m.id), tail);
    }
    await saveManifest({ ...m, assembled: true, tail: 0 });
    await deleteKeys([tailKey(m.id)]).catch(() => undefined);
  };

  const abortMultipart = async (m: Manifest) => {
    if (!m.multipart) return;
    try {
      await abortMultipartUpload(bucket.multipart, dataKey(m.id), m.multipart);
    } catch (error) {
      throw bucket.unavailable(error, 'abort', dataKey(m.id));
    }
  };

  // The Content-Length of the PATCH about to be written, by upload id (tus.ts, just before @tus/server
  // takes the request). A wrong one (two PATCHes of one upload at once) makes a PATCH fail, never its bytes wrong.
  const announced = new Map<string, number>();

  const discard = async (id: string) => {
    announced.delete(id);
    const m = await readManifest(id);
    if (m) await abortMultipart(m);
    await deleteKeys([dataKey(id), tailKey(id), infoKey(id)]);
  };

  class S3UploadStore extends DataStore {
    constructor() {
      super();
      this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
    }

    override getExpiration(): number {
      return ctx.config.uploads.expiryMs;
    }

    override async deleteExpired(): Promise<number> {
      return 0; // the upload sweep's work (tus.ts)
    }

    override async create(upload: Upload): Promise<Upload> {
      upload.creation_date ??= new Date().toISOString();
      await saveManifest({ id: upload.id, size: upload.size, offset: 0, metadata: upload.metadata ?? {}, creation_date: upload.creation_date, parts: [], tail: 0 });
      return upload;
    }

    override async getUpload(id: string): Promise<Upload> {
      const m = await readManifest(id);
      if (!m) throw ERRORS.FILE_NOT_FOUND;
      if (m.finished) return wholeUpload(id, m);
      return new Upload({ id, size: m.size, offset: offsetOf(m), metadata: (m.metadata ?? {}) as Record<string, string>, ...(m.creation_date ? { creation_date: m.creation_date } : {}) });
    }

    override async remove(id: string): Promise<void> {
      if (!(await readManifest(id))) throw ERRORS.FILE_NOT_FOUND;
      await discard(id);
      await releaseReservation(ctx.db, id);
    }

    override async write(source: Readable, id: string, offset: number): Promise<number> {
      const m = await readManifest(id);
      if (!m || m.finished || m.assembled) throw ERRORS.FILE_NOT_FOUND;
      if (offset !== offsetOf(m)) throw ERRORS.INVALID_OFFSET;
      const size = m.size ?? Number.POSITIVE_INFINITY;
      const partSize = partSizeFor(m.size);
      m.parts ??= [];
      // The tail of earlier PATCHes goes first, so parts stay whole.
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      if (m.tail) {
        const tail = ((await readBytes(tailKey(id))) ?? Buffer.alloc(0)).subarray(0, m.tail);
        if (tail.length !== m.tail) throw ERRORS.FILE_NOT_FOUND;
        pending = [tail];
        pendingBytes = tail.length;
      }
      const base = offset - pendingBytes;
      const startParts = m.parts.length;
      const stored = () => base + (m.parts ?? []).slice(startParts).reduce((sum, p) => sum + p.size, 0);
      const sendPart = async (body: Buffer | Readable, length: number) => {
        if (!m.multipart) {
          const begun = await send<{ UploadId?: string }>('begin', dataKey(id), new sdk.CreateMultipartUploadCommand({ Bucket, Key: dataKey(id) }));
          m.multipart = begun.UploadId!;
        }
        const n = m.parts!.length + 1;
        const answer = await send<{ ETag?: string }>('part', dataKey(id), new sdk.UploadPartCommand({ Bucket, Key: dataKey(id), UploadId: m.multipart, PartNumber: n, Body: body, ContentLength: length }));
        m.parts!.push({ n, etag: answer.ETag ?? '', size: length });
        m.tail = 0;
        await saveManifest(m);
      };
      // The request's bytes, read by hand (a for-await left early would destroy the stream).
      const chunks = source[Symbol.asyncIterator]();
      let leftover: Buffer | null = null;
      const length = announced.get(id);
      announced.delete(id);
      if (!m.tail && length !== undefined && streamable(length, offset, size, partSize, m.parts.length)) {
        // The PATCH's announced length is sent on as it arrives, one part (or the whole object),
        // without holding it in memory; bytes beyond it go the buffered way below.
        let short = false;
        const body = Readable.from(
          (async function* () {
            let left = length;
            while (left > 0) {
              const next = await chunks.next();
              if (next.done) {
                short = true;
                throw new Error('The request ended before its announced length.');
              }
              const chunk = Buffer.from(next.value as Uint8Array);
              if (chunk.length > left) leftover = chunk.subarray(left);
              yield chunk.subarray(0, left);
              left -= Math.min(left, chunk.length);
            }
          })(),
          { objectMode: false },
        );
        try {
          if (offset === 0 && length === size && m.parts.length === 0) {
            await send('put', dataKey(id), new sdk.PutObjectCommand({ Bucket, Key: dataKey(id), Body: body, ContentLength: length }));
            await saveManifest({ ...m, assembled: true, tail: 0 });
            return size;
          }
          await sendPart(body, length);
        } catch (error) {
          // A client gone mid-way: nothing of this PATCH is stored, a HEAD answers where to resume.
          if (short) throw ERRORS.ABORTED;
          throw error;
        }
        if (offset + length === size) {
          await assemble(m);
          return size;
        }
      }
      const take = (bytes: number): Buffer => {
        const all = Buffer.concat(pending);
        pending = [all.subarray(bytes)];
        pendingBytes = all.length - bytes;
        return all.subarray(0, bytes);
      };
      let failure: unknown = null;
      try {
        for (let next = leftover ? { done: false, value: leftover } : await chunks.next(); !next.done; next = await chunks.next()) {
          const chunk = Buffer.from(next.value as Uint8Array);
          pending.push(chunk);
          pendingBytes += chunk.length;
          // A full part, unless it would be the last one: the last part is sent with whatever is left.
          while (pendingBytes >= partSize && stored() + pendingBytes < size) await sendPart(take(partSize), partSize);
          if (stored() + pendingBytes > size) throw ERRORS.ERR_SIZE_EXCEEDED;
        }
      } catch (error) {
        failure = error;
      }
      const received = stored() + pendingBytes;
      // S3 failing is the answer: what was not stored is sent again after a HEAD.
      if (isStorageUnavailable(failure)) throw failure;
      if (!failure && received === size) {
        if (pendingBytes > 0 && m.parts.length > 0) {
          const last = take(pendingBytes);
          await sendPart(last, last.length);
        } else if (pendingBytes > 0 || m.parts.length === 0) {
          // One part or less in all: no multipart upload, one PUT.
          await put(dataKey(id), take(pendingBytes));
          await saveManifest({ ...m, assembled: true, tail: 0 });
          await deleteKeys([tailKey(id)]).catch(() => undefined);
          return size;
        }
        await assemble(m);
        return size;
      }
      // Not all in (or the request cut short): what arrived after the last part waits in the tail.
      if (pendingBytes > 0 && pendingBytes !== (m.tail ?? 0)) {
        const tail = pendingBytes;
        await put(tailKey(id), take(tail));
        m.tail = tail;
        await saveManifest(m);
      } else if (pendingBytes === 0 && m.tail) {
        m.tail = 0;
        await saveManifest(m);
      }
      if (failure) throw failure;
      return received;
    }
  }

  const store = new S3UploadStore();
  return {
    store,
    announceLength(id, length) {
      if (Number.isSafeInteger(length) && length > 0) announced.set(id, length);
      else announced.delete(id);
    },
    readInfo: readManifest,
    async writeInfo(info) {
      const m = (await readManifest(info.id)) ?? {};
      await saveManifest({ ...m, ...info });
    },
    async stagedSize(id) {
      const m = await readManifest(id);
      if (!m) return undefined;
      if (m.assembled || m.finished) return head(dataKey(id));
      const offset = offsetOf(m);
      if (m.size === undefined || offset !== m.size) return offset;
      await assemble(m);
      return head(dataKey(id));
    },
    async readHead(id) {
      return readHead(dataKey(id), HEAD_BYTES);
    },
    async adopt(key, id) {
      if ((await head(dataKey(id))) === undefined) return null;
      const stored = await bucket.copy(dataKey(id), key);
      await deleteKeys([dataKey(id)]);
      return stored;
    },
    async removeData(id) {
      await deleteKeys([dataKey(id), tailKey(id)]);
    },
    discard,
    async listIds() {
      return [...(await listStaged()).values()].filter((o) => o.info).map((o) => o.id);
    },
    async writtenAt(id) {
      // Every stored part or tail rewrites the record: its time is the last write's.
      try {
        const answer = await send<{ LastModified?: Date }>('stat', infoKey(id), new sdk.HeadObjectCommand({ Bucket, Key: infoKey(id) }));
        return answer.LastModified?.getTime() ?? 0;
      } catch (error) {
        if (isNotFound(error)) return 0;
        throw error;
      }
    },
    async sweepOrphans(before, known) {
      const orphans: string[] = [];
      for (const o of (await listStaged()).values()) {
        if (known.has(o.id) || o.info) continue;
        for (const [key, modified] of o.keys) if (modified < before) orphans.push(key);
      }
      for (let i = 0; i < orphans.length; i += 1000) await deleteKeys(orphans.slice(i, i + 1000));
      // Multipart uploads of no upload with a record (its record lost, or a discard cut short).
      let aborted = 0;
      try {
        aborted = await sweepMultipartUploads(bucket.multipart, { prefix: PREFIX, before, keep: (u) => known.has(u.key.slice(PREFIX.length)) });
      } catch (error) {
        throw bucket.unavailable(error, 'sweep multipart uploads', PREFIX);
      }
      return orphans.length + aborted;
    },
  };

}
