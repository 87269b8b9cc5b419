import { existsSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../context.ts';
import { DIST } from './dist-path.ts';
import { findDataRoute, transferOf } from './data-routes.ts';
import { observeRequest } from '../metrics/requests.ts';
import { staticAssets } from './static.ts';
import { dataPlaneRefusal } from '../site/maintenance.ts';
import { API_BODY_LIMIT_BYTES } from './body-limit.ts';
import { answerRaw, closeAfterUnreadBody, isServedMethod, SERVED_METHODS } from './connection.ts';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (() => void) | undefined, locals: object) => Promise<void>;


async function loadAstroHandler(): Promise<AstroHandler> {
  const entry = new URL('server/entry.mjs', DIST);
  if (!existsSync(fileURLToPath(entry))) throw new Error('The app is not built yet: run `npm run build` first.');
  const mod = (await import(entry.href)) as { handler: AstroHandler };
  return mod.handler;
}

/**
 * The process's HTTP server. File bytes (the data plane) are streamed here with backpressure;
 * pages and JSON endpoints are handed to Astro with the application context in `locals`.
 */
export async function createHttpServer(ctx: AppContext): Promise<http.Server> {
  const astro = await loadAstroHandler();
  const assets = staticAssets(fileURLToPath(new URL('client/', DIST)));

  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    // Counted under the route's name or pattern once the answer ends; '(unmatched)' until a route takes it.
    const observed = observeRequest(ctx.metrics, req, res);
    const fail = (error: unknown) => {
      ctx.logger.error({ err: error, url: req.url }, 'data plane request failed');
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    };
    const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
      res.end(JSON.stringify({ message }));
    };
    closeAfterUnreadBody(req, res);
    // TRACE would echo the request (cookies included) back; it and other methods no route serves are
    // refused here, before Astro, whose Request constructor throws on them (a 500 before).
    if (!isServedMethod(req.method, pathname)) return refuse(405, `The ${req.method} method is not supported.`, { Allow: SERVED_METHODS.join(', ') });
    const data = findDataRoute(pathname, req.method ?? 'GET');
    // A NUL in a path or query (raw or %00) names nothing of ours, and PostgreSQL refuses it with an error (a 500).
    if (/\0|%00/i.test(req.url ?? '')) {
      if (data || pathname.startsWith('/api/')) return refuse(404, 'Not found.');
      req.url = '/404';
      return void astro(req, res, undefined, { ctx }).catch(fail);
    }
    if (data) {
      observed.route({ kind: 'data', name: data.name });
      const transfer = ctx.metrics ? transferOf(data, req.method ?? 'GET') : null;
      if (transfer && ctx.metrics) res.once('close', ctx.metrics.transferStarted(transfer));
      const handle = async () => {
        const refusal = data.open ? null : await dataPlaneRefusal(ctx, req);
        if (!refusal) return data.handle(ctx, req, res, pathname);
        res.writeHead(refusal.status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...refusal.headers });
        res.end(JSON.stringify(refusal.body));
      };
      return void handle().catch(fail);
    }
    // Astro renders an unmatched path without our locals; render our own 404 page instead.
    const notFoundPage = () => {
      observed.route({ kind: 'unmatched' });
      if (pathname.startsWith('/api/')) {
        res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        return void res.end(JSON.stringify({ message: 'Not found.' }));
      }
      req.url = '/404';
      void astro(req, res, undefined, { ctx }).catch(fail);
    };
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > API_BODY_LIMIT_BYTES) return refuse(413, `The request body is too large: at most ${API_BODY_LIMIT_BYTES} bytes here.`);
    const toAstro = () => {
      // src/middleware.ts records the route's pattern in locals (Astro keeps this same object).
      const locals: { ctx: AppContext; routePattern?: string } = { ctx };
      observed.route(() => ({ kind: 'astro', pattern: locals.routePattern }));
      void astro(req, res, notFoundPage, locals).catch(fail);
    };
    if (req.method === 'GET' || req.method === 'HEAD') {
      observed.route({ kind: 'static' });
      return assets(req, res, toAstro);
    }
    toAstro();
  });
  // CONNECT never reaches the request handler: Node hands the socket over (and drops it when nobody listens).
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    answerRaw(socket, 405, 'Method Not Allowed', { message: 'The CONNECT method is not supported.' }, { Allow: SERVED_METHODS.join(', ') });
  });
  // A request Node cannot parse (an unknown method such as TRACK, bad headers) gets a JSON answer
  // instead of Node's bare 400, and the connection is closed.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way on this connection cannot be followed by another one.
    const underWay = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || underWay) return void socket.destroy();
    const [status, reason, message] =
      error.code === 'HPE_INVALID_METHOD' ? [501, 'Not Implemented', 'This request method is not supported.']
      : error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', 'The request took too long to arrive.']
      : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? [413, 'Payload Too Large', 'The chunk extensions are too large.']
      : [400, 'Bad Request', 'The request could not be parsed.'];
    answerRaw(socket, status, reason, { message, code: error.code });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0; // long uploads and downloads must not be cut off
  return server;
}
