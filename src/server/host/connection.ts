import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Connection hygiene for the HTTP server: which methods we serve at all, and closing a connection
 * whose request body we answered without reading.
 */

/** Methods any route here serves (tus adds HEAD, PATCH, OPTIONS). TRACE, TRACK, CONNECT and the rest are refused. */
export const SERVED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const SERVED = new Set<string>(SERVED_METHODS);

/** WebDAV's own methods, served under /dav/ only (dav/route.ts). */
export const DAV_ONLY_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
const DAV_ONLY = new Set<string>(DAV_ONLY_METHODS);

export function isServedMethod(method: string | undefined, pathname = ''): boolean {
  if (SERVED.has(method ?? '')) return true;
  return DAV_ONLY.has(method ?? '') && (pathname === '/dav' || pathname.startsWith('/dav/'));
}

/** How long a closing connection keeps reading (and dropping) what the client still sends. */
const LINGER_MS = 2_000;

function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A response that goes out before its request's body was read whole (a 413, or any refusal of an
 * upload) must close the connection: the unread rest of the body would otherwise be parsed as the
 * next request, or keep-alive would wait for bytes the client never sends. So such a response says
 * `Connection: close`, and the socket is closed "lingering": our side is ended at once, and what the
 * client is still sending is read and dropped for a moment, since closing a socket with unread bytes
 * makes the kernel answer with a reset that can destroy our response before the client reads it.
 */
export function closeAfterUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (!declaresBody(req)) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const status = typeof args[0] === 'number' ? args[0] : this.statusCode;
    if (status === 413 || !req.complete) {
      this.setHeader('Connection', 'close');
      const socket = this.socket;
      if (socket) socket.destroySoon = () => lingeringClose(socket);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

export function lingeringClose(socket: Duplex): void {
  if (socket.destroyed) return;
  // Node's HTTP parser stops here: nothing more on this connection is a request.
  socket.removeAllListeners('data');
  socket.on('data', () => {});
  socket.on('error', () => {});
  socket.once('end', () => socket.destroy());
  socket.end();
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** A one-off HTTP/1.1 answer written straight to a socket (parse errors, CONNECT), then closed. */
export function answerRaw(socket: Duplex, status: number, reason: string, body: object, headers: Record<string, string> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Cache-Control: no-store',
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n${text}`);
  lingeringClose(socket);
}
