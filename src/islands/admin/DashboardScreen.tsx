import { AlertTriangle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Avatar } from '../../components/Avatar.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { api } from '../../stores/api.ts';
import { formatDate } from '../../stores/dates.ts';
import { formatSize } from '../../stores/files.ts';
import { useT, type Translate } from '../../stores/i18n.ts';
import { AuditLog } from './AuditLog.tsx';

type Warning =
  | { code: 'mail_log' }
  | { code: 'disk_low'; free: number; total: number }
  | { code: 'job_failed'; job: string; error: string; at: string }
  | { code: 'defaults'; fields: string[]; app_url: string }
  | { code: 'bot_check_secret'; at: string };

interface Dashboard {
  users: number;
  admins: number;
  verified: number;
  new_this_week: number;
  storage: { used: number; disk_total: number | null; disk_free: number | null };
  uploads_today: number;
  shares: number;
  version: string;
  database: string;
  node: string;
  mail_driver: string;
  warnings: Warning[];
  newest: { id: string; name: string; email: string; color: string; role: string; created_at: string; avatar: { xs: string; sm: string; md: string } | null }[];
}

function warningTexts(t: Translate, w: Warning): { text: string; href?: string }[] {
  // Each default left says which it is: the name is changed in Appearance, the address only in the server's environment.
  if (w.code === 'defaults') {
    return w.fields.map((field) => (field === 'app_name' ? { text: t('admin.warning_default_name'), href: '/admin/settings/appearance' } : { text: t('admin.warning_default_address', { address: w.app_url }) }));
  }
  return [warningText(t, w)];
}

function warningText(t: Translate, w: Exclude<Warning, { code: 'defaults' }>): { text: string; href?: string } {
  switch (w.code) {
    case 'mail_log':
      return { text: t('admin.warning_mail_log'), href: '/admin/settings/environment' };
    case 'disk_low':
      return { text: t('admin.warning_disk_low', { free: formatSize(w.free), total: formatSize(w.total) }), href: '/admin/settings/server' };
    case 'bot_check_secret':
      return { text: t('admin.warning_bot_check_secret'), href: '/admin/settings/sign-in' };
    case 'job_failed':
      return { text: t('admin.warning_job_failed', { job: w.job, error: w.error }), href: '/admin/settings/server' };
  }
}

export default function DashboardScreen() {
  const t = useT();
  useTitle(t('admin.dashboard'));
  const [data, setData] = useState<Dashboard | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api
      .get<{ data: Dashboard }>('/api/admin/dashboard')
      .then((res) => setData(res.data))
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, []);

  const diskUsed = data?.storage.disk_total ? data.storage.disk_total - (data.storage.disk_free ?? 0) : null;

  return (
    <div>
      <PageHeader title={t('admin.dashboard')} subtitle={t('admin.dashboard_text')} />
      {error && <p className="notice-danger">{error}</p>}
      {!data && !error && (
        <div className="flex justify-center py-16">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {data && (
        <div className="flex flex-col gap-6">
          {data.warnings.length > 0 && (
            <ul className="flex flex-col gap-2" aria-label={t('admin.warnings')}>
              {data.warnings.flatMap((w) =>
                warningTexts(t, w).map(({ text, href }, index) => (
                  <li key={`${w.code === 'job_failed' ? `job-${w.job}` : w.code}-${index}`} className="notice-warning flex items-start gap-2.5">
                    <AlertTriangle size={18} aria-hidden className="mt-0.5 shrink-0" />
                    <span className="flex-1">{text}</span>
                    {href && <a href={href} className="shrink-0 font-semibold underline underline-offset-2">{t('admin.warning_fix')}</a>}
                  </li>
                )),
              )}
            </ul>
          )}
          <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            <Stat label={t('admin.users')} value={String(data.users)} hint={t('admin.new_this_week', { count: data.new_this_week })} />
            <div className="card p-5">
              <p className="text-sm text-muted">{t('admin.storage_used')}</p>
              <p className="mt-1 text-3xl font-bold tracking-tight">{formatSize(data.storage.used)}</p>
              {data.storage.disk_total !== null && diskUsed !== null && (
                <>
                  <div className="mt-3 h-1.5 overflow-hidden rounded-full bg-surface-2" role="img" aria-label={t('admin.disk_of', { used: formatSize(diskUsed), total: formatSize(data.storage.disk_total) })}>
                    <div className="h-full rounded-full bg-brand" style={{ width: `${Math.min(100, Math.round((diskUsed / data.storage.disk_total) * 100))}%` }} />
                  </div>
                  <p className="mt-1.5 text-xs text-muted">{t('admin.disk_of', { used: formatSize(diskUsed), total: formatSize(data.storage.disk_total) })}</p>
                </>
              )}
            </div>
            <Stat label={t('admin.uploads_today')} value={String(data.uploads_today)} />
            <Stat label={t('admin.shares')} value={String(data.shares)} />
          </div>
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
            <div className="flex flex-col gap-6">
              <section className="card" aria-labelledby="newest-title">
                <h2 id="newest-title" className="border-b border-border px-6 py-4 text-lg font-bold">{t('admin.newest')}</h2>
                <ul className="divide-y divide-border">
                  {data.newest.map((u) => (
                    <li key={u.id}>
                      <a href={`/admin/user/${u.id}`} className="flex items-center gap-3 px-6 py-3 hover:bg-surface-2">
                        <Avatar size={32} name={u.name} email={u.email} color={u.color} avatar={u.avatar} />
                        <div className="min-w-0 flex-1">
                          <p className="truncate font-semibold">{u.name}</p>
                          <p className="truncate text-sm text-muted">{u.email}</p>
                        </div>
                        <div className="flex shrink-0 flex-col items-end gap-1">
                          {u.role === 'admin' && <span className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-semibold text-brand">{t('admin.role_admin')}</span>}
                          <time className="text-xs text-muted" dateTime={u.created_at}>{formatDate(u.created_at)}</time>
                        </div>
                      </a>
                    </li>
                  ))}
                </ul>
              </section>
              <dl className="card grid grid-cols-2 gap-4 p-6 text-sm">
                <div>
                  <dt className="text-muted">{t('admin.version')}</dt>
                  <dd className="mt-1 font-semibold">{data.version}</dd>
                </div>
                <div>
                  <dt className="text-muted">{t('admin.database')}</dt>
                  <dd className="mt-1 font-semibold">{data.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}</dd>
                </div>
                <div>
                  <dt className="text-muted">Node.js</dt>
                  <dd className="mt-1 font-semibold">{data.node}</dd>
                </div>
                <div>
                  <dt className="text-muted">{t('admin.mail_driver')}</dt>
                  <dd className="mt-1 font-semibold">{data.mail_driver}</dd>
                </div>
              </dl>
            </div>
            <AuditLog />
          </div>
        </div>
      )}
    </div>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="card p-5">
      <p className="text-sm text-muted">{label}</p>
      <p className="mt-1 text-3xl font-bold tracking-tight">{value}</p>
      {hint && <p className="mt-1.5 text-xs text-muted">{hint}</p>}
    </div>
  );
}
