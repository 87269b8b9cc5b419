import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { getSettings } from '../settings/service.ts';

/** Paths a visitor still reaches in maintenance mode: the notice itself and the way for an admin to sign in. */
const OPEN_PATHS = new Set(['/temporary-unavailable', '/sign-in', '/login', '/logout', '/404']);

/**
 * Maintenance mode: every non-admin route answers 503 with Retry-After; admins get in. The admin
 * area's own paths keep their guard (a non-admin there is sent to sign-in, not to the notice).
 */
export async function maintenanceFor(ctx: AppContext, pathname: string, user: User | null): Promise<{ retryAfter: number } | null> {
  if (user?.role === 'admin' || OPEN_PATHS.has(pathname) || /^\/(admin|api\/admin)(\/|$)/.test(pathname)) return null;
  const settings = await getSettings(ctx);
  if (!settings.maintenance_mode) return null;
  return { retryAfter: Math.max(1, Math.round(settings.maintenance_retry_after_seconds)) };
}
