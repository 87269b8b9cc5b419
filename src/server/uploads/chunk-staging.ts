import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { BlobStat } from '../blobs/store.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { readHead } from './sniff.ts';

/**
 * Where chunked uploads in progress (chunks.ts) keep their bytes and record ("staging"), behind one
 * interface, as tus uploads do (tus-staging.ts):
 * - the local disk, DATA_DIR/uploads/chunks (`<key>` and `<key>.json`), with STORAGE_DRIVER=local;
 * - the bucket, with STORAGE_DRIVER=s3 (chunk-staging-s3.ts: `uploads/chunks/…` objects and a
 *   multipart upload), so consecutive chunks of one upload may reach any app node.
 * The record is the truth: it is rewritten (whole) after the bytes it counts are stored, so a crash
 * or a failed chunk leaves bytes it does not count, never a count without bytes.
 */
export interface PartialUpload {
  upload_id: string;
  binding: string;
  owner_id: string;
  filename: string;
  parent_id: string | null;
  path: string;
  /** Bytes received (and appended) so far. */
  offset: number;
  created_at: string;
  touched_at: string;
  /** Set before the staged bytes move into the blob store. */
  finishing?: { blob_key: string };
  finished?: { item_id: string; at: string };
  /** The staging's own state of the bytes (S3: the multipart upload, its parts and the tail). */
  staged?: unknown;
}

export interface ChunkStaging {
  read(key: string): Promise<PartialUpload | undefined>;
  /** Writes the record; `previous` (the record it replaces) lets the staging drop bytes no longer counted. */
  save(key: string, partial: PartialUpload, previous?: PartialUpload): Promise<void>;
  /** Whether the bytes the record counts are still there. */
  intact(key: string, partial: PartialUpload): Promise<boolean>;
  /**
   * Where a chunk's bytes go, appended after `committed.offset` (nothing for a new upload); once it
   * has finished, `next.staged` says where they are. The record is not written: a failed chunk leaves
   * the committed one (see `rollback`). `last`: no chunk follows (S3: no tail is kept).
   */
  sink(key: string, committed: PartialUpload | undefined, next: PartialUpload, last: boolean): Promise<Writable>;
  /** After a chunk failed: the bytes past the committed record dropped. */
  rollback(key: string, committed: PartialUpload, next: PartialUpload): Promise<void>;
  /** The first bytes of a complete upload, to judge its type. */
  readHead(key: string, partial: PartialUpload): Promise<Uint8Array>;
  /** A complete upload's bytes into the blob store as `blobKey` (moved, not read through when it can). */
  adopt(blobKey: string, key: string, partial: PartialUpload): Promise<BlobStat>;
  /**
   * A complete upload's last chunk undone (the storage failed while finishing): the record goes back
   * to `committed`; false when that cannot be (the upload is lost then).
   */
  reopen(key: string, committed: PartialUpload, next: PartialUpload): Promise<boolean>;
  /** Everything of the upload: bytes and record. */
  remove(key: string): Promise<void>;
  /** The keys of uploads with a record. */
  listKeys(): Promise<string[]>;
  /** Staged bytes of no record (or no longer counted by theirs), untouched since `before`: removed; answers how many. */
  sweepOrphans(before: number, records: Set<string>): Promise<number>;
}

export const KEY = /^[0-9a-f]{64}$/;

export const lostUpload = () => new AppError(410, 'The upload was lost; send the file again.', { code: 'upload_lost' });

const instances = new WeakMap<AppContext, Promise<ChunkStaging>>();

/** The context's chunk staging: the bucket on S3, else DATA_DIR/uploads/chunks. */
export function chunkStagingFor(ctx: AppContext): Promise<ChunkStaging> {
  let staging = instances.get(ctx);
  if (!staging) {
    const bucket = ctx.blobs.bucket;
    staging = bucket ? import('./chunk-staging-s3.ts').then(({ createS3ChunkStaging }) => createS3ChunkStaging(ctx, bucket)) : Promise.resolve(createLocalChunkStaging(ctx));
    instances.set(ctx, staging);
  }
  return staging;
}

export const chunksDirectory = (ctx: AppContext) => path.join(ctx.config.dataDir, 'uploads', 'chunks');

function createLocalChunkStaging(ctx: AppContext): ChunkStaging {
  const directory = chunksDirectory(ctx);
  const file = (key: string) => path.join(directory, key);
  return {
    async read(key) {
      try {
        return JSON.parse(await readFile(path.join(directory, `${key}.json`), 'utf8')) as PartialUpload;
      } catch {
        return undefined;
      }
    },
    async save(key, partial) {
      // Written beside and renamed over, so a crash leaves the old state or the new, never half.
      const target = path.join(directory, `${key}.json`);
      const tmp = `${target}.${randomUUID()}.tmp`;
      await writeFile(tmp, JSON.stringify(partial));
      await rename(tmp, target);
    },
    async intact(key, partial) {
      return partial.offset === 0 || ((await stat(file(key)).catch(() => null))?.size ?? 0) >= partial.offset;
    },
    async sink(key, committed) {
      await mkdir(directory, { recursive: true });
      const total = committed?.offset ?? 0;
      if (committed && total > 0) await truncate(file(key), total);
      return createWriteStream(file(key), { flags: committed && total > 0 ? 'r+' : 'w', start: total });
    },
    async rollback(key, committed) {
      await truncate(file(key), committed.offset);
    },
    readHead: (key) => readHead(file(key)),
    adopt: (blobKey, key) => ctx.blobs.adopt(blobKey, file(key)),
    async reopen(key, committed, next) {
      // The data file is cut back to the committed offset by the next chunk.
      await this.save(key, { ...next, offset: committed.offset });
      return true;
    },
    async remove(key) {
      await rm(file(key), { force: true });
      await rm(path.join(directory, `${key}.json`), { force: true });
    },
    async listKeys() {
      const names = await readdir(directory).catch(() => [] as string[]);
      return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)).filter((k) => KEY.test(k));
    },
    async sweepOrphans(before, records) {
      let removed = 0;
      for (const name of await readdir(directory).catch(() => [] as string[])) {
        if (!KEY.test(name) || records.has(name)) continue;
        const s = await stat(file(name)).catch(() => null);
        if (s && s.mtimeMs < before) {
          await rm(file(name), { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
