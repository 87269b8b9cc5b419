import fs from 'node:fs';
import type { BlobStat } from './store.ts';

/** A blob open for reading on the local disk (downloads/blob-body.ts reads it in place). */
export interface OpenBlob {
  stat: BlobStat;
  /** Reads up to `length` bytes at `position` into `buffer` from `offset`; answers how many (0 at the end). */
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
  /** Lets the file go once the reads under way are done; later calls answer the same promise. */
  close(): Promise<void>;
}

/**
 * Opens `file` for reading with a bare descriptor and the callback API: for a 4 KiB download the
 * open, read and close cost the event loop's thread about half of what a promise FileHandle's do
 * (its object, its promises and its finaliser; README, Benchmarks). With `known` (the size and time
 * the database holds for an immutable blob) there is no fstat either. Null when the file is missing.
 */
export async function openForReading(file: string, known?: BlobStat): Promise<OpenBlob | null> {
  let fd: number;
  try {
    fd = await new Promise<number>((resolve, reject) => fs.open(file, 'r', (error, opened) => (error ? reject(error) : resolve(opened))));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  // Closed on this thread: a descriptor opened only for reading has nothing to write back, so
  // close(2) does not wait for the disk, and a trip through the thread pool cost more than the call.
  const closeNow = async () => fs.closeSync(fd);
  let stat: BlobStat;
  try {
    stat = known ?? (await new Promise<BlobStat>((resolve, reject) => fs.fstat(fd, (error, s) => (error ? reject(error) : resolve({ size: s.size, modifiedAt: s.mtime })))));
  } catch (error) {
    await closeNow();
    throw error;
  }
  // Reads in flight: the descriptor is closed only after them, or a read could land on a number
  // the process has given to another file meanwhile.
  const reading = new Set<Promise<number>>();
  let closing: Promise<void> | undefined;
  return {
    stat,
    read(buffer, offset, length, position) {
      if (closing) return Promise.reject(new Error('the blob is closed'));
      const read = new Promise<number>((resolve, reject) => fs.read(fd, buffer, offset, length, position, (error, bytes) => (error ? reject(error) : resolve(bytes))));
      reading.add(read);
      const settle = () => reading.delete(read);
      read.then(settle, settle);
      return read;
    },
    close: () => (closing ??= Promise.allSettled(reading).then(closeNow)),
  };
}

/** Reads `length` bytes at `position` into `buffer` (several reads if the system gives fewer); answers how many, fewer at the end of the file. */
export async function readFully(file: Pick<OpenBlob, 'read'>, buffer: Buffer, length: number, position: number): Promise<number> {
  let read = 0;
  while (read < length) {
    const bytesRead = await file.read(buffer, read, length - read, position + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return read;
}
