import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, dismissToast, toast, TOAST_LIFETIME_MS, TOAST_LIMIT, toastLift } from '../../src/stores/ui.ts';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    $toasts.set([]);
  });
  afterEach(() => vi.useRealTimers());

  it('keeps at most three, dropping the oldest, the newest last (drawn nearest the bottom edge)', () => {
    for (const n of [1, 2, 3, 4, 5]) toast('success', `toast ${n}`);
    expect($toasts.get().map((t) => t.message)).toEqual(['toast 3', 'toast 4', 'toast 5']);
    expect($toasts.get()).toHaveLength(TOAST_LIMIT);
  });

  it('answers an id the caller can take the toast back with, and each goes after its lifetime', () => {
    const started = toast('success', 'Importing 2 addresses…');
    toast('danger', 'Something else');
    dismissToast(started);
    expect($toasts.get().map((t) => t.message)).toEqual(['Something else']);
    vi.advanceTimersByTime(TOAST_LIFETIME_MS);
    expect($toasts.get()).toEqual([]);
  });
});

describe('where the toasts stack', () => {
  // A phone's column (390 wide, 16 px in from each side) and a desktop's (bottom right, 384 wide).
  const phone = { left: 16, right: 374 };
  const desktop = { left: 1032, right: 1416 };

  it('starts at the bottom edge when nothing is under the column', () => {
    expect(toastLift(phone, [], 844, 12)).toBe(0);
    // The cookie notice at the bottom left of a wide screen is beside the column, not under it.
    expect(toastLift(desktop, [{ left: 264, right: 648, top: 820 }], 900, 12)).toBe(0);
  });

  it('stacks above the highest bottom panel under the column, with a gap', () => {
    // The upload queue, bottom right: 360 wide, its top 120 px above the edge.
    expect(toastLift(desktop, [{ left: 1056, right: 1416, top: 780 }], 900, 12)).toBe(132);
    // On a phone the cookie notice and the upload queue both span the column: the higher one counts.
    expect(toastLift(phone, [{ left: 16, right: 374, top: 760 }, { left: 16, right: 374, top: 700.4 }], 844, 12)).toBe(156);
  });
});
