import type { RemoteUploadsTable } from '../../../db/schema.ts';
import type { Db } from '../files/queries.ts';

/** The rows of imports from URL (`remote_uploads`): one job, its URLs and each URL's outcome. */
export type JobRow = RemoteUploadsTable;

export async function insertJob(db: Db, job: JobRow): Promise<void> {
  await db.insertInto('remote_uploads').values(job).execute();
}

/** A job of this user's; another's is not found. */
export function findJob(db: Db, userId: string, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('remote_uploads').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function saveResults(db: Db, id: string, results: string): Promise<void> {
  await db.updateTable('remote_uploads').set({ results }).where('id', '=', id).execute();
}

export async function markDone(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('remote_uploads').set({ status: 'done', finished_at: at }).where('id', '=', id).execute();
}

/** Jobs still `running` that began before `cutoff` belong to a process that died: failed. */
export async function failStaleJobs(db: Db, cutoff: string, at: string): Promise<void> {
  await db.updateTable('remote_uploads').set({ status: 'failed', finished_at: at }).where('status', '=', 'running').where('created_at', '<', cutoff).execute();
}
