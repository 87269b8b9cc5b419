import { atom } from 'nanostores';
import { CATEGORIES, type Category } from '../server/files/categories.ts';
import { api } from './api.ts';

export { CATEGORIES, type Category };

/** The answer of GET /api/user/storage (src/server/files/storage.ts). */
export interface StorageUsage {
  attributes: { used: number; capacity: number; percentage: number };
  meta: Record<Category, { used: number; percentage: number }>;
}

/** The signed-in user's storage usage, shared by the storage screen and the file area's meter. */
export type UsageState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; usage: StorageUsage };
export const $storageUsage = atom<UsageState>({ status: 'loading' });
let loading: Promise<void> | null = null;
let loads = 0;

/**
 * Loads the usage, joining a load under way unless `again` (after an upload or a delete: the one
 * under way may have been answered before the change). The figures on screen stay until new ones
 * arrive, and a failed refresh keeps them; only a first load or `spinner` shows loading. When loads
 * overlap, the last one asked for wins.
 */
export function loadStorageUsage({ again = false, spinner = false } = {}): Promise<void> {
  if (loading && !again && !spinner) return loading;
  const mine = ++loads;
  if (spinner || $storageUsage.get().status !== 'ready') $storageUsage.set({ status: 'loading' });
  const load = api.get<{ data: StorageUsage }>('/api/user/storage').then(
    (res) => {
      if (mine === loads) $storageUsage.set({ status: 'ready', usage: res.data });
    },
    () => {
      if (mine === loads && $storageUsage.get().status !== 'ready') $storageUsage.set({ status: 'error' });
    },
  );
  loading = load.finally(() => {
    if (mine === loads) loading = null;
  });
  return loading;
}

/** After something that changes the bytes stored: loads the usage again if anything shows it. */
export function refreshStorageUsage(): void {
  if ($storageUsage.lc > 0) void loadStorageUsage({ again: true });
}

/**
 * The bar's fill per segment. SPEC §9: images success, videos danger, audios warning, documents
 * info, others purple; the free remainder shows the bar's track. Whole class names, for Tailwind.
 */
export const SEGMENT_FILL: Record<Category | 'empty', string> = {
  images: 'bg-success',
  videos: 'bg-danger',
  audios: 'bg-warning',
  documents: 'bg-info',
  others: 'bg-purple',
  empty: 'bg-transparent',
};

export interface StorageEntry {
  key: Category | 'empty';
  bytes: number;
  /** Share of the capacity (or of all used bytes without a limit), 0–100, unrounded. */
  percentage: number;
}

export interface StorageBar {
  /** Whether usage is measured against a limit (and so has free space). */
  limited: boolean;
  used: number;
  capacity: number;
  free: number;
  /** Used share of the capacity, 0–100 and more when over the limit; 0 without a limit. */
  percentage: number;
  /** Every category in order, then the free space when limited: for the legend. */
  entries: StorageEntry[];
  /** What the bar draws, widths in percent summing to at most 100: non-empty categories, then the free remainder. */
  segments: { key: Category | 'empty'; width: number }[];
}

/**
 * The storage bar and legend (SPEC §9). An empty segment for the free remainder is added for fixed
 * plans, or with no plans and a storage limit; metered plans have no capacity and the categories
 * share the whole bar. A category that holds anything gets at least `minWidth` percent so it shows.
 */
export function storageBar(usage: StorageUsage, subscriptionType: 'none' | 'fixed' | 'metered', minWidth = 1): StorageBar {
  const used = CATEGORIES.reduce((sum, c) => sum + Math.max(0, usage.meta[c]?.used ?? 0), 0);
  const capacity = Math.max(0, usage.attributes.capacity);
  const limited = capacity > 0 && subscriptionType !== 'metered';
  const base = limited ? capacity : used;
  const share = (bytes: number) => (base > 0 ? (bytes / base) * 100 : 0);
  const free = limited ? Math.max(0, capacity - used) : 0;

  const entries: StorageEntry[] = CATEGORIES.map((c) => {
    const bytes = Math.max(0, usage.meta[c]?.used ?? 0);
    return { key: c, bytes, percentage: share(bytes) };
  });
  if (limited) entries.push({ key: 'empty', bytes: free, percentage: share(free) });

  let segments = entries.filter((e) => e.key !== 'empty' && e.bytes > 0).map((e) => ({ key: e.key, width: Math.max(minWidth, e.percentage) }));
  const filled = segments.reduce((sum, s) => sum + s.width, 0);
  if (filled > 100) segments = segments.map((s) => ({ ...s, width: (s.width / filled) * 100 }));
  const rest = 100 - Math.min(100, filled);
  if (limited && rest > 0) segments.push({ key: 'empty', width: rest });

  return { limited, used, capacity, free, percentage: limited ? share(used) : 0, entries, segments };
}

/** A percentage for people: one decimal at most, "<0.1 %" for a sliver, in the page's locale. */
export function formatPercent(percent: number, locale?: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  if (percent > 0 && percent < 0.1) return `<${format.format(0.001)}`;
  return format.format(percent / 100);
}
