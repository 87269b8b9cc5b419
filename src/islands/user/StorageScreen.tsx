import { useStore } from '@nanostores/react';
import { HardDrive, RotateCw } from 'lucide-react';
import { useEffect } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { $config } from '../../stores/config.ts';
import { formatSize } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { $storageUsage, formatPercent, loadStorageUsage, SEGMENT_FILL, storageBar, type StorageEntry, type StorageUsage } from '../../stores/storage.ts';
import { SettingsNav } from './SettingsNav.tsx';

const DOT: Record<StorageEntry['key'], string> = { ...SEGMENT_FILL, empty: 'border-2 border-border bg-surface-2' };

/** /user/settings/storage (SPEC §3 storage usage, §9 bar colours): used against capacity, by kind. */
export default function StorageScreen() {
  const t = useT();
  useTitle(t('storage.title'));
  const state = useStore($storageUsage);
  const load = () => void loadStorageUsage({ spinner: true });
  useEffect(load, []);

  return (
    <div>
      <PageHeader title={t('storage.title')} subtitle={t('storage.subtitle')} />
      <SettingsNav />
      {state.status === 'loading' && (
        <div className="card flex justify-center py-16">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {state.status === 'error' && (
        <div className="card flex flex-col items-start gap-4 p-6">
          <p role="alert" className="notice-danger w-full">
            {t('storage.load_failed')}
          </p>
          <button type="button" className="btn-secondary" onClick={load}>
            <RotateCw className="size-4" aria-hidden />
            {t('storage.retry')}
          </button>
        </div>
      )}
      {state.status === 'ready' && <Usage usage={state.usage} />}
    </div>
  );
}

function Usage({ usage }: { usage: StorageUsage }) {
  const t = useT();
  const config = useStore($config);
  const bar = storageBar(usage, config?.subscriptionType ?? 'none');
  const locale = typeof document === 'undefined' ? undefined : document.documentElement.lang || undefined;
  const percent = (value: number) => formatPercent(value, locale);
  const label = (key: StorageEntry['key']) => t(`storage.${key}`);

  return (
    <div className="flex flex-col gap-6">
      <section className="card p-6" aria-labelledby="storage-total">
        <div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3">
          <div className="flex items-center gap-4">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-soft text-brand">
              <HardDrive className="size-6" aria-hidden />
            </span>
            <div>
              <p id="storage-total" className="text-2xl font-bold tracking-tight tabular-nums" data-testid="storage-used">
                {formatSize(bar.used)}
              </p>
              <p className="text-sm text-muted">{bar.limited ? t('storage.of_capacity', { capacity: formatSize(bar.capacity) }) : t('storage.unlimited')}</p>
            </div>
          </div>
          {bar.limited && (
            <div className="text-left sm:text-right">
              <p className="font-semibold tabular-nums">{t('storage.used_percent', { percent: percent(bar.percentage) })}</p>
              <p className="text-sm text-muted tabular-nums">{t('storage.free', { free: formatSize(bar.free) })}</p>
            </div>
          )}
        </div>
        <div
          role="meter"
          aria-label={t('storage.bar_label')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.min(100, Math.round(bar.percentage * 10) / 10)}
          aria-valuetext={bar.limited ? `${formatSize(bar.used)} ${t('storage.of_capacity', { capacity: formatSize(bar.capacity) })}` : formatSize(bar.used)}
          className="mt-6 flex h-3 gap-0.5 overflow-hidden rounded-full bg-surface-2"
          data-testid="storage-bar"
        >
          {bar.segments.map((s) => (
            <span key={s.key} data-segment={s.key} className={`h-full first:rounded-l-full last:rounded-r-full ${SEGMENT_FILL[s.key]}`} style={{ width: `${s.width}%` }} />
          ))}
        </div>
        {bar.limited && bar.percentage > 100 && (
          <p role="alert" className="notice-danger mt-4">
            {t('storage.over_limit')}
          </p>
        )}
      </section>

      <section className="card p-6">
        <h2 className="mb-3 text-lg font-bold">{t('storage.breakdown')}</h2>
        <ul className="divide-y divide-border" data-testid="storage-legend">
          {bar.entries.map((e) => (
            <li key={e.key} className="flex items-center gap-3 py-3" data-category={e.key}>
              <span className={`size-3 shrink-0 rounded-full ${DOT[e.key]}`} aria-hidden />
              <span className="flex-1 font-medium">{label(e.key)}</span>
              <span className="text-sm text-muted tabular-nums">{formatSize(e.bytes)}</span>
              <span className="w-16 text-right text-sm font-semibold tabular-nums">{percent(e.percentage)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-muted">{t('storage.trash_note')}</p>
      </section>
    </div>
  );
}
