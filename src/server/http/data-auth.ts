import type { ServerResponse } from 'node:http';
import { errorBody, isAppError } from './errors.ts';

/**
 * Answers of the data plane (plain Node requests that never reach Astro). Who acts there is
 * answered by auth/principal.ts, the same functions the Astro middleware uses.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(JSON.stringify(body));
}

/** Answers a domain error the way endpoint.ts does: errors.ts `errorBody` with its status. */
export function sendError(res: ServerResponse, error: unknown): boolean {
  if (!isAppError(error)) return false;
  sendJson(res, error.status, errorBody(error), error.headers ?? {});
  return true;
}
