/**
 * The one HTTP client the islands use: same-origin, cookie session, the X-Requested-With header
 * the server's CSRF check expects, `{ message, errors }` errors turned into ApiError, and a session
 * that ended while the page was open sent to sign-in with the way back.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string[]>;
  constructor(status: number, message: string, errors: Record<string, string[]> = {}) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

type Body = Record<string, unknown> | FormData | undefined;

let leaving = false;
/** The person is signing out: answers 401 to requests still in flight are expected, not a lost session. */
export function markSigningOut(): void {
  leaving = true;
}

export function signInAgain(): void {
  if (leaving) return;
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
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!res.ok) {
    const err = (data ?? {}) as { message?: string; errors?: Record<string, string[]> };
    if (res.status === 401) signInAgain();
    throw new ApiError(res.status, err.message ?? `Request failed (${res.status}).`, err.errors ?? {});
  }
  return data as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: Body) => request<T>('POST', path, body),
  /** Laravel-style override, as the spec's calls send it. */
  patch: <T>(path: string, body: Record<string, unknown> = {}) => request<T>('POST', path, { ...body, _method: 'patch' }),
  delete: <T>(path: string, body: Record<string, unknown> = {}) => request<T>('POST', path, { ...body, _method: 'delete' }),
};
