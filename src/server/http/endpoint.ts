import type { APIContext, APIRoute } from 'astro';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError, errorBody, isAppError, unauthenticated, unsupportedMediaType, validationError } from './errors.ts';
import { setFlash, wantsJson } from './forms.ts';
import { clientIp } from './ip.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Body = Record<string, unknown>;

export interface Input<U extends User | null> {
  ctx: AppContext;
  user: U;
  body: Body;
  query: URLSearchParams;
  params: Record<string, string | undefined>;
  astro: APIContext;
  ip: string;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing (a 204) is typed void, not undefined.
type Result = Response | object | undefined | void;
type Handler<U extends User | null> = (input: Input<U>) => Promise<Result> | Result;

interface Options {
  /** Where a plain HTML form is sent back to when its input is refused (the page shows the flash). */
  formErrorRedirect?: (input: Input<User | null>) => string;
}

/**
 * One API route: parses the body once (JSON, urlencoded or multipart), applies the Laravel-style
 * `_method` override, checks sign-in, and maps domain errors to `{ message, errors }` responses.
 */
export function route(handlers: Partial<Record<Method, Handler<User>>>, options: Options = {}): APIRoute {
  return routeWith('required', handlers as Partial<Record<Method, Handler<User | null>>>, options);
}

/** Same as `route`, for endpoints a signed-out visitor may call. */
export function publicRoute(handlers: Partial<Record<Method, Handler<User | null>>>, options: Options = {}): APIRoute {
  return routeWith('optional', handlers, options);
}

function routeWith(auth: 'required' | 'optional', handlers: Partial<Record<Method, Handler<User | null>>>, options: Options): APIRoute {
  return async (astro) => {
    const { locals, request } = astro;
    const input: Input<User | null> = {
      ctx: locals.ctx,
      user: locals.user,
      body: {},
      query: astro.url.searchParams,
      params: astro.params,
      astro,
      ip: clientIp(astro.request.headers, astro.clientAddress, locals.ctx.config.trustProxy),
    };
    try {
      input.body = await readBody(request);
      let method = request.method.toUpperCase() as Method;
      const override = typeof input.body._method === 'string' ? input.body._method.toUpperCase() : undefined;
      if (method === 'POST' && override && ['PUT', 'PATCH', 'DELETE'].includes(override)) method = override as Method;
      delete input.body._method;
      const handler = handlers[method];
      if (!handler) {
        return json({ message: `The ${method} method is not supported for this route.` }, 405, { Allow: Object.keys(handlers).join(', ') });
      }
      if (auth === 'required' && !input.user) throw unauthenticated();
      return toResponse(await handler(input));
    } catch (error) {
      if (isAppError(error)) {
        if (options.formErrorRedirect && !wantsJson(request) && error.status !== 405) {
          setFlash(astro, { message: error.message, errors: error.errors ?? {}, old: oldInput(input.body) });
          return astro.redirect(options.formErrorRedirect(input), 303);
        }
        return json(errorBody(error), error.status, error.headers);
      }
      locals.ctx.logger.error({ err: error, url: request.url }, 'request failed');
      return json({ message: 'Server error.' }, 500);
    }
  };
}

/** A JSON answer, sent with its length (Content-Length) rather than in chunked framing. */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  // A string body: Response encodes it once, where a Buffer would be copied.
  const body = JSON.stringify(data) ?? '';
  return new Response(body, { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': String(Buffer.byteLength(body)), ...headers } });
}

function toResponse(result: Result): Response {
  if (result instanceof Response) return result;
  if (result === undefined) return new Response(null, { status: 204 });
  return json(result);
}

/**
 * Keys that reach an object's prototype when code copies a body with assignment (`Object.assign`,
 * `body[key] = value`, a deep merge). No field of ours has such a name: refused wherever they appear.
 */
const POLLUTING_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const pollutingKey = (key: string) => new AppError(400, `The body may not contain the key "${key}".`);
/** No field takes a NUL; PostgreSQL cannot even store one in text (it would be a 500 there). */
const nulCharacter = (key: string) => {
  const field = /^\d*$/.test(key) ? '_' : key;
  return validationError({ [field]: [`The ${field === '_' ? 'request' : field} may not contain NUL characters.`] });
};

async function readBody(request: Request): Promise<Body> {
  if (request.method === 'GET' || request.method === 'HEAD') return {};
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const length = request.headers.get('content-length');
  if (!type) {
    // A bodiless DELETE (no length, not chunked) has nothing to read either.
    if (!request.body || length === '0' || (length === null && !request.headers.has('transfer-encoding'))) return {};
    throw unsupportedMediaType('Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data.');
  }
  try {
    if (type === 'application/json') {
      const text = await request.text();
      if (!text.trim()) return {};
      const parsed: unknown = JSON.parse(text, (key, value: unknown) => {
        if (POLLUTING_KEYS.has(key)) throw pollutingKey(key);
        if (typeof value === 'string' && value.includes('\u0000')) throw nulCharacter(key);
        return value;
      });
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AppError(400, 'The JSON body must be an object.');
      return parsed as Body;
    }
    if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
      const form = await request.formData();
      const body: Body = {};
      for (const [key, value] of form.entries()) {
        if (POLLUTING_KEYS.has(key)) throw pollutingKey(key);
        if (typeof value === 'string' && value.includes('\u0000')) throw nulCharacter(key);
        body[key] = value;
      }
      return body;
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    if (error instanceof Error && /size|limit|too large/i.test(error.message)) throw new AppError(413, 'The request body is too large.');
    throw new AppError(400, 'The request body could not be read.');
  }
  throw unsupportedMediaType('Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data.');
}

/** Fields a form may show again after a refusal; never passwords or tokens. */
function oldInput(body: Body): Record<string, string> {
  const old: Record<string, string> = {};
  // A message (the contact form) only when short: the flash travels in a cookie of at most 4 KB.
  for (const [key, max] of [['name', 255], ['email', 255], ['message', 1000]] as const) {
    const value = body[key];
    if (typeof value === 'string' && value.length <= max) old[key] = value;
  }
  return old;
}
