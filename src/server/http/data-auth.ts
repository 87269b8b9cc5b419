import type { IncomingMessage, ServerResponse } from 'node:http';
import { userForAccessToken } from '../auth/access-tokens.ts';
import { SESSION_COOKIE, validateSessionToken, type User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { isSameOrigin, isUnsafe } from './csrf.ts';
import { AppError, errorBody, isAppError } from './errors.ts';

/**
 * Identity and CSRF for the data plane (plain Node requests that never reach Astro), with the same
 * rules as src/middleware.ts: a bearer token, else the session cookie; a cookie-authenticated
 * unsafe request must come from our origin and carry X-Requested-With.
 */
export interface DataAuth {
  user: User;
  method: 'token' | 'cookie';
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (header(req, 'cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The signed-in user of a data-plane request, or null. A bad bearer token is refused outright (401). */
export async function authenticate(ctx: AppContext, req: IncomingMessage): Promise<DataAuth | null | 'bad-token'> {
  const bearer = header(req, 'authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) {
    const user = await userForAccessToken(ctx, bearer);
    return user ? { user, method: 'token' } : 'bad-token';
  }
  const token = readCookie(req, SESSION_COOKIE);
  if (!token) return null;
  const found = await validateSessionToken(ctx, token);
  return found ? { user: found.user, method: 'cookie' } : null;
}

/** Why a browser request that changes something is refused, or null when it may go on. */
export function csrfRefusal(ctx: AppContext, req: IncomingMessage, auth: DataAuth | null): string | null {
  if (!isUnsafe(req.method ?? 'GET') || auth?.method === 'token') return null;
  const headers = new Headers();
  for (const name of ['origin', 'sec-fetch-site']) {
    const value = header(req, name);
    if (value) headers.set(name, value);
  }
  if (!isSameOrigin(headers, ctx.config.appUrl.origin)) return 'Cross-site request refused: the Origin header must be this site.';
  if (auth?.method === 'cookie' && !header(req, 'x-requested-with')) return 'Missing the X-Requested-With header.';
  return null;
}

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

/** A cross-site or header-less browser write, refused (403) before anything is opened. */
export function requireSameOrigin(ctx: AppContext, req: IncomingMessage, auth: DataAuth | null): void {
  const refusal = csrfRefusal(ctx, req, auth);
  if (refusal) throw new AppError(403, refusal, { code: 'csrf_refused' });
}

/**
 * The signed-in user of a data-plane request; refuses (401 / 403) otherwise. Every data-plane
 * route that acts for a user starts here (through data-route.ts, which answers the refusal).
 */
export async function dataUser(ctx: AppContext, req: IncomingMessage): Promise<DataAuth> {
  const auth = await authenticate(ctx, req);
  if (auth === 'bad-token') throw new AppError(401, 'The access token is invalid or was revoked.', { code: 'invalid_token', headers: { 'WWW-Authenticate': 'Bearer' } });
  requireSameOrigin(ctx, req, auth);
  if (!auth) throw new AppError(401, 'Unauthenticated.', { code: 'unauthenticated' });
  return auth;
}
