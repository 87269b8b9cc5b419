import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, isDue, nextDelayMs } from '../../src/server/jobs/backoff.ts';

const HOUR = 60 * 60_000;
const at = (iso: string) => new Date(iso);

describe('job back-off', () => {
  it('waits one interval after a good run, then twice as long per failure in a row', () => {
    expect(nextDelayMs(HOUR, 0)).toBe(HOUR);
    expect(nextDelayMs(HOUR, 1)).toBe(2 * HOUR);
    expect(nextDelayMs(HOUR, 2)).toBe(4 * HOUR);
    expect(nextDelayMs(1000, 3)).toBe(8000);
  });

  it('caps the wait, and never waits less than the interval', () => {
    expect(nextDelayMs(HOUR, 3)).toBe(BACKOFF_CAP_MS);
    expect(nextDelayMs(HOUR, 500)).toBe(BACKOFF_CAP_MS);
    expect(nextDelayMs(24 * HOUR, 1)).toBe(24 * HOUR);
    expect(nextDelayMs(24 * HOUR, 9)).toBe(24 * HOUR);
  });
});

describe('when a job is due', () => {
  const now = at('2026-12-03T12:00:00.000Z');
  const since = at('2026-12-03T11:00:00.000Z');
  const tick = { now, since, firstTick: false, slackMs: 100 };
  const done = { last_started_at: '2026-12-03T11:59:00.000Z', last_finished_at: '2026-12-03T11:59:01.000Z' };

  it('runs a job never run, or without a schedule yet', () => {
    expect(isDue(undefined, tick)).toBe(true);
    expect(isDue({ ...done, next_run_at: null }, tick)).toBe(true);
  });

  it('runs when the next run is due, allowing the slack for an early timer, and not before', () => {
    expect(isDue({ ...done, next_run_at: '2026-12-03T12:00:00.000Z' }, tick)).toBe(true);
    expect(isDue({ ...done, next_run_at: '2026-12-03T12:00:00.100Z' }, tick)).toBe(true);
    expect(isDue({ ...done, next_run_at: '2026-12-03T12:00:00.101Z' }, tick)).toBe(false);
  });

  it('runs again at once a run that started and never finished (its node died holding the lease)', () => {
    const later = { next_run_at: '2026-12-03T13:00:00.000Z' };
    expect(isDue({ ...later, last_started_at: '2026-12-03T11:59:00.000Z', last_finished_at: null }, tick)).toBe(true);
    expect(isDue({ ...later, last_started_at: '2026-12-03T11:59:00.000Z', last_finished_at: '2026-12-03T11:00:00.000Z' }, tick)).toBe(true);
  });

  it("runs at a node's first tick unless another node ran it since that node began", () => {
    const later = { next_run_at: '2026-12-03T13:00:00.000Z' };
    expect(isDue({ ...later, last_started_at: '2026-12-03T10:59:00.000Z', last_finished_at: '2026-12-03T10:59:01.000Z' }, { ...tick, firstTick: true })).toBe(true);
    expect(isDue({ ...later, ...done }, { ...tick, firstTick: true })).toBe(false);
    expect(isDue({ ...later, last_started_at: '2026-12-03T10:59:00.000Z', last_finished_at: '2026-12-03T10:59:01.000Z' }, tick)).toBe(false);
  });
});
