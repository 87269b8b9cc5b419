import { useState } from 'react';
import { api } from '../../../stores/api.ts';
import { formatDateTime } from '../../../stores/dates.ts';
import { formatSize } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { formatDuration } from './duration.ts';

interface FsckReport {
  blobs: number;
  bytes: number;
  referenced: number;
  orphans: number;
  orphanBytes: number;
  recent: number;
  unknown: number;
  references: number;
  missing: number;
  orphan_list: { key: string; size: number; modified_at: string }[];
  missing_list: { kind: string; id: string; key: string }[];
  checked_at: string;
  duration_ms: number;
}

/** The storage check (`npm run fsck`), run on demand: it reads the whole blob store, so never on page load. */
export function FsckCard() {
  const t = useT();
  const [report, setReport] = useState<FsckReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const run = async () => {
    setBusy(true);
    setError('');
    try {
      setReport((await api.post<{ data: FsckReport }>('/api/admin/settings/server/fsck')).data);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const clean = report && report.orphans === 0 && report.missing === 0;
  return (
    <section className="card" aria-labelledby="server-fsck" aria-busy={busy}>
      <div className="flex flex-wrap items-start justify-between gap-4 border-b border-border px-6 py-4">
        <div className="min-w-0 flex-1 basis-64">
          <h2 id="server-fsck" className="text-lg font-bold">
            {t('admin_settings.server_fsck_title')}
          </h2>
          <p className="mt-1 text-sm text-muted">{t('admin_settings.server_fsck_text')}</p>
        </div>
        <button type="button" className="btn-secondary" disabled={busy} onClick={() => void run()}>
          {busy && <span className="size-4 animate-spin rounded-full border-2 border-border border-t-brand" aria-hidden />}
          {busy ? t('admin_settings.server_fsck_running') : report ? t('admin_settings.server_fsck_again') : t('admin_settings.server_fsck_run')}
        </button>
      </div>
      <div className="p-6" aria-live="polite">
        {error && <p className="notice-danger">{error}</p>}
        {!report && !error && <p className="text-sm text-muted">{t('admin_settings.server_fsck_idle')}</p>}
        {report && (
          <div className="flex flex-col gap-5" data-testid="fsck-report">
            <p className={clean ? 'notice-success' : 'notice-danger'}>{clean ? t('admin_settings.server_fsck_clean') : t('admin_settings.server_fsck_problems', { orphans: report.orphans, missing: report.missing })}</p>
            <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
              <Count label={t('admin_settings.server_fsck_blobs')} value={`${report.blobs} · ${formatSize(report.bytes)}`} />
              <Count label={t('admin_settings.server_fsck_referenced')} value={String(report.referenced)} />
              <Count label={t('admin_settings.server_fsck_orphans')} value={`${report.orphans} · ${formatSize(report.orphanBytes)}`} />
              <Count label={t('admin_settings.server_fsck_missing')} value={String(report.missing)} />
              <Count label={t('admin_settings.server_fsck_recent')} value={String(report.recent)} />
              <Count label={t('admin_settings.server_fsck_unknown')} value={String(report.unknown)} />
              <Count label={t('admin_settings.server_fsck_references')} value={String(report.references)} />
            </dl>
            {report.orphan_list.length > 0 && (
              <KeyList title={t('admin_settings.server_fsck_orphan_list', { shown: report.orphan_list.length, total: report.orphans })} rows={report.orphan_list.map((o) => [o.key, `${formatSize(o.size)} · ${formatDateTime(o.modified_at)}`])} />
            )}
            {report.missing_list.length > 0 && (
              <KeyList title={t('admin_settings.server_fsck_missing_list', { shown: report.missing_list.length, total: report.missing })} rows={report.missing_list.map((m) => [m.key, `${m.kind} ${m.id}`])} />
            )}
            {!clean && <p className="text-sm text-muted">{t('admin_settings.server_fsck_repair_hint')}</p>}
            <p className="text-xs text-muted">{t('admin_settings.server_fsck_checked', { date: formatDateTime(report.checked_at), duration: formatDuration(report.duration_ms) })}</p>
          </div>
        )}
      </div>
    </section>
  );
}

function Count({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className="mt-1 font-semibold">{value}</dd>
    </div>
  );
}

function KeyList({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold">{title}</h3>
      {/* Focusable, so the list scrolls from the keyboard too. */}
      <ul tabIndex={0} aria-label={title} className="max-h-64 divide-y divide-border overflow-auto rounded-control border border-border text-[13px]">
        {rows.map(([key, detail]) => (
          <li key={key} className="flex flex-wrap justify-between gap-x-4 px-3 py-2">
            <span className="font-mono break-all">{key}</span>
            <span className="text-muted">{detail}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
