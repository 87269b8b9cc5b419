import { existsSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../context.ts';
import { findDataRoute } from './data-routes.ts';
import { staticAssets } from './static.ts';
import { dataPlaneRefusal } from '../site/maintenance.ts';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (() => void) | undefined, locals: object) => Promise<void>;

const DIST = new URL('../../../dist/', import.meta.url);

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
    const fail = (error: unknown) => {
      ctx.logger.error({ err: error, url: req.url }, 'data plane request failed');
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    };
    const data = findDataRoute(pathname, req.method ?? 'GET');
    if (data) {
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
      if (pathname.startsWith('/api/')) {
        res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        return void res.end(JSON.stringify({ message: 'Not found.' }));
      }
      req.url = '/404';
      void astro(req, res, undefined, { ctx }).catch(fail);
    };
    const toAstro = () => void astro(req, res, notFoundPage, { ctx }).catch(fail);
    if (req.method === 'GET' || req.method === 'HEAD') return assets(req, res, toAstro);
    toAstro();
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0; // long uploads and downloads must not be cut off
  return server;
}
