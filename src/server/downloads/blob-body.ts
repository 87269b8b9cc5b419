import type { ServerResponse } from 'node:http';
import type { FileHandle } from 'node:fs/promises';
import type { AppContext } from '../context.ts';
import type { BlobStat } from '../blobs/store.ts';
import { streamTo } from './stream.ts';

/** A blob a download route is about to answer with: its stat, then its bytes (or none: a 304, a HEAD). */
export interface BlobBody {
  stat: BlobStat;
  /** Sends bytes `start` to `end` (inclusive) as the rest of the response, and ends it. */
  send(res: ServerResponse, range: { start: number; end: number }, log?: Record<string, unknown>): Promise<void>;
  /** Lets go of the blob (the open file); call it whatever happened. */
  close(): Promise<void>;
}

/**
 * The blob `key` for a response, or null when it is missing. On the local disk the file is opened
 * once and its bytes are read into reused buffers (below); from a remote store they are streamed.
 */
export async function openBlobBody(ctx: AppContext, key: string): Promise<BlobBody | null> {
  if (ctx.blobs.open) {
    const opened = await ctx.blobs.open(key);
    if (!opened) return null;
    const { stat, handle } = opened;
    return {
      stat,
      send: (res, range) => sendFromFile(ctx, handle, res, range, key),
      close: () => handle.close(),
    };
  }
  const stat = await ctx.blobs.stat(key);
  if (!stat) return null;
  return {
    stat,
    send: (res, range, log) => streamTo(ctx, ctx.blobs.get(key, range), res, log),
    close: async () => {},
  };
}

/** Up to this size a body is read whole into a buffer of its own and written at once. */
const SMALL_BODY_BYTES = 64 * 1024;
/** Bytes read from the disk per write to the socket. */
const CHUNK_BYTES = 256 * 1024;
/** Chunk buffers kept for the next download (4 MiB at most): a download allocates nothing once they exist. */
const SPARE_BUFFERS = 16;
const spare: Buffer[] = [];

/**
 * Sends a range of an open file with two buffers in turn: one is read from the disk while the
 * other's bytes are being written to the socket, and a buffer is read into again only once the
 * socket has taken its bytes (the write's callback), which is the backpressure as well. A stream
 * would allocate a new buffer per chunk, and at hundreds of MiB/s those allocations made the
 * garbage collector mark the whole heap every few chunks (a quarter of a large download's CPU).
 * A client that goes away ends the send; a file shorter than its stat said ends the response early.
 */
async function sendFromFile(ctx: AppContext, handle: FileHandle, res: ServerResponse, range: { start: number; end: number }, key: string): Promise<void> {
  const total = range.end - range.start + 1;
  // A small body is read whole and goes out with the headers in one write, without waiting for the socket.
  if (total <= SMALL_BODY_BYTES) {
    const bytes = Buffer.allocUnsafe(total);
    const read = await readFully(handle, bytes, total, range.start);
    if (read < total) return shortBlob(ctx, res, key, range.end + 1, range.start + read);
    return void res.end(bytes);
  }
  let gone = false;
  const closed = new Promise<false>((resolve) => {
    const onClose = () => {
      gone = true;
      resolve(false);
    };
    if (res.destroyed) onClose();
    else res.once('close', onClose);
  });
  const buffers: Buffer[] = [];
  const writes: (Promise<boolean> | undefined)[] = [undefined, undefined];
  let position = range.start;
  let turn = 0;
  while (position <= range.end) {
    const slot = turn++ & 1;
    // The socket still holds this buffer's last bytes until their write's callback.
    if (writes[slot] && !(await writes[slot])) return;
    if (gone) return;
    const buffer = (buffers[slot] ??= spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES));
    const length = Math.min(CHUNK_BYTES, range.end - position + 1);
    const read = await readFully(handle, buffer, length, position);
    if (read < length) return shortBlob(ctx, res, key, range.end + 1, position + read);
    position += length;
    const chunk = buffer.subarray(0, length);
    const last = position > range.end;
    const written = new Promise<true>((resolve) => (last ? res.end(chunk, () => resolve(true)) : res.write(chunk, () => resolve(true))));
    writes[slot] = Promise.race([written, closed]);
  }
  for (const write of writes) if (write && !(await write)) return;
  // Every write's callback came: the socket holds none of these bytes any more.
  for (const buffer of buffers) if (spare.length < SPARE_BUFFERS) spare.push(buffer);
}

/** The headers promised more bytes than the file holds: the response ends early, and it is logged. */
function shortBlob(ctx: AppContext, res: ServerResponse, key: string, expected: number, found: number): void {
  ctx.logger.error({ blobKey: key, expected, found }, 'a blob is shorter than its size');
  res.destroy();
}

async function readFully(handle: FileHandle, buffer: Buffer, length: number, position: number): Promise<number> {
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return read;
}
