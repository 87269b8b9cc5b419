import { statfs } from 'node:fs/promises';
import { sql } from 'kysely';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { reconcileBlobs, type MissingBlob } from '../../blobs/reconcile.ts';
import { jobStatuses } from '../../jobs/status.ts';
import { storedMailConfig } from '../../settings/mail.ts';
import { requireAdmin } from '../guard.ts';

/**
 * The settings screen's server tab: a read-only report of what this instance runs on, its background
 * jobs, and on demand the blob check of `npm run fsck` (read-only here: nothing is repaired).
 */
export async function getServerReport(ctx: AppContext, user: User) {
  requireAdmin(user);
  const [database, disk, mail, jobs] = await Promise.all([databaseVersion(ctx), freeDisk(ctx.config.dataDir), storedMailConfig(ctx), jobStatuses(ctx)]);
  return {
    data: {
      node: process.versions.node,
      database: { kind: ctx.config.database.dialect, version: database },
      data_dir: { path: ctx.config.dataDir, ...disk },
      // The driver this process runs with (STORAGE_DRIVER), not the wizard's saved choice.
      storage_driver: ctx.config.storage.driver,
      mail_driver: (mail ?? ctx.config.mail).driver,
      jobs,
    },
  };
}

async function databaseVersion(ctx: AppContext): Promise<string> {
  if (ctx.config.database.dialect === 'postgres') {
    const { rows } = await sql<{ server_version: string }>`show server_version`.execute(ctx.db);
    return rows[0]?.server_version ?? '';
  }
  const { rows } = await sql<{ version: string }>`select sqlite_version() as version`.execute(ctx.db);
  return rows[0]?.version ?? '';
}

/** Free and total bytes of the file system holding the data dir; null when it cannot be read. */
async function freeDisk(dataDir: string): Promise<{ free_bytes: number | null; total_bytes: number | null }> {
  try {
    const fs = await statfs(dataDir);
    return { free_bytes: fs.bavail * fs.bsize, total_bytes: fs.blocks * fs.bsize };
  } catch {
    return { free_bytes: null, total_bytes: null };
  }
}

/** At most this many orphans and missing blobs are listed; the counts cover them all. */
const LISTED = 50;

// One check at a time per process: a second click while one runs gets the same answer.
let running: ReturnType<typeof checkBlobs> | null = null;

/** The blob check: the counts of `npm run fsck` and the first orphans and missing blobs, changing nothing. */
export async function runFsck(ctx: AppContext, user: User) {
  requireAdmin(user);
  running ??= checkBlobs(ctx).finally(() => {
    running = null;
  });
  return { data: await running };
}

async function checkBlobs(ctx: AppContext) {
  const started = ctx.clock.now();
  const orphans: { key: string; size: number; modified_at: string }[] = [];
  const missing: MissingBlob[] = [];
  const report = await reconcileBlobs(ctx, {
    repair: false,
    graceMs: ctx.config.blobs.orphanGraceMs,
    onOrphan: (blob) => {
      if (orphans.length < LISTED) orphans.push({ key: blob.key, size: blob.size, modified_at: blob.modifiedAt.toISOString() });
    },
    onMissing: (m) => {
      if (missing.length < LISTED) missing.push(m);
    },
  });
  const finished = ctx.clock.now();
  return {
    ...report,
    orphan_list: orphans,
    missing_list: missing,
    checked_at: finished.toISOString(),
    duration_ms: finished.getTime() - started.getTime(),
  };
}
