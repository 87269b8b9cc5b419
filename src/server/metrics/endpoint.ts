import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { refuseMethod } from '../health/routes.ts';

export const METRICS_PATH = '/metrics';

function json(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** Constant-time: both sides hashed to the same length first, so neither the length nor a prefix of the token leaks. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1] as string), digest(token));
}

/** GET /metrics: Prometheus text. A 404 while METRICS_TOKEN is unset, a 401 without the right bearer token. */
export async function serveMetrics(ctx: AppContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const token = ctx.config.metricsToken;
  if (!token || !ctx.metrics) return json(res, 404, { message: 'Not found.' });
  if (refuseMethod(req, res, METRICS_PATH)) return;
  if (!tokenMatches(req.headers.authorization, token)) {
    return json(res, 401, { message: 'Send the metrics token (METRICS_TOKEN) as Authorization: Bearer <token>.' }, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
  }
  const { contentType, body } = await ctx.metrics.render();
  res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
