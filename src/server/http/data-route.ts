import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { sendError } from './data-auth.ts';
import { AppError, isAppError } from './errors.ts';

/**
 * One data-plane route, the way `route()` (endpoint.ts) is one JSON endpoint: the method check
 * (405 with Allow), the principal (who acts: auth/principal.ts, the same functions the Astro
 * middleware uses: a signed-in user, a share link's holder, an upload request's holder), and every domain error (AppError) answered with errors.ts `errorBody`, after
 * the unread rest of the request body is drained so the client sees the answer, not a reset.
 * `principal` and `handle` refuse by throwing; anything else that is thrown is a 500 (server.ts).
 */
export interface DataRequest<P> {
  ctx: AppContext;
  req: IncomingMessage;
  res: ServerResponse;
  pathname: string;
  principal: P;
}

export interface DataRouteOptions<P> {
  /** The methods served at this path (OPTIONS and HEAD are not implied). */
  methods: readonly string[] | ((pathname: string) => readonly string[]);
  /** The 405's message for a method (default "Method not allowed."). */
  methodMessage?: (method: string) => string;
  /** Who acts; throws an AppError (401, 403, 404, 423) to refuse. */
  principal: (ctx: AppContext, req: IncomingMessage, pathname: string) => Promise<P>;
  handle: (input: DataRequest<P>) => Promise<void>;
  /** Headers every refusal of this route carries (tus's Tus-Resumable). */
  refusalHeaders?: Record<string, string>;
}

export type DataHandler = (ctx: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<void>;

export function dataRoute<P>(options: DataRouteOptions<P>): DataHandler {
  return async (ctx, req, res, pathname) => {
    const method = req.method ?? 'GET';
    try {
      const allowed = typeof options.methods === 'function' ? options.methods(pathname) : options.methods;
      if (!allowed.includes(method)) {
        throw new AppError(405, options.methodMessage?.(method) ?? 'Method not allowed.', { code: 'method_not_allowed', headers: { Allow: allowed.join(', ') } });
      }
      const principal = await options.principal(ctx, req, pathname);
      await options.handle({ ctx, req, res, pathname, principal });
    } catch (error) {
      if (req.socket?.destroyed) return; // the client went away: nobody reads an answer
      drain(req, res);
      if (!sendError(res, withHeaders(error, options.refusalHeaders))) throw error;
    }
  };
}

function withHeaders(error: unknown, headers: Record<string, string> | undefined): unknown {
  if (!headers || !isAppError(error)) return error;
  return new AppError(error.status, error.message, { code: error.code, errors: error.errors, details: error.details, headers: { ...headers, ...(error.headers ?? {}) } });
}

/** What an early answer still reads of the body, so the client sees the answer, not a reset. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/**
 * After an early answer: discard the rest of the body so the connection stays usable (a socket
 * closed on unread bytes is reset, and the client may never read the answer). A body declared
 * larger than DRAIN_LIMIT gets `Connection: close` instead, and no body is read for more than
 * DRAIN_LIMIT bytes or 10 seconds.
 */
export function drain(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const declared = declaredLength(req);
  if ((declared === null || declared > DRAIN_LIMIT) && !res.headersSent) res.setHeader('Connection', 'close');
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMIT) req.destroy();
  });
  req.resume();
  setTimeout(() => {
    if (!req.complete) req.destroy();
  }, 10_000).unref();
}

export function declaredLength(req: IncomingMessage): number | null {
  const raw = req.headers['content-length'];
  if (raw === undefined) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}
