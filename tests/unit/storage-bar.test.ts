import { describe, expect, it } from 'vitest';
import { formatPercent, SEGMENT_FILL, storageBar, type StorageUsage } from '../../src/stores/storage.ts';

const GB = 1024 ** 3;
function usage(capacity: number, used: Partial<Record<keyof StorageUsage['meta'], number>>): StorageUsage {
  const meta = Object.fromEntries(['images', 'videos', 'audios', 'documents', 'others'].map((c) => [c, { used: used[c as keyof typeof used] ?? 0, percentage: 0 }]));
  const total = Object.values(used).reduce((a, b) => a + (b ?? 0), 0);
  return { attributes: { used: total, capacity, percentage: 0 }, meta: meta as StorageUsage['meta'] };
}
const widths = (bar: ReturnType<typeof storageBar>) => Object.fromEntries(bar.segments.map((s) => [s.key, s.width]));

describe('storageBar', () => {
  it('an empty account with a limit is one free segment over the whole bar, and a legend of zeros', () => {
    const bar = storageBar(usage(5 * GB, {}), 'none');
    expect(bar.limited).toBe(true);
    expect(bar.segments).toEqual([{ key: 'empty', width: 100 }]);
    expect(bar.entries.map((e) => [e.key, e.bytes, e.percentage])).toEqual([
      ['images', 0, 0], ['videos', 0, 0], ['audios', 0, 0], ['documents', 0, 0], ['others', 0, 0], ['empty', 5 * GB, 100],
    ]);
    expect(bar.free).toBe(5 * GB);
    expect(bar.percentage).toBe(0);
  });

  it('measures categories against the capacity and adds the free remainder (fixed plans and none with a limit)', () => {
    for (const type of ['fixed', 'none'] as const) {
      const bar = storageBar(usage(100, { images: 25, documents: 10 }), type);
      expect(widths(bar)).toEqual({ images: 25, documents: 10, empty: 65 });
      expect(bar.segments.reduce((s, x) => s + x.width, 0)).toBeCloseTo(100);
      expect(bar.percentage).toBe(35);
      expect(bar.free).toBe(65);
    }
  });

  it('metered plans and no limit have no empty segment: the categories share the bar', () => {
    expect(widths(storageBar(usage(100, { videos: 30, others: 10 }), 'metered'))).toEqual({ videos: 75, others: 25 });
    const unlimited = storageBar(usage(0, { audios: 5, images: 15 }), 'none');
    expect(unlimited.limited).toBe(false);
    expect(widths(unlimited)).toEqual({ images: 75, audios: 25 });
    expect(unlimited.entries.some((e) => e.key === 'empty')).toBe(false);
    expect(storageBar(usage(0, {}), 'none').segments).toEqual([]);
  });

  it('gives a sliver a visible minimum width, taken from the free space', () => {
    const bar = storageBar(usage(5 * GB, { images: 1024 }), 'fixed');
    expect(widths(bar)).toEqual({ images: 1, empty: 99 });
    expect(bar.entries[0]!.percentage).toBeLessThan(0.001);
  });

  it('over the limit the categories are scaled to fill the bar and nothing is free', () => {
    const bar = storageBar(usage(100, { images: 90, videos: 60 }), 'fixed');
    expect(widths(bar)).toEqual({ images: 60, videos: 40 });
    expect(bar.percentage).toBe(150);
    expect(bar.free).toBe(0);
  });

  it('uses the colours of SPEC §9', () => {
    expect(SEGMENT_FILL).toMatchObject({ images: 'bg-success', videos: 'bg-danger', audios: 'bg-warning', documents: 'bg-info', others: 'bg-purple' });
  });
});

describe('formatPercent', () => {
  it('rounds to one decimal, marks slivers and follows the locale', () => {
    expect(formatPercent(0, 'en')).toBe('0%');
    expect(formatPercent(12.345, 'en')).toBe('12.3%');
    expect(formatPercent(0.0001, 'en')).toBe('<0.1%');
    expect(formatPercent(100, 'en')).toBe('100%');
    expect(formatPercent(12.5, 'de')).toBe('12,5\u00a0%');
  });
});
