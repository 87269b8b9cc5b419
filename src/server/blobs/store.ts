import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, opendir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Multipart } from './s3-multipart.ts';
import { sharedSync, syncPath } from '../fs/flush.ts';
import { openForReading, type OpenBlob } from './open-file.ts';

export interface BlobStat {
  size: number;
  modifiedAt: Date;
}

export interface BlobEntry extends BlobStat {
  key: string;
}

/** Where file bytes live. Keys are always made by the server, never taken from a client. */
export interface BlobStore {
  /**
   * Stores `source` as the blob `key`, durably when it resolves. `inPlace`: the caller has recorded
   * the key where a crash is cleaned up (an upload's intent, uploads/intents.ts), so a blob cut
   * short at its key is never taken for a whole one: the local disk then writes it at its key
   * instead of a temporary file renamed there, and flushes the file and its directory together
   * instead of one after the other (one flush fewer before an upload is answered).
   */
  put(key: string, source: Readable | AsyncIterable<Uint8Array>, options?: { inPlace?: boolean }): Promise<BlobStat>;
  /**
   * Takes a complete local file (a finished tus upload) as the blob `key`: renamed into place when
   * it is on the same disk, else streamed in; the source path is gone afterwards either way.
   */
  adopt(key: string, file: string): Promise<BlobStat>;
  get(key: string, range?: { start: number; end: number }): Readable;
  stat(key: string): Promise<BlobStat | null>;
  delete(key: string): Promise<void>;
  /**
   * Deletes many blobs (S3: one DeleteObjects request per thousand keys). Never throws for one
   * blob; answers those it could not delete, with why. A missing blob counts as deleted.
   */
  deleteMany(keys: string[]): Promise<{ key: string; error: unknown }[]>;
  /**
   * Every blob whose key starts with `prefix` (a folder: '' or ending in '/'), streamed: one
   * listing page at a time (S3 ListObjectsV2 pages fit as they are), never the whole store in
   * memory. In no particular order; a blob written or deleted meanwhile may or may not appear.
   */
  list(prefix?: string): AsyncIterable<BlobEntry>;
  /**
   * The blob opened for reading (downloads/blob-body.ts reads it in place), with its stat: `known`
   * when the caller has it from the database (the blob is immutable: its size, and the item's time),
   * else from the open file (one open and fstat where `stat` then `get` would look the path up
   * twice). The caller closes it. Null when the blob is missing. Absent for remote stores.
   */
  open?(key: string, known?: BlobStat): Promise<OpenBlob | null>;
  /** The blob's path on this machine's disk, for tools that need a file (thumbnails); absent for remote stores. */
  localPath?(key: string): string;
  /**
   * Removes temporary files of writes that will never complete (the request or the process died):
   * those no `put` of this process is writing and untouched since `staleBefore`. Answers how many.
   */
  sweepTemporary?(staleBefore: Date): Promise<number>;
  /**
   * A short-lived URL that reads the blob straight from the storage (S3: a presigned GET, with the
   * answer's Content-Disposition and Content-Type as given); absent for the local disk.
   */
  presignedGet?(key: string, options: { expiresInSeconds: number; contentDisposition: string; contentType: string }): Promise<string>;
  /** Checks at boot that the store can be used; throws a ConfigError naming the variable to fix. */
  probe?(): Promise<void>;
  /** The S3 bucket behind the store (absent for the local disk): tus keeps uploads in progress there (uploads/tus-staging-s3.ts). */
  bucket?: S3Bucket;
}

/** What tus staging needs of an S3 store's bucket. */
export interface S3Bucket {
  client: S3Client;
  name: string;
  sdk: typeof import('@aws-sdk/client-s3');
  /**
   * Copies the object `from` to the blob `to` inside the bucket without the bytes passing through
   * this process when it can (CopyObject, up to 5 GiB), else streamed (read and written a part at a time).
   */
  copy(from: string, to: string): Promise<BlobStat>;
  /** An SDK failure as the 503 the client sees, logged. */
  unavailable(error: unknown, action: string, key?: string): Error;
  /** For listing and aborting multipart uploads (s3-multipart.ts). */
  multipart: Multipart;
}

const KEY = /^[a-z0-9][a-z0-9._-]{0,127}(\/[a-z0-9][a-z0-9._-]{0,127}){0,3}$/;

export const isBlobKey = (key: string): boolean => KEY.test(key) && !key.includes('..');

export function assertBlobKey(key: string): void {
  if (!isBlobKey(key)) throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
}

/** A listing's prefix is a folder of keys: '' or a key ending in '/'. */
export function assertListPrefix(prefix: string): void {
  if (prefix !== '' && !prefix.endsWith('/')) throw new Error(`A listing prefix is a folder: ${JSON.stringify(prefix)}`);
  if (prefix !== '') assertBlobKey(prefix.slice(0, -1));
}

/** Blob deletions in flight at once on the local disk: a big trash empties in seconds, not one unlink after another. */
const LOCAL_DELETES = 8;

/** Large reads: a quarter of the syscalls (and of the stream's chunk handling) of the 64 KiB default. */
const READ_HIGH_WATER_MARK = 256 * 1024;

/** Large writes: fewer, bigger write(2) calls for an upload's stream than the 16 KiB default. */
const WRITE_HIGH_WATER_MARK = 1024 * 1024;

/**
 * Local disk under DATA_DIR/blobs. Writes go to a temporary file and are renamed into place only
 * when complete. Durable when `put` or `adopt` resolves: the file's data is flushed (fsync) before
 * the rename and the directory holding the new name after it, so an upload answered 201 keeps its
 * bytes through a power cut.
 */
export function createLocalBlobStore(root: string): BlobStore {
  const tmpDir = path.join(root, '.tmp');
  // Temporary files being written by this process: never swept, however slow their writer.
  const writing = new Set<string>();
  // Directories known to exist: a key's folder is made once per process, not once per write.
  const made = new Set<string>();
  const syncDirectory = sharedSync();
  const ensureDir = async (dir: string) => {
    if (made.has(dir)) return;
    const first = await mkdir(dir, { recursive: true });
    // Folders made now are new names in their parents, flushed like a blob's name: a power cut
    // must not lose the folder of a blob that an upload's answer promised.
    if (first !== undefined) {
      for (let folder = dir; ; folder = path.dirname(folder)) {
        await syncDirectory(path.dirname(folder));
        if (folder === first || path.dirname(folder) === folder) break;
      }
    }
    made.add(dir);
  };
  const fileFor = (key: string) => {
    assertBlobKey(key);
    return path.join(root, key);
  };
  // The name exists once the file is open: its directory is flushed while the bytes are written
  // and flushed, and both are on disk when this resolves.
  const putInPlace = async (target: string, source: Readable | AsyncIterable<Uint8Array>): Promise<BlobStat> => {
    const dir = path.dirname(target);
    let named: Promise<void> | undefined;
    try {
      const size = await writeNewFile(target, source, () => {
        named = syncDirectory(dir);
        named.catch(() => undefined); // awaited below unless the write fails
      });
      await named;
      return { size, modifiedAt: new Date() };
    } catch (error) {
      made.delete(dir);
      // Keys are new and random ('wx' has never met one already there): whatever is at it is ours.
      await rm(target, { force: true });
      throw error;
    }
  };
  return {
    async put(key, source, options) {
      const target = fileFor(key);
      await ensureDir(path.dirname(target));
      if (options?.inPlace) return putInPlace(target, source);
      await ensureDir(tmpDir);
      const name = randomUUID();
      const tmp = path.join(tmpDir, name);
      writing.add(name);
      let size: number;
      try {
        // Flushed before the close (writeNewFile), so the bytes are on disk before the name points at them.
        size = await writeNewFile(tmp, source);
        await rename(tmp, target);
      } catch (error) {
        // A folder removed under us (by hand) is made again by the next write.
        made.delete(path.dirname(target));
        await rm(tmp, { force: true });
        throw error;
      } finally {
        writing.delete(name);
      }
      await syncDirectory(path.dirname(target));
      return { size, modifiedAt: new Date() };
    },
    async adopt(key, file) {
      const target = fileFor(key);
      await ensureDir(path.dirname(target));
      try {
        // Its writer (the tus file store) did not flush it: the bytes reach the disk before the name does.
        await syncPath(file, { data: true });
        await rename(file, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await this.put(key, createReadStream(file));
        await rm(file, { force: true });
      }
      await syncDirectory(path.dirname(target));
      const s = await stat(target);
      return { size: s.size, modifiedAt: s.mtime };
    },
    get(key, range) {
      return createReadStream(fileFor(key), { highWaterMark: READ_HIGH_WATER_MARK, ...(range ? { start: range.start, end: range.end } : {}) });
    },
    open: async (key, known) => openForReading(fileFor(key), known),
    async stat(key) {
      try {
        const s = await stat(fileFor(key));
        return { size: s.size, modifiedAt: s.mtime };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
    async deleteMany(keys) {
      const failed: { key: string; error: unknown }[] = [];
      let next = 0;
      const worker = async () => {
        while (next < keys.length) {
          const key = keys[next++]!;
          await this.delete(key).catch((error: unknown) => failed.push({ key, error }));
        }
      };
      await Promise.all(Array.from({ length: Math.min(LOCAL_DELETES, keys.length) }, worker));
      return failed;
    },
    list(prefix = '') {
      assertListPrefix(prefix);
      return walk(root, prefix);
    },
    localPath: fileFor,
    async sweepTemporary(staleBefore) {
      let removed = 0;
      for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
        if (writing.has(name)) continue;
        const s = await stat(path.join(tmpDir, name)).catch(() => null);
        if (s?.isFile() && s.mtimeMs < staleBefore.getTime()) {
          await rm(path.join(tmpDir, name), { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}

/**
 * The files below `root/prefix` as keys, depth first, reading each folder as a stream (opendir),
 * so a folder of a million blobs is never one array. Skips the temporary folder and names that are
 * not keys (nothing of ours).
 */
async function* walk(root: string, prefix: string): AsyncGenerator<BlobEntry> {
  let dir;
  try {
    dir = await opendir(path.join(root, prefix), { bufferSize: 256 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
    throw error;
  }
  for await (const entry of dir) {
    const key = `${prefix}${entry.name}`;
    if (entry.isDirectory()) {
      if (prefix === '' && entry.name === '.tmp') continue;
      if (KEY.test(key) && key.split('/').length < 4) yield* walk(root, `${key}/`);
      continue;
    }
    if (!entry.isFile() || !isBlobKey(key)) continue;
    const s = await stat(path.join(root, key)).catch(() => null);
    if (s) yield { key, size: s.size, modifiedAt: s.mtime };
  }
}

/**
 * Writes `source` to a new file (`wx`), fsynced before it is closed; answers the bytes written.
 * `opened` runs once the file exists. On failure the caller removes the file (the open may have
 * created it).
 */
async function writeNewFile(file: string, source: Readable | AsyncIterable<Uint8Array>, opened?: () => void): Promise<number> {
  const out = createWriteStream(file, { flags: 'wx', flush: true, highWaterMark: WRITE_HIGH_WATER_MARK });
  if (opened) out.once('open', opened);
  await pipeInto(source, out);
  return out.bytesWritten;
}

/**
 * `source` piped into `out`, settled once both are done (`out` closed: a file's flush and close
 * come before its name is given) or the first fails, when the other is destroyed. What
 * `stream.pipeline` does, without the AbortController it makes and aborts on every call (a
 * DOMException with a stack trace per small upload). A file stream, not any Writable: after an
 * error this waits for its 'close', which createWriteStream's streams emit (a Writable made with
 * `emitClose: false` never would, and this would wait for ever).
 */
async function pipeInto(source: Readable | AsyncIterable<Uint8Array>, out: WriteStream): Promise<void> {
  const readable = source instanceof Readable ? source : Readable.from(source);
  try {
    readable.pipe(out);
    await Promise.all([finished(readable), finished(out)]);
  } catch (error) {
    readable.destroy();
    out.destroy();
    // A file stream destroyed while its open is under way still opens (creating the file) before
    // it closes: wait for that, or the caller's removal of the file can come first and miss it.
    if (!out.closed) await new Promise((resolve) => out.once('close', resolve));
    throw error;
  }
}
