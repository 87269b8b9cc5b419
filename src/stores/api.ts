/**
 * The one HTTP client the islands use: same-origin, cookie session, the X-Requested-With header
 * the server's CSRF check expects, `{ message, code?, errors? }` errors turned into ApiError, and a session
 * that ended while the page was open sent to sign-in with the way back.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string[]>;
  /** The server's stable key for the refusal (`storage_limit_exceeded`), when it names one. */
  readonly code: string | null;
  constructor(status: number, message: string, errors: Record<string, string[]> = {}, code: string | null = null) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.code = code;
  }
}

/** An error answer's body as every server route sends it (errors.ts `errorBody`). */
export interface ErrorBody {
  message?: string;
  code?: string;
  errors?: Record<string, string[]>;
}

/** Reads an error answer's body, whatever arrived (JSON text, a parsed object, or nothing usable). */
export function parseErrorBody(raw: unknown): ErrorBody {
  let data = raw;
  if (typeof raw === 'string') {
    try {
      data = JSON.parse(raw);
    } catch {
      return {};
    }
  }
  if (!data || typeof data !== 'object') return {};
  const { message, code, errors } = data as Record<string, unknown>;
  return {
    ...(typeof message === 'string' ? { message } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(errors && typeof errors === 'object' ? { errors: errors as Record<string, string[]> } : {}),
  };
}

type Body = Record<string, unknown> | FormData | undefined;

// Set while signing out: a request that was still in flight then answers 401, and must not send
// the user to sign-in instead of the homepage the sign-out is going to.
let signingOut = false;
export function markSigningOut(): void {
  signingOut = true;
}

export function signInAgain(): void {
  if (signingOut) return;
  const back = location.pathname + location.search;
  location.assign(`/sign-in?redirect=${encodeURIComponent(back)}`);
}

async function request<T>(method: string, path: string, body?: Body): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return answerOf<T>(fetch(path, { method, headers, body: payload, credentials: 'same-origin' }));
}

/** An answer as the client reads every one: the JSON body, or an ApiError (and sign-in again on a 401). */
async function answerOf<T>(sent: Promise<Response>): Promise<T> {
  let res: Response;
  try {
    res = await sent;
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let data: unknown;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!res.ok) {
    const err = parseErrorBody(data);
    if (res.status === 401) signInAgain();
    throw new ApiError(res.status, err.message ?? `Request failed (${res.status}).`, err.errors ?? {}, err.code ?? null);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  /** A GET that was sent before this module ran (the document's early listing request), read as `get` reads its own. */
  answerTo: <T>(sent: Promise<Response>) => answerOf<T>(sent),
  post: <T>(path: string, body?: Body) => request<T>('POST', path, body),
  /** Laravel-style override, as the spec's calls send it. */
  patch: <T>(path: string, body: Record<string, unknown> = {}) => request<T>('POST', path, { ...body, _method: 'patch' }),
  put: <T>(path: string, body: Record<string, unknown> = {}) => request<T>('POST', path, { ...body, _method: 'put' }),
  delete: <T>(path: string, body: Record<string, unknown> = {}) => request<T>('POST', path, { ...body, _method: 'delete' }),
};
