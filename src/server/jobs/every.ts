import type { AppContext } from '../context.ts';
import { LOCK_SPACE, retainAdvisoryLocks, type AdvisoryLocks } from '../cluster/advisory-locks.ts';
import { isDue, nextDelayMs } from './backoff.ts';
import { recordJobEnd, recordJobStart } from './status.ts';

/**
 * Runs a background job at start and then every `intervalMs`, once across all app nodes; a failure
 * is logged, not thrown, and the next run waits longer after failures in a row (backoff.ts).
 *
 * Every node ticks every `intervalMs`. A tick takes the job's lease, a PostgreSQL advisory lock
 * keyed by `label` held on the process's lock connection for the whole run (cluster/advisory-locks.ts;
 * on SQLite, one process, an in-process lock), and skips when another node holds it. Holding it,
 * the tick reads the job's shared record (`job_runs`, status.ts) and runs the job only when it is
 * due (backoff.ts isDue): so each interval sees one run whichever nodes tick. A node that dies
 * mid-run loses the lease with its connection, and the next tick of any node finds the run
 * unfinished and runs the job again (jobs are idempotent). Each run is recorded under `label`:
 * start, duration, the error of a failed run, and when the next is due.
 *
 * The returned function stops the timer and waits for a run in flight.
 */
export function runEvery(ctx: AppContext, label: string, intervalMs: number, job: () => Promise<unknown>, options: JobOptions = {}): () => Promise<void> {
  const locks = retainAdvisoryLocks(ctx);
  const since = ctx.clock.now();
  let firstTick = true;
  let current: Promise<void> | null = null;
  const tick = () => {
    const first = firstTick;
    firstTick = false;
    current ??= (async () => {
      // What only this node can do (its own in-process state) does not wait for the lease.
      await options.everyNode?.().catch((error: unknown) => ctx.logger.error({ err: error, job: label }, `${label} (this node's part) failed`));
      await runIfDue(ctx, locks, { label, intervalMs, since, firstTick: first }, job);
    })()
      .catch((error: unknown) => ctx.logger.warn({ err: error, job: label }, 'a job tick failed (its lease or schedule could not be read)'))
      .finally(() => {
        current = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await current;
    await locks.release();
  };
}

export interface JobOptions {
  /** Run at every tick of every node, before the lease is asked for: work on this process's own state. */
  everyNode?: () => Promise<unknown>;
}

interface Tick {
  label: string;
  intervalMs: number;
  since: Date;
  firstTick: boolean;
}

async function runIfDue(ctx: AppContext, locks: AdvisoryLocks, tick: Tick, job: () => Promise<unknown>): Promise<void> {
  if (!(await locks.tryLock(LOCK_SPACE.job, tick.label))) return;
  try {
    const record = await ctx.db.selectFrom('job_runs').select(['last_started_at', 'last_finished_at', 'next_run_at', 'consecutive_failures']).where('name', '=', tick.label).executeTakeFirst();
    const slackMs = Math.min(1000, tick.intervalMs / 10);
    if (!isDue(record, { now: ctx.clock.now(), since: tick.since, firstTick: tick.firstTick, slackMs })) return;
    await runRecorded(ctx, tick, Number(record?.consecutive_failures ?? 0), job);
  } finally {
    await locks.unlock(LOCK_SPACE.job, tick.label);
  }
}

async function runRecorded(ctx: AppContext, tick: Tick, failuresBefore: number, job: () => Promise<unknown>): Promise<void> {
  const { label } = tick;
  const startedAt = ctx.clock.now();
  // The record is bookkeeping: a database hiccup while writing it must not stop the job itself.
  const record = (write: Promise<void>) => write.catch((error: unknown) => ctx.logger.warn({ err: error, job: label }, 'could not record a job run'));
  await record(recordJobStart(ctx, label, startedAt));
  const started = performance.now();
  let failure: { error: unknown } | null = null;
  try {
    await job();
  } catch (error) {
    failure = { error };
    ctx.logger.error({ err: error }, `${label} failed`);
  }
  ctx.metrics?.jobRun(label, failure !== null, (performance.now() - started) / 1000);
  const consecutiveFailures = failure ? failuresBefore + 1 : 0;
  const nextRunAt = new Date(startedAt.getTime() + nextDelayMs(tick.intervalMs, consecutiveFailures));
  await record(recordJobEnd(ctx, label, startedAt, failure, { nextRunAt, consecutiveFailures }));
}
