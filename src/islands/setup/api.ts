/**
 * The wizard's own small client: same-origin, the setup-token cookie, X-Requested-With. Unlike the
 * app's client it never sends anyone to sign-in: there is no account yet.
 */
export class SetupError extends Error {
  readonly status: number;
  readonly errors: Record<string, string[]>;
  constructor(status: number, message: string, errors: Record<string, string[]> = {}) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

export const STEPS = ['status-check', 'purchase-code', 'database', 'environment', 'app-setup', 'admin-setup'] as const;
export type Step = (typeof STEPS)[number];

export interface SetupState {
  completed: Step[];
  values: Partial<Record<Step, Record<string, unknown>>>;
  next: Step;
  database: { dialect: 'sqlite' | 'postgres'; fromEnvironment: boolean };
}

export interface Check {
  id: string;
  label: string;
  ok: boolean;
  required: boolean;
  detail: string;
  fix: string;
}

export async function call<T>(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/setup/${path}`, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new SetupError(0, 'The server could not be reached. Check that it is running and try again.');
  }
  const data = (await res.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string[]> } & T;
  if (!res.ok) throw new SetupError(res.status, data.message ?? `Request failed (${res.status}).`, data.errors ?? {});
  return data;
}

/** Uploads a logo image; answers the path it is served at. */
export async function uploadLogo(file: File): Promise<string> {
  const form = new FormData();
  form.append('logo', file);
  let res: Response;
  try {
    res = await fetch('/api/setup/logo', { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' }, body: form });
  } catch {
    throw new SetupError(0, 'The server could not be reached. Check that it is running and try again.');
  }
  const data = (await res.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string[]>; data?: { url: string } };
  if (!res.ok || !data.data) throw new SetupError(res.status, data.message ?? `Upload failed (${res.status}).`, data.errors ?? {});
  return data.data.url;
}
