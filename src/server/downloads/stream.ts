import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
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
