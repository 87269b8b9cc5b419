import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { isDraining } from './drain.ts';
import { checkReadiness } from './readiness.ts';

export const HEALTHZ_PATH = '/healthz';
export const READYZ_PATH = '/readyz';

/** Probes read; anything else is a 405 naming what is allowed. */
const PROBE_METHODS = ['GET', 'HEAD'];

function answer(req: IncomingMessage, res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), 'Cache-Control': 'no-store', ...headers });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** Answers 405 unless the method is GET or HEAD; true when it did. */
export function refuseMethod(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  if (PROBE_METHODS.includes(req.method ?? '')) return false;
  answer(req, res, 405, { message: `${path} answers GET and HEAD only, not ${req.method}.` }, { Allow: PROBE_METHODS.join(', ') });
  return true;
}

/** Liveness: the process is serving requests. No database, no storage: a slow dependency must not get a live process restarted. */
export async function serveHealthz(_ctx: AppContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (refuseMethod(req, res, HEALTHZ_PATH)) return;
  answer(req, res, 200, { status: 'ok' });
}

/** Readiness: 200 when the database and the blob store answer; 503 naming the failed check, or at once while shutting down. */
export async function serveReadyz(ctx: AppContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (refuseMethod(req, res, READYZ_PATH)) return;
  if (isDraining(ctx)) return answer(req, res, 503, { status: 'draining', message: 'This server is shutting down.', checks: {} });
  const readiness = await checkReadiness(ctx);
  // A shutdown that began while the checks ran wins.
  if (isDraining(ctx)) return answer(req, res, 503, { status: 'draining', message: 'This server is shutting down.', checks: readiness.checks });
  if (readiness.ready) return answer(req, res, 200, { status: 'ready', checks: readiness.checks });
  answer(req, res, 503, { status: 'not_ready', message: `The ${readiness.failed} check failed.`, checks: readiness.checks });
}
