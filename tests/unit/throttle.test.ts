import { describe, expect, it } from 'vitest';
import { delayAfter } from '../../src/server/auth/throttle.ts';

describe('delayAfter', () => {
  const limit = { free: 5, baseMs: 30_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 };

  it('lets the free attempts through, then doubles the wait from the base up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => delayAfter(limit, n))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9].map((n) => delayAfter(limit, n))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(delayAfter(limit, 10)).toBe(15 * 60_000);
    expect(delayAfter(limit, 10_000)).toBe(15 * 60_000);
  });
});
