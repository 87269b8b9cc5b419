import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished } from 'node:stream';
import { NodeRequest } from 'srvx/node';
import { bodyBytesReceived } from './reclaim.ts';

/**
 * The web `Request` of a Node request as srvx builds it (what @tus/server's `Server.handle` does),
 * but with its body from `requestBodyStream` below: srvx's own `body` getter goes through
 * `Readable.toWeb`. The getter is replaced on the instance, which shadows one of srvx's classes;
 * tests/unit/web-body.test.ts checks that `body` answers this stream, so an srvx that reads the body
 * another way fails there instead of bringing the copies back unnoticed.
 */
export function webRequestOf(req: IncomingMessage, res: ServerResponse): Request {
  const request = new NodeRequest({ req, res });
  if (req.method === 'POST' || req.method === 'PATCH' || req.method === 'PUT') {
    let body: ReadableStream<Uint8Array> | undefined;
    Object.defineProperty(request, 'body', { get: () => (body ??= requestBodyStream(req)) });
  }
  return request;
}

/**
 * A request body as a web ReadableStream, for libraries that read a web `Request` (@tus/server,
 * through srvx's NodeRequest), without what Node's `Readable.toWeb` adds to every chunk: it copies
 * each one into a new Uint8Array "to detach it from the pool". A request body's chunks are never
 * pooled (each socket read is a buffer of its own, and the HTTP parser hands out slices of it), so
 * they are passed on as they are. On a 1 GiB tus PATCH the copies were half of the server's
 * work, most of it in the garbage collector (README, Benchmarks).
 *
 * Backpressure as in Node's adapter: the request is paused while the stream's queue is full and
 * resumed when its reader pulls. A body cut off before its end errors the stream; cancelling the
 * stream destroys the request.
 */
export function requestBodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let done = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        req.resume();
      },
      cancel(reason) {
        done = true;
        req.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: req.readableHighWaterMark }),
  );
  finished(req, { writable: false }, (error) => {
    // A request that errs again after this has nobody else listening: not an uncaught error.
    req.on('error', () => undefined);
    if (done) return;
    done = true;
    if (error) controller.error(error);
    else controller.close();
  });
  req.pause();
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    bodyBytesReceived(chunk.length);
    controller.enqueue(chunk);
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  });
  return stream;
}
