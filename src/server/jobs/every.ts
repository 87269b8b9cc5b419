import type { AppContext } from '../context.ts';

/**
 * Runs a background job once now and then every `intervalMs`, one run at a time; a failure is
 * logged, not thrown. The returned function stops the timer and waits for a run in flight.
 */
export function runEvery(ctx: AppContext, label: string, intervalMs: number, job: () => Promise<unknown>): () => Promise<void> {
  let current: Promise<void> | null = null;
  const run = () => {
    current ??= job()
      .then(() => undefined)
      .catch((error: unknown) => ctx.logger.error({ err: error }, `${label} failed`))
      .finally(() => {
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
