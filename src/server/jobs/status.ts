import type { AppContext } from '../context.ts';

/**
 * What the background jobs did, kept in the database (`job_runs`, one row per job name) so every app
 * process writes to and reads the same record. runEvery records each run and reads the schedule
 * (next_run_at, consecutive_failures) from it to run each job once across nodes; the admin's server report
 * lists them and the dashboard warns about a job whose last run failed.
 */
export interface JobStatus {
  name: string;
  /** `running`: started after its last finish (in this or another process); `failed`: the last finished run threw. */
  state: 'running' | 'ok' | 'failed';
  last_started_at: string | null;
  last_finished_at: string | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_error_at: string | null;
  runs: number;
  failures: number;
}

const MAX_ERROR_LENGTH = 1000;

export async function recordJobStart(ctx: AppContext, name: string, startedAt: Date): Promise<void> {
  const at = startedAt.toISOString();
  await ctx.db
    .insertInto('job_runs')
    .values({ name, last_started_at: at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ last_started_at: at }))
    .execute();
}

/**
 * One finished run: its duration, on failure the error's message, and the schedule (when the next
 * run is due, failures in a row). Counts add up in SQL, so processes never lose each other's runs.
 */
export async function recordJobEnd(
  ctx: AppContext,
  name: string,
  startedAt: Date,
  failure: { error: unknown } | null,
  schedule: { nextRunAt: Date; consecutiveFailures: number },
): Promise<void> {
  const finished = ctx.clock.now();
  const failed = failure !== null;
  const message = failure ? (failure.error instanceof Error ? failure.error.message : String(failure.error)).slice(0, MAX_ERROR_LENGTH) || 'failed' : null;
  await ctx.db
    .updateTable('job_runs')
    .set((eb) => ({
      last_finished_at: finished.toISOString(),
      last_duration_ms: Math.max(0, finished.getTime() - startedAt.getTime()),
      last_failed: failed ? 1 : 0,
      runs: eb('runs', '+', 1),
      next_run_at: schedule.nextRunAt.toISOString(),
      consecutive_failures: schedule.consecutiveFailures,
      ...(failed ? { failures: eb('failures', '+', 1), last_error: message, last_error_at: finished.toISOString() } : {}),
    }))
    .where('name', '=', name)
    .execute();
}

export async function jobStatuses(ctx: AppContext): Promise<JobStatus[]> {
  const rows = await ctx.db.selectFrom('job_runs').selectAll().orderBy('name').execute();
  return rows.map((row): JobStatus => ({
    name: row.name,
    state: row.last_started_at && (!row.last_finished_at || row.last_started_at > row.last_finished_at) ? 'running' : row.last_failed ? 'failed' : 'ok',
    last_started_at: row.last_started_at,
    last_finished_at: row.last_finished_at,
    last_duration_ms: row.last_duration_ms === null ? null : Number(row.last_duration_ms),
    last_error: row.last_error,
    last_error_at: row.last_error_at,
    runs: Number(row.runs),
    failures: Number(row.failures),
  }));
}
