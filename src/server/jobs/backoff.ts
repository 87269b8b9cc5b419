/**
 * When a background job is due again (jobs/every.ts), as pure functions of its shared record.
 *
 * After a good run the next is due one interval after that run started; after failures in a row
 * it waits longer: twice the interval after one, four times after two, and so on, capped at
 * BACKOFF_CAP_MS (or the interval itself when that is longer: a daily job never runs less than daily).
 */
export const BACKOFF_CAP_MS = 6 * 60 * 60_000;

export function nextDelayMs(intervalMs: number, consecutiveFailures: number): number {
  if (consecutiveFailures <= 0) return intervalMs;
  const cap = Math.max(intervalMs, BACKOFF_CAP_MS);
  // 2 ** n overflows nothing here: past 40 doublings the cap has long been reached.
  return Math.min(intervalMs * 2 ** Math.min(consecutiveFailures, 40), cap);
}

export interface JobRecord {
  last_started_at: string | null;
  last_finished_at: string | null;
  next_run_at: string | null;
}

/**
 * Whether a node holding the job's lease should run it now:
 * - never run, or no next run recorded;
 * - the last run started and never finished: its node died mid-run (the lease is free, so no one runs it now);
 * - this node's first tick and no run started since it began: a node runs each job at start, as one
 *   process always did, unless another node ran it meanwhile (nodes started together run it once);
 * - otherwise when the next run is due, allowing `slackMs` for a timer that fires a little early.
 */
export function isDue(record: JobRecord | undefined, at: { now: Date; since: Date; firstTick: boolean; slackMs: number }): boolean {
  if (!record?.next_run_at || !record.last_started_at) return true;
  const started = Date.parse(record.last_started_at);
  if (!record.last_finished_at || started > Date.parse(record.last_finished_at)) return true;
  if (at.firstTick && started <= at.since.getTime()) return true;
  return Date.parse(record.next_run_at) <= at.now.getTime() + at.slackMs;
}
