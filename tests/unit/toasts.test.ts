import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, dismissToast, toast, TOAST_LIFETIME_MS, TOAST_LIMIT } from '../../src/stores/ui.ts';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    $toasts.set([]);
  });
  afterEach(() => vi.useRealTimers());

  it('keeps at most three, dropping the oldest', () => {
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
