import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { abortMultipartUpload } from '../blobs/s3-multipart.ts';
import type { S3Bucket } from '../blobs/store.ts';
import type { AppContext } from '../context.ts';
import { KEY, lostUpload, type ChunkStaging, type PartialUpload } from './chunk-staging.ts';
import { HEAD_BYTES } from './sniff.ts';
import { isNotFound, PART_SIZE, stagedObjects } from './tus-s3-objects.ts';

/**
 * Chunked uploads in progress kept in the bucket (STORAGE_DRIVER=s3), as tus-staging-s3.ts keeps
 * tus uploads, so consecutive chunks of one upload may reach any app node with no shared DATA_DIR.
 * Objects under `uploads/chunks/` (a folder the reconciler and storage:migrate leave alone):
 * - `<key>.json`, the record (chunks.ts's, with `staged`: the multipart upload's id and parts, and
 *   the tail's key and length). It is written after the bytes it counts are stored;
 * - a multipart upload on `<key>`, begun with the first full part (8 MiB, more after 1,000 parts); completed into
 *   the object `<key>` once the last chunk is in; a file of one part or less is one PUT of `<key>`;
 * - `<key>.tail.<random>`: the bytes after the last full part, read back and sent on with the next
 *   chunk's. Each chunk that leaves a tail writes a new one, so a failed chunk leaves the committed
 *   tail as it was (and its parts past the committed ones are sent again under the same numbers).
 * Plain S3 only, as for tus: no ListParts, UploadPartCopy or ListMultipartUploads; an abandoned
 * upload's multipart upload is aborted from its record (a server without AbortMultipartUpload is logged).
 * A chunk's bytes are held in memory only until a part is whole (at most a part and one read).
 */
export const CHUNK_PREFIX = 'uploads/chunks/';

interface Staged {
  multipart?: string;
  parts: { n: number; etag: string; size: number }[];
  tail: number;
  tailKey?: string;
  /** The multipart upload completed (or the whole file put): the object `<key>` holds every byte. */
  assembled?: boolean;
}

/**
 * The size of the next part: the file's length is unknown until its last chunk, so parts grow by
 * PART_SIZE every 1,000 (S3 allows 10,000 parts: about 430 GiB in all).
 */
const partSize = (staged: Staged) => PART_SIZE * (1 + Math.floor(staged.parts.length / 1000));

const dataKey = (key: string) => `${CHUNK_PREFIX}${key}`;
const infoKey = (key: string) => `${CHUNK_PREFIX}${key}.json`;
const stagedOf = (p: PartialUpload | undefined): Staged => structuredClone((p?.staged as Staged | undefined) ?? { parts: [], tail: 0 });

export function createS3ChunkStaging(_ctx: AppContext, bucket: S3Bucket): ChunkStaging {
  const { name: Bucket, sdk } = bucket;
  const { send, readBytes, readHead, put, head, deleteKeys } = stagedObjects(bucket);
  const remove = async (keys: string[]) => {
    for (let i = 0; i < keys.length; i += 1000) await deleteKeys(keys.slice(i, i + 1000));
  };

  const read = async (key: string): Promise<PartialUpload | undefined> => {
    const bytes = await readBytes(infoKey(key));
    return bytes ? (JSON.parse(bytes.toString('utf8')) as PartialUpload) : undefined;
  };
  const save = async (key: string, partial: PartialUpload, previous?: PartialUpload) => {
    await put(infoKey(key), JSON.stringify(partial));
    const old = stagedOf(previous).tailKey;
    if (old && old !== stagedOf(partial).tailKey) await remove([old]).catch(() => undefined);
  };

  /** Every staged object under the prefix `from` (one listing, a page at a time). */
  const list = async (from: string): Promise<{ key: string; modified: number }[]> => {
    const found: { key: string; modified: number }[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await send<{ Contents?: { Key?: string; LastModified?: Date }[]; IsTruncated?: boolean; NextContinuationToken?: string }>('list', from, new sdk.ListObjectsV2Command({ Bucket, Prefix: from, ContinuationToken }));
      for (const o of page.Contents ?? []) if (o.Key) found.push({ key: o.Key, modified: o.LastModified?.getTime() ?? 0 });
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return found;
  };

  const abort = async (staged: Staged, key: string) => {
    if (!staged.multipart || staged.assembled) return;
    try {
      await abortMultipartUpload(bucket.multipart, dataKey(key), staged.multipart);
    } catch (error) {
      throw bucket.unavailable(error, 'abort', dataKey(key));
    }
  };

  /** The last chunk is in: the multipart upload completed into the object `<key>` (once). */
  const assemble = async (key: string, partial: PartialUpload): Promise<void> => {
    const staged = stagedOf(partial);
    if (staged.assembled) return;
    if (!staged.multipart) throw lostUpload();
    try {
      await send('complete', dataKey(key), new sdk.CompleteMultipartUploadCommand({ Bucket, Key: dataKey(key), UploadId: staged.multipart, MultipartUpload: { Parts: staged.parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) } }));
    } catch (error) {
      // Completed already (a crash before the record said so): the object is there.
      if (!isNotFound(error) || (await head(dataKey(key))) === undefined) throw error;
    }
    partial.staged = { ...staged, assembled: true };
    await save(key, partial);
  };

  return {
    read,
    save,
    async intact(_key, partial) {
      const staged = stagedOf(partial);
      return !staged.tail || (staged.tailKey !== undefined && ((await head(staged.tailKey)) ?? 0) >= staged.tail);
    },
    async sink(key, committed, next, last) {
      const staged = stagedOf(committed);
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      if (staged.tail) {
        const tail = staged.tailKey ? await readBytes(staged.tailKey) : null;
        if (!tail || tail.length < staged.tail) throw lostUpload();
        pending = [tail.subarray(0, staged.tail)];
        pendingBytes = staged.tail;
      }
      const take = (bytes: number): Buffer => {
        const all = Buffer.concat(pending);
        pending = [all.subarray(bytes)];
        pendingBytes = all.length - bytes;
        return all.subarray(0, bytes);
      };
      const sendPart = async (body: Buffer) => {
        if (!staged.multipart) {
          const begun = await send<{ UploadId?: string }>('begin', dataKey(key), new sdk.CreateMultipartUploadCommand({ Bucket, Key: dataKey(key) }));
          staged.multipart = begun.UploadId!;
          // Recorded at once (with the committed offset), so an upload given up later aborts it.
          await save(key, { ...(committed ?? next), staged: { ...stagedOf(committed), multipart: staged.multipart } });
        }
        const n = staged.parts.length + 1;
        try {
          const answer = await send<{ ETag?: string }>('part', dataKey(key), new sdk.UploadPartCommand({ Bucket, Key: dataKey(key), UploadId: staged.multipart, PartNumber: n, Body: body, ContentLength: body.length }));
          staged.parts.push({ n, etag: answer.ETag ?? '', size: body.length });
        } catch (error) {
          // The multipart upload is gone (completed by a finish that then failed, or aborted): the bytes with it.
          if (isNotFound(error)) throw lostUpload();
          throw error;
        }
      };
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          (async () => {
            while (pendingBytes >= partSize(staged)) await sendPart(take(partSize(staged)));
          })().then(() => done(), done);
        },
        final(done) {
          (async () => {
            if (last && staged.parts.length === 0) {
              // One part or less in all: no multipart upload, one PUT of the whole file.
              await put(dataKey(key), take(pendingBytes));
              staged.assembled = true;
            } else if (last) {
              if (pendingBytes > 0) await sendPart(take(pendingBytes));
            } else if (pendingBytes > 0) {
              const tailKey = `${CHUNK_PREFIX}${key}.tail.${randomUUID()}`;
              const tail = take(pendingBytes);
              await put(tailKey, tail);
              staged.tail = tail.length;
              staged.tailKey = tailKey;
            } else {
              staged.tail = 0;
              delete staged.tailKey;
            }
            // The last chunk keeps the committed tail's key: a finish undone (reopen) goes back to it.
            if (last) staged.tail = stagedOf(committed).tail;
            next.staged = staged;
          })().then(() => done(), done);
        },
      });
    },
    async rollback(_key, committed, next) {
      const fresh = stagedOf(next).tailKey;
      if (fresh && fresh !== stagedOf(committed).tailKey) await remove([fresh]);
    },
    async readHead(key, partial) {
      await assemble(key, partial);
      return readHead(dataKey(key), HEAD_BYTES);
    },
    async adopt(blobKey, key, partial) {
      await assemble(key, partial);
      const stored = await bucket.copy(dataKey(key), blobKey);
      const tailKey = stagedOf(partial).tailKey;
      await remove([dataKey(key), ...(tailKey ? [tailKey] : [])]);
      return stored;
    },
    async reopen(key, committed, next) {
      // A completed multipart upload cannot take parts again: the upload is lost then.
      const staged = stagedOf(next);
      if (staged.assembled && staged.multipart) return false;
      await save(key, { ...next, offset: committed.offset, staged: stagedOf(committed) });
      return true;
    },
    async remove(key) {
      const partial = await read(key);
      if (partial) await abort(stagedOf(partial), key);
      const keys = (await list(`${CHUNK_PREFIX}${key}`)).map((o) => o.key);
      // The record last: what is left of a remove cut short is still found by it.
      await remove(keys.filter((k) => k !== infoKey(key)));
      await remove([infoKey(key)]);
    },
    async listKeys() {
      return (await list(CHUNK_PREFIX)).map((o) => o.key.slice(CHUNK_PREFIX.length)).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)).filter((k) => KEY.test(k));
    },
    async sweepOrphans(before, records) {
      const orphans: string[] = [];
      for (const o of await list(CHUNK_PREFIX)) {
        const key = o.key.slice(CHUNK_PREFIX.length).split('.')[0]!;
        if (!KEY.test(key) || o.modified >= before || records.has(key)) continue;
        orphans.push(o.key);
      }
      // Tails no record counts (a chunk cut off after its tail was stored) go with the same rule.
      for (const key of records) {
        const partial = await read(key);
        if (!partial) continue;
        const counted = stagedOf(partial).tailKey;
        for (const o of await list(`${CHUNK_PREFIX}${key}.tail.`)) if (o.key !== counted && o.modified < before) orphans.push(o.key);
      }
      await remove(orphans);
      return orphans.length;
    },
  };
}
