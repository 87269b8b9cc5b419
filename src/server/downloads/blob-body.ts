import type { ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import type { BlobStat } from '../blobs/store.ts';
import { readFully, type OpenBlob } from '../blobs/open-file.ts';
import { streamTo, taken } from './stream.ts';

type Range = { start: number; end: number };

/** A blob a download route is about to answer with: its stat, then its bytes (or none: a 304, a HEAD). */
export interface BlobBody {
  stat: BlobStat;
  /** Sends bytes `start` to `end` (inclusive) as the rest of the response, and ends it. */
  send(res: ServerResponse, range: Range, log?: Record<string, unknown>): Promise<void>;
  /**
   * Bytes `start` to `end` as chunks for a consumer that is done with a chunk when it asks for the
   * next one (a chunk's buffer may be read into again then): the zip writer. Fails when the blob
   * turns out shorter than its stat.
   */
  chunks(range: Range): AsyncIterable<Buffer>;
  /** Lets go of the blob (the open file, a remote stream); call it whatever happened, as often as needed. */
  close(): Promise<void>;
}

/**
 * The blob `key` for a response, or null when it is missing. On the local disk the file is opened
 * once and its bytes are read into reused buffers (below), with the size and time of `known` when
 * the caller has them from the item (no fstat); from a remote store they are streamed.
 */
export async function openBlobBody(ctx: AppContext, key: string, known?: BlobStat): Promise<BlobBody | null> {
  if (ctx.blobs.open) {
    const file = await ctx.blobs.open(key, known);
    if (!file) return null;
    return {
      stat: file.stat,
      send: (res, range) => sendFromFile(ctx, file, res, range, key),
      chunks: (range) => fileChunks(file, range, key),
      close: () => file.close(),
    };
  }
  const stat = await ctx.blobs.stat(key);
  if (!stat) return null;
  const streams = new Set<{ destroy(): void }>();
  return {
    stat,
    send: (res, range, log) => streamTo(ctx, ctx.blobs.get(key, range), res, log),
    chunks: (range) => {
      const stream = ctx.blobs.get(key, range);
      streams.add(stream);
      return stream;
    },
    close: async () => {
      for (const stream of streams) stream.destroy();
    },
  };
}

/** Up to this size a body is read whole into a buffer of its own and written at once. */
const SMALL_BODY_BYTES = 64 * 1024;
/** Bytes read from the disk per write to the socket. */
const CHUNK_BYTES = 256 * 1024;
/** Chunk buffers kept for the next download (4 MiB at most): a download allocates nothing once they exist. */
const SPARE_BUFFERS = 16;
const spare: Buffer[] = [];
const takeBuffer = () => spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
const giveBack = (buffers: Buffer[]) => {
  for (const buffer of buffers) if (spare.length < SPARE_BUFFERS) spare.push(buffer);
};

class ShortBlobError extends Error {
  constructor(key: string, expected: number, found: number) {
    super(`the blob ${key} holds ${found} bytes where ${expected} were expected`);
  }
}

/**
 * A range of an open file in chunks, read into two buffers in turn: the next chunk is read while
 * the consumer handles this one, and a buffer is read into again only once the consumer has asked
 * for the chunk after it. A stream would allocate a new buffer per chunk, and at hundreds of MiB/s
 * those allocations made the garbage collector mark the whole heap every few chunks (a quarter of a
 * large download's CPU). The buffers are kept for the next reader when every chunk was taken.
 */
async function* fileChunks(file: OpenBlob, range: Range, key: string): AsyncGenerator<Buffer> {
  const buffers = [takeBuffer(), takeBuffer()];
  const readInto = async (buffer: Buffer, position: number): Promise<Buffer> => {
    const length = Math.min(CHUNK_BYTES, range.end - position + 1);
    const read = await readFully(file, buffer, length, position);
    if (read < length) throw new ShortBlobError(key, range.end + 1, position + read);
    return buffer.subarray(0, length);
  };
  let position = range.start;
  let turn = 0;
  let next: Promise<Buffer> | null = position <= range.end ? readInto(buffers[0]!, position) : null;
  let whole = false;
  try {
    while (next) {
      const chunk = await next;
      position += chunk.length;
      turn ^= 1;
      next = position <= range.end ? readInto(buffers[turn]!, position) : null;
      yield chunk;
    }
    whole = true;
  } finally {
    // Left early: a read may still be filling a buffer; it is not reused (nor its failure reported).
    next?.catch(() => {});
    if (whole) giveBack(buffers);
  }
}

/**
 * Sends a range of an open file: each chunk is written to the socket and the next one asked for
 * once the socket has taken it (the write's callback), which is the backpressure as well. A client
 * that goes away ends the send; a file shorter than its stat said ends the response early.
 */
async function sendFromFile(ctx: AppContext, file: OpenBlob, res: ServerResponse, range: Range, key: string): Promise<void> {
  try {
    const total = range.end - range.start + 1;
    // A small body is read whole and goes out with the headers in one write, without waiting for the socket.
    if (total <= SMALL_BODY_BYTES) {
      const bytes = Buffer.allocUnsafe(total);
      const read = await readFully(file, bytes, total, range.start);
      if (read < total) throw new ShortBlobError(key, range.end + 1, range.start + read);
      return void res.end(bytes);
    }
    let sent = range.start;
    for await (const chunk of fileChunks(file, range, key)) {
      sent += chunk.length;
      if (!(await taken(res, chunk, sent > range.end))) return;
    }
  } catch (error) {
    if (!(error instanceof ShortBlobError)) throw error;
    ctx.logger.error({ blobKey: key, err: error }, 'a blob is shorter than its size');
    res.destroy();
  }
}
