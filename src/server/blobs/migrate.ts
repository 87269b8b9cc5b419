import { createHash } from 'node:crypto';
import { appendFile, open, readFile } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './store.ts';

/** One blob copied and verified: its key, size and SHA-256 (hex), as the journal records it. */
export interface CopiedBlob {
  key: string;
  size: number;
  sha256: string;
}

export interface MigrationReport {
  /** Blobs in the source store. */
  blobs: number;
  bytes: number;
  /** Uploaded by this run and verified. */
  copied: number;
  /** Recorded as verified by an earlier run and still there with the same size: not read again. */
  skipped: number;
  /** Already in the target (an earlier run stopped after the upload, before recording it): verified, not uploaded again. */
  adopted: number;
  failed: { key: string; error: string }[];
}

export interface MigrationOptions {
  /** Append-only journal of verified copies (JSON lines): what a re-run skips. */
  journal: string;
  /** Copies in flight at once. */
  concurrency?: number;
  onBlob?: (event: 'copied' | 'skipped' | 'adopted' | 'failed', key: string, detail: string) => void;
  /** Test-only: called after each upload, before its verification is recorded (a crash point). */
  afterUpload?: (uploaded: number) => void;
}

/** SHA-256 and byte count of a stream, read to its end. */
async function digest(source: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of source) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { size, sha256: hash.digest('hex') };
}

/** The journal's verified copies by key; a line cut off by a crash is ignored (that blob is checked again). */
export async function readJournal(file: string): Promise<Map<string, CopiedBlob>> {
  const done = new Map<string, CopiedBlob>();
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as CopiedBlob;
      if (typeof entry.key === 'string' && typeof entry.size === 'number' && typeof entry.sha256 === 'string') done.set(entry.key, entry);
    } catch {
      /* an empty or half-written line */
    }
  }
  return done;
}

/** Appends one verified copy to the journal, flushed to disk before the next blob counts on it. */
async function record(file: string, entry: CopiedBlob): Promise<void> {
  await appendFile(file, `${JSON.stringify(entry)}\n`, { flush: true });
}

/**
 * Copies every blob of `source` to `target`, streamed, each verified by reading it back from the
 * target: its size and SHA-256 must equal those computed from the source while uploading. A blob the
 * journal holds as verified and the target still has at that size is skipped; one the target has
 * but the journal lacks (the run stopped between upload and record) is verified by reading it back
 * and adopted if equal, uploaded again only if not. Nothing is deleted from the source.
 */
export async function migrateBlobs(source: BlobStore, target: BlobStore, options: MigrationOptions): Promise<MigrationReport> {
  // Make sure the journal's folder is writable before the first upload, not after it.
  await (await open(options.journal, 'a')).close();
  const journal = await readJournal(options.journal);
  const report: MigrationReport = { blobs: 0, bytes: 0, copied: 0, skipped: 0, adopted: 0, failed: [] };
  const notify = options.onBlob ?? (() => undefined);
  let uploads = 0;

  const copyOne = async (key: string, size: number) => {
    const there = await target.stat(key);
    const known = journal.get(key);
    if (known && there && known.size === size && there.size === size) {
      report.skipped += 1;
      return notify('skipped', key, known.sha256);
    }
    const local = await digest(source.get(key));
    if (local.size !== size) throw new Error(`the source blob changed while it was read (${size} then ${local.size} bytes)`);
    if (there && there.size === size) {
      const remote = await digest(target.get(key));
      if (remote.size === local.size && remote.sha256 === local.sha256) {
        await record(options.journal, { key, ...local });
        report.adopted += 1;
        return notify('adopted', key, local.sha256);
      }
    }
    // Uploaded with its SHA-256 computed on the way; read back and compared before it counts.
    const hash = createHash('sha256');
    let sent = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        sent += chunk.length;
        done(null, chunk);
      },
    });
    const feeding = pipeline(source.get(key), hashing).catch((error: unknown) => {
      hashing.destroy(error as Error);
      throw error;
    });
    await Promise.all([target.put(key, hashing), feeding]);
    const uploaded = { size: sent, sha256: hash.digest('hex') };
    options.afterUpload?.((uploads += 1));
    const remote = await digest(target.get(key));
    if (uploaded.size !== size || uploaded.sha256 !== local.sha256 || remote.size !== size || remote.sha256 !== local.sha256) {
      await target.delete(key).catch(() => undefined);
      throw new Error(`verification failed: source ${size} bytes ${local.sha256}, target ${remote.size} bytes ${remote.sha256}`);
    }
    await record(options.journal, { key, size, sha256: local.sha256 });
    report.copied += 1;
    notify('copied', key, local.sha256);
  };

  const inFlight = new Set<Promise<void>>();
  const limit = Math.max(1, options.concurrency ?? 4);
  for await (const blob of source.list('')) {
    // tus uploads in progress staged in a bucket (uploads/tus-staging-s3.ts) are not blobs.
    if (blob.key.startsWith('uploads/')) continue;
    report.blobs += 1;
    report.bytes += blob.size;
    const run = copyOne(blob.key, blob.size)
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        report.failed.push({ key: blob.key, error: message });
        notify('failed', blob.key, message);
      })
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
    if (inFlight.size >= limit) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  return report;
}
