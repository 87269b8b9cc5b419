import { statfs } from 'node:fs/promises';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { jobStatuses } from '../jobs/status.ts';
import { getSettings, SETTING_DEFAULTS, type Settings } from '../settings/service.ts';
import { requireAdmin } from './guard.ts';
import { countAccounts, countShares, fileTotals, newestAccounts } from './dashboard-queries.ts';
import { presentDashboard, type DashboardWarning } from './dashboard-presenter.ts';
import pkg from '../../../package.json' with { type: 'json' };

export type { DashboardWarning } from './dashboard-presenter.ts';

/** Below this share of the data disk free, or this many bytes, the dashboard warns. */
export const DISK_LOW_FRACTION = 0.1;
export const DISK_LOW_BYTES = 2 * 1024 ** 3;

const DAY_MS = 24 * 60 * 60 * 1000;
const NEWEST_ACCOUNTS = 5;

type Disk = { total: number; free: number } | null;

/** Figures for the admin dashboard, straight from the database and the data disk. */
export async function getDashboard(ctx: AppContext, user: User) {
  requireAdmin(user);
  const now = ctx.clock.now();
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  const [accounts, files, shares, newest, settings, disk, jobs] = await Promise.all([
    countAccounts(ctx.db, weekAgo),
    fileTotals(ctx.db, today),
    countShares(ctx.db),
    newestAccounts(ctx.db, NEWEST_ACCOUNTS),
    getSettings(ctx),
    diskOf(ctx.config.dataDir),
    jobStatuses(ctx),
  ]);
  const mailDriver = settings.mail?.driver ?? ctx.config.mail.driver;
  return presentDashboard({
    accounts,
    files,
    shares,
    newest,
    disk,
    version: pkg.version,
    database: ctx.config.database.dialect,
    node: process.versions.node,
    mailDriver,
    warnings: warningsFor(ctx, settings, mailDriver, disk, jobs),
  });
}

/** What the admin should look at: mail only logged, a nearly full disk, failed jobs, defaults left unchanged. */
function warningsFor(ctx: AppContext, settings: Settings, mailDriver: string, disk: Disk, jobs: Awaited<ReturnType<typeof jobStatuses>>) {
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
  if (defaults.length) warnings.push({ code: 'defaults', fields: defaults, app_url: ctx.config.appUrl.origin });
  if (settings.allowed_recaptcha && settings.recaptcha_secret_refused_at) warnings.push({ code: 'bot_check_secret', at: settings.recaptcha_secret_refused_at });
  return warnings;
}

async function diskOf(dir: string): Promise<Disk> {
  try {
    const stats = await statfs(dir);
    return { total: stats.blocks * stats.bsize, free: stats.bavail * stats.bsize };
  } catch {
    return null;
  }
}
