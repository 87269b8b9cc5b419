import { randomUUID } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Upload, type DataStore } from '@tus/server';
import type { BlobStat } from '../blobs/store.ts';
import type { AppContext } from '../context.ts';
import { releaseReservation } from './reservations.ts';
import { readHead } from './sniff.ts';
import { completeTusUpload, type StoredUpload } from './tus-finish.ts';

/**
 * Where tus uploads in progress live until they become blobs ("staging"), behind one interface:
 * - the local disk, DATA_DIR/uploads/tus (@tus/file-store: the data file and `<id>.json`), with
 *   STORAGE_DRIVER=local (app nodes then share DATA_DIR);
 * - the bucket, with STORAGE_DRIVER=s3 (tus-staging-s3.ts: `uploads/tus/…` objects and a multipart
 *   upload), so any node reaches any upload without a shared DATA_DIR.
 * tus.ts (the requests and the sweep), tus-finish.ts and recover.ts use only this interface.
 */
export interface TusStaging {
  /** The @tus/server data store. */
  store: DataStore;
  readInfo(id: string): Promise<StoredUpload | undefined>;
  /** Records that the upload became an item (HEAD answers it from then on); a crash leaves the old record or the new. */
  writeInfo(info: StoredUpload): Promise<void>;
  /**
   * The bytes received and still staged; undefined when nothing is staged (its bytes moved into
   * the blob store, or the upload is gone). Bytes all received are made one readable object first (S3).
   */
  stagedSize(id: string): Promise<number | undefined>;
  /** The first bytes of a complete upload, to judge its type. */
  readHead(id: string): Promise<Uint8Array>;
  /** A complete upload's bytes into the blob store as `key` (moved, not read through when it can); null when nothing is staged. */
  adopt(key: string, id: string): Promise<BlobStat | null>;
  /** The staged bytes, once the blob exists. */
  removeData(id: string): Promise<void>;
  /** Everything of the upload: bytes, record, and the storage's multipart upload. */
  discard(id: string): Promise<void>;
  /** The ids of uploads with a record. */
  listIds(): Promise<string[]>;
  /** When the upload's bytes were last written (ms; 0 when unknown). */
  writtenAt(id: string): Promise<number>;
  /** The Content-Length of the PATCH about to be written (S3: sent on as one part as it arrives). */
  announceLength?(id: string, length: number): void;
  /** Staged things of no upload with a record (data without metadata), untouched since `before`: removed; answers how many. */
  sweepOrphans(before: number, known: Set<string>): Promise<number>;
}

export const ID = /^[0-9a-f]{32}$/;

const instances = new WeakMap<AppContext, Promise<TusStaging>>();

/** The context's staging: the bucket on S3, else DATA_DIR/uploads/tus. */
export function stagingFor(ctx: AppContext): Promise<TusStaging> {
  let staging = instances.get(ctx);
  if (!staging) {
    const bucket = ctx.blobs.bucket;
    staging = bucket ? import('./tus-staging-s3.ts').then(({ createS3Staging }) => createS3Staging(ctx, bucket)) : Promise.resolve(createLocalStaging(ctx));
    instances.set(ctx, staging);
  }
  return staging;
}

export const tusDirectory = (ctx: AppContext) => path.join(ctx.config.dataDir, 'uploads', 'tus');

/** A finished upload's record, whatever the store: its offset is its size. */
export function wholeUpload(id: string, info: StoredUpload): Upload {
  return new Upload({ id, size: info.size, offset: info.size ?? 0, metadata: (info.metadata ?? {}) as Record<string, string>, ...(info.creation_date ? { creation_date: info.creation_date } : {}) });
}

/**
 * The file store, knowing finished uploads (their data is in the blob store, their offset is their
 * size) and freeing an upload's reservation when it is terminated.
 */
class UploadStore extends FileStore {
  private readonly ctx: AppContext;

  constructor(ctx: AppContext, options: ConstructorParameters<typeof FileStore>[0]) {
    super(options);
    this.ctx = ctx;
  }

  override async remove(id: string): Promise<void> {
    await super.remove(id);
    await releaseReservation(this.ctx.db, id);
  }

  override async getUpload(id: string): Promise<Upload> {
    const info = (await this.configstore.get(id)) as StoredUpload | undefined;
    if (info?.finished) return wholeUpload(id, info);
    try {
      return await super.getUpload(id);
    } catch (error) {
      // The data file went into the blob store under this request's feet: the upload is finishing
      // (or a crash left it so). Wait for that (or finish it) rather than answer 410.
      const owner = info?.metadata?.owner;
      if ((error as { status_code?: number }).status_code !== 410 || !info || info.size === undefined || !owner) throw error;
      await completeTusUpload(this.ctx, { id, ownerId: owner }).catch(() => {
        throw error;
      });
      return wholeUpload(id, info);
    }
  }
}

function createLocalStaging(ctx: AppContext): TusStaging {
  const directory = tusDirectory(ctx);
  const store = new UploadStore(ctx, { directory, expirationPeriodInMilliseconds: ctx.config.uploads.expiryMs });
  store.extensions = store.extensions.filter((e) => e !== 'creation-defer-length');
  const file = (id: string) => path.join(directory, id);
  return {
    store,
    async readInfo(id) {
      try {
        return JSON.parse(await readFile(path.join(directory, `${id}.json`), 'utf8')) as StoredUpload;
      } catch {
        return undefined;
      }
    },
    async writeInfo(info) {
      // Written beside and renamed over, so a crash leaves the old metadata or the new, never half.
      const target = path.join(directory, `${info.id}.json`);
      const tmp = `${target}.${randomUUID()}.tmp`;
      await writeFile(tmp, JSON.stringify(info));
      await rename(tmp, target);
    },
    async stagedSize(id) {
      return (await stat(file(id)).catch(() => null))?.size;
    },
    readHead: (id) => readHead(file(id)),
    async adopt(key, id) {
      if (!(await stat(file(id)).catch(() => null))) return null;
      return ctx.blobs.adopt(key, file(id));
    },
    async removeData(id) {
      await rm(file(id), { force: true });
    },
    async discard(id) {
      await rm(file(id), { force: true });
      await rm(path.join(directory, `${id}.json`), { force: true });
    },
    async listIds() {
      const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        return [] as string[];
      });
      return [...new Set(names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)))].filter((id) => ID.test(id));
    },
    async writtenAt(id) {
      // A PATCH still writing keeps the data file's mtime fresh.
      return (await stat(file(id)).catch(() => null))?.mtimeMs ?? 0;
    },
    async sweepOrphans(before, known) {
      let removed = 0;
      for (const name of await readdir(directory).catch(() => [] as string[])) {
        if (!ID.test(name) || known.has(name)) continue;
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
