import type { Kysely } from 'kysely';

// The shared schedule of each background job (src/server/jobs/every.ts): when its next run is due
// (set by whichever app node ran it last), and how many runs in a row failed (the back-off).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job_runs').addColumn('next_run_at', 'text').execute();
  await db.schema.alterTable('job_runs').addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job_runs').dropColumn('consecutive_failures').execute();
  await db.schema.alterTable('job_runs').dropColumn('next_run_at').execute();
}
