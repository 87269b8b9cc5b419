import { useStore } from '@nanostores/react';
import { HardDrive } from 'lucide-react';
import { useEffect } from 'react';
import { $config } from '../../stores/config.ts';
import { formatSize } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { $storageUsage, loadStorageUsage, SEGMENT_FILL, storageBar, type StorageBar } from '../../stores/storage.ts';

/**
 * The file area's storage meter: used of the user's capacity as a slim bar (the storage screen's
 * segments), or "used · no limit"; the whole meter links to the storage settings. The figures come
 * from the shared usage store, refreshed after uploads and deletes. `panel` stacks it for the
 * navigation panel; `row` is one line of fixed height for the phone's places, so nothing below moves.
 */
export function StorageMeter({ layout }: { layout: 'panel' | 'row' }) {
  const t = useT();
  const state = useStore($storageUsage);
  const config = useStore($config);
  useEffect(() => void loadStorageUsage(), []);

  const bar = state.status === 'ready' ? storageBar(state.usage, config?.subscriptionType ?? 'none', 2) : null;
  const usage = !bar
    ? state.status === 'error'
      ? t('storage.load_failed')
      : null
    : bar.limited
      ? t('storage.meter_used_of', { used: formatSize(bar.used), capacity: formatSize(bar.capacity) })
      : `${t('storage.meter_used', { used: formatSize(bar.used) })} · ${t('storage.unlimited')}`;
  const over = !!bar && bar.limited && bar.percentage > 100;
  const text = (
    <span className={`truncate text-xs tabular-nums ${over ? 'font-semibold text-danger' : 'text-muted'}`} data-testid="storage-meter-text">
      {usage ?? <span className="inline-block h-3 w-28 animate-pulse rounded bg-surface-2 align-middle" aria-label={t('app.loading')} role="img" />}
    </span>
  );

  if (layout === 'row') {
    return (
      <a href="/user/settings/storage" data-testid="storage-meter" className="flex h-9 items-center gap-2.5 rounded-control border border-border px-3 hover:bg-surface-2">
        <HardDrive className="size-4 shrink-0 text-muted" aria-hidden />
        <span className="sr-only">{t('storage.title')}: </span>
        <span className="flex min-w-0 flex-1">{text}</span>
        {(!bar || bar.limited) && <Track bar={bar} className="w-24 shrink-0" />}
      </a>
    );
  }
  return (
    <a href="/user/settings/storage" data-testid="storage-meter" className="flex flex-col gap-2 rounded-lg px-2 py-2 hover:bg-surface-2">
      <span className="flex items-center gap-2 text-xs font-semibold tracking-wide text-muted uppercase">
        <HardDrive className="size-3.5" aria-hidden />
        {t('storage.title')}
      </span>
      {(!bar || bar.limited) && <Track bar={bar} />}
      {text}
    </a>
  );
}

/** The slim bar: the storage screen's segments over the track; a pulsing track while loading. */
function Track({ bar, className = '' }: { bar: StorageBar | null; className?: string }) {
  return (
    <span className={`flex h-1.5 gap-px overflow-hidden rounded-full bg-border ${bar ? '' : 'animate-pulse'} ${className}`} data-testid="storage-meter-bar" aria-hidden>
      {bar?.segments.map((s) => <span key={s.key} data-segment={s.key} className={`h-full ${SEGMENT_FILL[s.key]}`} style={{ width: `${s.width}%` }} />)}
    </span>
  );
}
