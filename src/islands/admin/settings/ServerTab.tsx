import { useEffect, useState } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { api } from '../../../stores/api.ts';
import { formatDateTime } from '../../../stores/dates.ts';
import { formatSize } from '../../../stores/files.ts';
import { useT, type Translate } from '../../../stores/i18n.ts';
import { formatDuration } from './duration.ts';
import { FsckCard } from './FsckCard.tsx';

interface JobStatus {
  name: string;
  state: 'running' | 'ok' | 'failed';
  last_started_at: string | null;
  last_finished_at: string | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_error_at: string | null;
  runs: number;
  failures: number;
}

interface ServerReport {
  node: string;
  database: { kind: 'sqlite' | 'postgres'; version: string };
  data_dir: { path: string; free_bytes: number | null; total_bytes: number | null };
  storage_driver: string;
  mail_driver: string;
  jobs: JobStatus[];
}

/** The settings screen's server tab: what the instance runs on, its background jobs and the storage check. */
export default function ServerTab() {
  const t = useT();
  const [report, setReport] = useState<ServerReport | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api
      .get<{ data: ServerReport }>('/api/admin/settings/server')
      .then((res) => setReport(res.data))
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, []);

  if (error) return <p className="notice-danger">{error}</p>;
  if (!report) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label={t('app.loading')} />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <SystemCard report={report} />
      <JobsCard jobs={report.jobs} />
      <FsckCard />
    </div>
  );
}

function SystemCard({ report }: { report: ServerReport }) {
  const t = useT();
  const { free_bytes: free, total_bytes: total } = report.data_dir;
  const usedShare = free !== null && total ? Math.round(((total - free) / total) * 100) : null;
  return (
    <section className="card" aria-labelledby="server-system">
      <h2 id="server-system" className="border-b border-border px-6 py-4 text-lg font-bold">
        {t('admin_settings.server_system_title')}
      </h2>
      <dl className="grid gap-x-6 gap-y-5 p-6 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Fact label="Node.js" value={report.node} />
        <Fact label={t('admin_settings.server_database')} value={`${report.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'} ${report.database.version}`} />
        <Fact label={t('admin_settings.server_storage_driver')} value={driverName(t, report.storage_driver)} />
        <Fact label={t('admin_settings.server_mail_driver')} value={driverName(t, report.mail_driver)} />
        <div className="sm:col-span-2">
          <dt className="text-muted">{t('admin_settings.server_data_dir')}</dt>
          <dd className="mt-1 font-mono text-[13px] font-semibold break-all">{report.data_dir.path}</dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin_settings.server_free_disk')}</dt>
          <dd className="mt-1 font-semibold">
            {free !== null && total ? t('admin_settings.server_free_of', { free: formatSize(free), total: formatSize(total) }) : t('admin_settings.server_unknown')}
          </dd>
          {usedShare !== null && (
            <dd className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-2" aria-hidden>
              <span className={`block h-full rounded-full ${usedShare >= 90 ? 'bg-danger' : 'bg-brand'}`} style={{ width: `${usedShare}%` }} />
            </dd>
          )}
        </div>
      </dl>
    </section>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className="mt-1 font-semibold">{value}</dd>
    </div>
  );
}

/** Drivers and job names have translated names where we know them; anything else shows as it is. */
function named(t: Translate, key: string, fallback: string): string {
  const text = t(key);
  return text === key ? fallback : text;
}
const driverName = (t: Translate, driver: string) => named(t, `admin_settings.server_driver_${driver}`, driver);
const jobName = (t: Translate, name: string) => named(t, `admin_settings.server_job_${name.replace(/\W+/g, '_')}`, name);

function JobsCard({ jobs }: { jobs: JobStatus[] }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="server-jobs">
      <div className="border-b border-border px-6 py-4">
        <h2 id="server-jobs" className="text-lg font-bold">
          {t('admin_settings.server_jobs_title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('admin_settings.server_jobs_text')}</p>
      </div>
      {jobs.length === 0 ? (
        <p className="px-6 py-10 text-center text-sm text-muted">{t('admin_settings.server_jobs_empty')}</p>
      ) : (
        <ul className="divide-y divide-border">
          {jobs.map((job) => (
            <li key={job.name} className="px-6 py-4" data-testid="job">
              <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
                <p className="font-semibold">{jobName(t, job.name)}</p>
                <JobState state={job.state} />
              </div>
              <p className="mt-1 text-sm text-muted">
                {job.last_started_at ? t('admin_settings.server_job_last_run', { date: formatDateTime(job.last_started_at) }) : t('admin_settings.server_job_never')}
                {job.last_duration_ms !== null && ` · ${t('admin_settings.server_job_duration', { duration: formatDuration(job.last_duration_ms) })}`}
                {` · ${t('admin_settings.server_job_counts', { runs: job.runs, failures: job.failures })}`}
              </p>
              {job.last_error && job.last_error_at && (
                <div className={`mt-2 text-sm ${job.state === 'failed' ? 'notice-danger' : 'notice border-border bg-surface-2 text-muted'}`}>
                  <p className="font-semibold">{t('admin_settings.server_job_last_failure', { date: formatDateTime(job.last_error_at) })}</p>
                  <p className="mt-0.5 font-mono text-[13px] break-words">{job.last_error}</p>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function JobState({ state }: { state: JobStatus['state'] }) {
  const t = useT();
  const styles = { ok: 'bg-success/10 text-success-text', failed: 'bg-danger/10 text-danger-text', running: 'bg-brand-soft text-brand' } as const;
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${styles[state]}`}>{t(`admin_settings.server_job_state_${state}`)}</span>;
}
