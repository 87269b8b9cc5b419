import { useEffect, useState } from 'react';
import { Avatar } from '../../components/Avatar.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { api } from '../../stores/api.ts';
import { useT } from '../../stores/i18n.ts';

interface Dashboard {
  users: number;
  admins: number;
  verified: number;
  version: string;
  database: string;
  node: string;
  newest: { id: string; name: string; email: string; color: string; role: string; created_at: string; avatar: { xs: string; sm: string; md: string } | null }[];
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
          <div className="grid gap-4 sm:grid-cols-3">
            <Stat label={t('admin.users')} value={String(data.users)} />
            <Stat label={t('admin.admins')} value={String(data.admins)} />
            <Stat label={t('admin.verified')} value={String(data.verified)} />
          </div>
          <section className="card">
            <h2 className="border-b border-border px-6 py-4 text-lg font-bold">{t('admin.newest')}</h2>
            <ul className="divide-y divide-border">
              {data.newest.map((u) => (
                <li key={u.id} className="flex items-center gap-3 px-6 py-3">
                  <Avatar size={32} name={u.name} email={u.email} color={u.color} avatar={u.avatar} />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-semibold">{u.name}</p>
                    <p className="truncate text-sm text-muted">{u.email}</p>
                  </div>
                  {u.role === 'admin' && <span className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-semibold text-brand">{t('admin.role_admin')}</span>}
                </li>
              ))}
            </ul>
          </section>
          <dl className="card grid gap-4 p-6 text-sm sm:grid-cols-3">
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
          </dl>
        </div>
      )}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="card p-5">
      <p className="text-sm text-muted">{label}</p>
      <p className="mt-1 text-3xl font-bold tracking-tight">{value}</p>
    </div>
  );
}
