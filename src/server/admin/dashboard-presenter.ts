import { avatarUrls } from '../users/presenter.ts';
import type { AccountCounts, NewestAccount } from './dashboard-queries.ts';

export type DashboardWarning =
  | { code: 'mail_log' }
  | { code: 'disk_low'; free: number; total: number }
  | { code: 'job_failed'; job: string; error: string; at: string }
  | { code: 'defaults'; fields: string[]; app_url: string }
  | { code: 'bot_check_secret'; at: string };

/** What the service gathered for the dashboard; the presenter only shapes it. */
export interface DashboardFigures {
  accounts: AccountCounts;
  files: { bytes: number; createdSince: number };
  shares: number;
  newest: NewestAccount[];
  disk: { total: number; free: number } | null;
  version: string;
  database: string;
  node: string;
  mailDriver: string;
  warnings: DashboardWarning[];
}

/** The dashboard's response body, as GET /api/admin/dashboard answers it. */
export function presentDashboard(f: DashboardFigures) {
  return {
    data: {
      users: f.accounts.users,
      admins: f.accounts.admins,
      verified: f.accounts.verified,
      new_this_week: f.accounts.newSince,
      storage: { used: f.files.bytes, disk_total: f.disk?.total ?? null, disk_free: f.disk?.free ?? null },
      uploads_today: f.files.createdSince,
      shares: f.shares,
      version: f.version,
      database: f.database,
      node: f.node,
      mail_driver: f.mailDriver,
      warnings: f.warnings,
      newest: f.newest.map((u) => ({ id: u.id, name: u.name, email: u.email, color: u.color, role: u.role, created_at: u.created_at, avatar: avatarUrls(u) })),
    },
  };
}
