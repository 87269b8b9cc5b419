/**
 * The wizard's own small client: same-origin, the setup-token cookie, X-Requested-With. Unlike the
 * app's client it never sends anyone to sign-in: there is no account yet.
 */
import { ApiError } from '../../stores/api.ts';
import type { Check } from '../../server/setup/checks.ts';

export type { Check };

export const STEPS = ['status-check', 'purchase-code', 'database', 'environment', 'app-setup', 'admin-setup'] as const;
export type Step = (typeof STEPS)[number];

export interface SetupState {
  completed: Step[];
  values: Partial<Record<Step, Record<string, unknown>>>;
  next: Step;
  database: { dialect: 'sqlite' | 'postgres'; fromEnvironment: boolean };
}

const UNREACHABLE = 'The server could not be reached. Check that it is running and try again.';

/** One request to the wizard's API; `{ message, errors }` answers become ApiError (status 0: no answer). */
async function send<T>(path: string, init: RequestInit): Promise<{ message?: string; errors?: Record<string, string[]> } & T> {
  let res: Response;
  try {
    res = await fetch(`/api/setup/${path}`, { credentials: 'same-origin', ...init, headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...init.headers } });
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
  const data = (await res.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string[]> } & T;
  if (!res.ok) throw new ApiError(res.status, data.message ?? `Request failed (${res.status}).`, data.errors ?? {});
  return data;
}

export function call<T>(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<T> {
  return send<T>(path, { method, ...(body ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {}) });
}

/** Uploads a logo image; answers the path it is served at. */
export async function uploadLogo(file: File): Promise<string> {
  const form = new FormData();
  form.append('logo', file);
  const data = await send<{ data?: { url: string } }>('logo', { method: 'POST', body: form });
  if (!data.data) throw new ApiError(500, data.message ?? 'The upload did not answer a logo address.');
  return data.data.url;
}
