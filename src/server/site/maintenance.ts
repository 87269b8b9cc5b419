import type { IncomingMessage } from 'node:http';
import type { User } from '../auth/sessions.ts';
import { identify, viewOfNode } from '../auth/principal.ts';
import { installationState } from '../setup/state.ts';
import type { AppContext } from '../context.ts';
import { getSettings, type Settings } from '../settings/service.ts';

/** Paths a visitor still reaches in maintenance mode: the notice itself and the way for an admin to sign in. */
const OPEN_PATHS = new Set(['/temporary-unavailable', '/sign-in', '/login', '/logout', '/404']);

/**
 * Maintenance mode: every non-admin route answers 503 with Retry-After; admins get in. The admin
 * area's own paths keep their guard (a non-admin there is sent to sign-in, not to the notice).
 */
export async function maintenanceFor(
  ctx: AppContext,
  pathname: string,
  user: User | null,
  read: () => Promise<Settings> = () => getSettings(ctx),
): Promise<{ retryAfter: number } | null> {
  if (user?.role === 'admin' || OPEN_PATHS.has(pathname) || /^\/(admin|api\/admin)(\/|$)/.test(pathname)) return null;
  const settings = await read();
  if (!settings.maintenance_mode) return null;
  return { retryAfter: Math.max(1, Math.round(settings.maintenance_retry_after_seconds)) };
}

// The data plane serves many small requests (thumbnails, file parts): the maintenance switch is read
// at most once a second per process there.
const recent = new WeakMap<AppContext, { at: number; settings: { on: boolean; retryAfter: number } }>();

async function maintenanceSwitch(ctx: AppContext): Promise<{ on: boolean; retryAfter: number }> {
  const now = Date.now();
  const cached = recent.get(ctx);
  if (cached && now - cached.at < 1000) return cached.settings;
  const s = await getSettings(ctx);
  const settings = { on: s.maintenance_mode, retryAfter: Math.max(1, Math.round(s.maintenance_retry_after_seconds)) };
  recent.set(ctx, { at: now, settings });
  return settings;
}

/**
 * The same rules for the data plane (uploads, downloads, thumbnails, zips), which never reaches the
 * Astro middleware: nothing before installation, and only admins during maintenance.
 */
export async function dataPlaneRefusal(ctx: AppContext, req: IncomingMessage): Promise<{ status: number; body: object; headers: Record<string, string> } | null> {
  if ((await installationState(ctx)) === 'installation-needed') {
    return { status: 503, body: { message: 'This instance is not installed yet: finish the setup wizard first.', code: 'installation_needed' }, headers: {} };
  }
  const maintenance = await maintenanceSwitch(ctx);
  if (!maintenance.on) return null;
  const identity = await identify(ctx, viewOfNode(req)).catch(() => null);
  if (identity?.principal?.user.role === 'admin') return null;
  return { status: 503, body: { message: 'The service is temporarily unavailable for maintenance.', code: 'maintenance' }, headers: { 'Retry-After': String(maintenance.retryAfter) } };
}
