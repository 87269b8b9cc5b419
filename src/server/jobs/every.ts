import type { AppContext } from '../context.ts';
import { recordJobEnd, recordJobStart } from './status.ts';

/**
 * Runs a background job once now and then every `intervalMs`, one run at a time; a failure is
 * logged, not thrown. Each run is recorded under `label` in the database (status.ts): start,
 * duration, and the error of a failed run. The returned function stops the timer and waits for a
 * run in flight.
 */
export function runEvery(ctx: AppContext, label: string, intervalMs: number, job: () => Promise<unknown>): () => Promise<void> {
  let current: Promise<void> | null = null;
  const run = () => {
    current ??= runRecorded(ctx, label, job).finally(() => {
      current = null;
    });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  run();
  return async () => {
    clearInterval(timer);
    await current;
  };
}

async function runRecorded(ctx: AppContext, label: string, job: () => Promise<unknown>): Promise<void> {
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
  await record(recordJobEnd(ctx, label, startedAt, failure));
}
