/**
 * A small HTTP client with a cookie jar, acting like the product's own front end: same Origin,
 * X-Requested-With and JSON. Options let a test drop any of those to play a hostile client.
 */
export interface RequestOptions {
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  headers?: Record<string, string>;
  origin?: string | null;
  xrw?: boolean;
  bearer?: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class Client {
  readonly cookies = new Map<string, string>();
  /** Each client looks like its own machine (the test server trusts X-Forwarded-For), so per-IP limits don't leak between tests. */
  readonly ip = `10.${rand()}.${rand()}.${rand()}`;
  readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async request<T = any>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Forwarded-For': this.ip, ...options.headers };
    if (options.origin !== null) headers.Origin = options.origin ?? this.baseUrl;
    if (options.xrw !== false) headers['X-Requested-With'] = 'XMLHttpRequest';
    if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const method = options.method ?? (body !== undefined ? 'POST' : 'GET');
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /max-age=0/i.test(cookie) || /expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options: RequestOptions = {}) {
    return this.request<T>(path, { ...options, method: 'GET' });
  }
  post<T = any>(path: string, json: unknown, options: RequestOptions = {}) {
    return this.request<T>(path, { ...options, method: 'POST', json });
  }
}

const rand = () => Math.floor(Math.random() * 256);
let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.test`;
}

export async function registerUser(baseUrl: string, overrides: Partial<{ name: string; email: string; password: string }> = {}) {
  const client = new Client(baseUrl);
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const res = await client.post('/register', { name: overrides.name ?? 'Test User', email, password, password_confirmation: password });
  if (res.status !== 202) throw new Error(`register failed: ${res.status} ${res.text}`);
  // Sign-up never signs in (it answers a taken address the same way): sign in as a user would.
  const login = await client.post('/login', { email, password });
  if (login.status !== 200) throw new Error(`sign-in after register failed: ${login.status} ${login.text}`);
  return { client, email, password, user: login.body.data };
}

/** Whether a response's session cookie outlives the browser (Max-Age: "Keep me signed in"); throws when it sets none. */
export function sessionCookieIsPersistent(res: { headers: Headers }): boolean {
  const session = res.headers.getSetCookie().find((c) => c.startsWith('session='));
  if (!session) throw new Error('the response sets no session cookie');
  return /Max-Age=\d+/.test(session);
}
