import type { ServerResponse } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../context.ts';

/**
 * Streams a body to the response with backpressure (`stream.pipeline`: a slow reader slows the
 * source, nothing piles up). A client that goes away mid-body is normal, not an error: both ends are
 * closed and the request is done.
 */
export async function streamTo(ctx: AppContext, source: Readable, res: ServerResponse, log: Record<string, unknown> = {}): Promise<void> {
  try {
    await pipeline(source, res);
  } catch (error) {
    if (isClientGone(error, res)) {
      ctx.logger.debug({ ...log }, 'client closed the download');
      return;
    }
    throw error;
  }
}

export function isClientGone(error: unknown, res: ServerResponse): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE' || res.destroyed || res.socket?.destroyed === true;
}

/**
 * Writes `chunk` (and ends the stream with it when `last`): true once the destination has taken it
 * (the write's callback; the caller may then reuse the buffer), false when it closed first (a
 * client that left).
 */
export function taken(stream: Writable, chunk: Buffer, last = false): Promise<boolean> {
  return new Promise((resolve) => {
    if (stream.destroyed) return resolve(false);
    const onClose = () => resolve(false);
    stream.once('close', onClose);
    const done = () => {
      stream.off('close', onClose);
      resolve(true);
    };
    if (last) stream.end(chunk, done);
    else stream.write(chunk, done);
  });
}
