import type { AppContext } from '../context.ts';
import { sharedSync } from '../blobs/sync.ts';

/**
 * What an upload's 201 promises: its row survives a power cut. PostgreSQL flushes its log at every
 * commit (synchronous_commit on). SQLite runs WAL with `synchronous = NORMAL` (db/index.ts), which
 * survives a crash of the process but not of the machine, and `FULL` would fsync on the event
 * loop's thread at every commit. So after a finishing transaction commits, its write-ahead log is
 * flushed here, off the thread and shared by every upload that finished meanwhile (group commit):
 * one fdatasync covers them all. (A checkpoint that moved the frames into the database first
 * synced that file itself; a log not there has nothing to flush.)
 */
const syncWal = sharedSync({ data: true, missingIsFine: true });

export async function commitsDurable(ctx: AppContext): Promise<void> {
  const database = ctx.config.database;
  if (database.dialect !== 'sqlite' || database.file === ':memory:') return;
  await syncWal(`${database.file}-wal`);
}
