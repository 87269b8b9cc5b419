import { statfs } from 'node:fs/promises';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { jobStatuses } from '../jobs/status.ts';
import { getSettings, SETTING_DEFAULTS } from '../settings/service.ts';
import { avatarUrls } from '../users/presenter.ts';
import { requireAdmin } from './guard.ts';
import pkg from '../../../package.json' with { type: 'json' };

/** Below this share of the data disk free, or this many bytes, the dashboard warns. */
export const DISK_LOW_FRACTION = 0.1;
export const DISK_LOW_BYTES = 2 * 1024 ** 3;

export type DashboardWarning =
  | { code: 'mail_log' }
  | { code: 'disk_low'; free: number; total: number }
  | { code: 'job_failed'; job: string; error: string; at: string }
  | { code: 'defaults'; fields: string[] };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Figures for the admin dashboard, straight from the database and the data disk. */
export async function getDashboard(ctx: AppContext, user: User) {
  requireAdmin(user);
  const now = ctx.clock.now();
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  const [counts, files, shares, newest, settings, disk, jobs] = await Promise.all([
    ctx.db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<string | number>().as('users'),
        eb.fn.sum<string | number | null>(eb.case().when('role', '=', 'admin').then(1).else(0).end()).as('admins'),
        eb.fn.sum<string | number | null>(eb.case().when('email_verified_at', 'is not', null).then(1).else(0).end()).as('verified'),
        eb.fn.sum<string | number | null>(eb.case().when('created_at', '>=', weekAgo).then(1).else(0).end()).as('new_this_week'),
      ])
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('items')
      .where('type', '!=', 'folder')
      .select((eb) => [
        eb.fn.sum<string | number | null>('size').as('bytes'),
        eb.fn.sum<string | number | null>(eb.case().when('created_at', '>=', today).then(1).else(0).end()).as('uploads_today'),
      ])
      .executeTakeFirstOrThrow(),
    ctx.db.selectFrom('shares').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    ctx.db.selectFrom('users').select(['id', 'name', 'email', 'color', 'avatar_key', 'role', 'created_at']).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(5).execute(),
    getSettings(ctx),
    diskOf(ctx.config.dataDir),
    jobStatuses(ctx),
  ]);

  const mailDriver = settings.mail?.driver ?? ctx.config.mail.driver;
  const warnings: DashboardWarning[] = [];
  if (mailDriver === 'log') warnings.push({ code: 'mail_log' });
  if (disk && (disk.free < disk.total * DISK_LOW_FRACTION || disk.free < DISK_LOW_BYTES)) warnings.push({ code: 'disk_low', free: disk.free, total: disk.total });
  for (const job of jobs) {
    if (job.state === 'failed') warnings.push({ code: 'job_failed', job: job.name, error: job.last_error ?? '', at: job.last_error_at ?? '' });
  }
  const defaults = [
    settings.app_name === SETTING_DEFAULTS.app_name ? 'app_name' : null,
    ctx.config.appUrl.hostname === 'localhost' || ctx.config.appUrl.hostname === '127.0.0.1' ? 'app_url' : null,
  ].filter((f): f is string => f !== null);
  if (defaults.length) warnings.push({ code: 'defaults', fields: defaults });

  return {
    data: {
      users: Number(counts.users),
      admins: Number(counts.admins ?? 0),
      verified: Number(counts.verified ?? 0),
      new_this_week: Number(counts.new_this_week ?? 0),
      storage: { used: Number(files.bytes ?? 0), disk_total: disk?.total ?? null, disk_free: disk?.free ?? null },
      uploads_today: Number(files.uploads_today ?? 0),
      shares: Number(shares.n),
      version: pkg.version,
      database: ctx.config.database.dialect,
      node: process.versions.node,
      mail_driver: mailDriver,
      warnings,
      newest: newest.map((u) => ({ id: u.id, name: u.name, email: u.email, color: u.color, role: u.role, created_at: u.created_at, avatar: avatarUrls(u) })),
    },
  };
}

async function diskOf(dir: string): Promise<{ total: number; free: number } | null> {
  try {
    const stats = await statfs(dir);
    return { total: stats.blocks * stats.bsize, free: stats.bavail * stats.bsize };
  } catch {
    return null;
  }
}
