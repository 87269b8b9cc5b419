import { flushLog } from '../../../db/index.ts';
import type { AppContext } from '../context.ts';

/**
 * What an upload's 201 promises: its row survives a power cut. PostgreSQL flushes its log at every
 * commit (synchronous_commit on). SQLite runs WAL with `synchronous = NORMAL` (db/index.ts), which
 * survives a crash of the process but not of the machine, and `FULL` would fsync on the event
 * loop's thread at every commit. So after a finishing transaction commits, its write-ahead log is
 * flushed here, off the thread and shared by every upload that finished meanwhile (group commit):
 * one fdatasync covers them all, through a handle the database keeps open (db/index.ts flushLog).
 * (A checkpoint that moved the frames into the database first synced that file itself.)
 */
export async function commitsDurable(ctx: AppContext): Promise<void> {
  await flushLog(ctx.db);
}
