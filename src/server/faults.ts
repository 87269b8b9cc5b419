import { writeSync } from 'node:fs';
import type { AppContext } from './context.ts';

/**
 * Test-only fault injection: with CLOUD_DRIVE_FAULT naming one of these points, the process kills
 * itself (SIGKILL: no cleanup, no draining) the moment it gets there, so a test can drive a crash
 * into an exact window and check what a restart makes of it. Unset (always, in production) it does
 * nothing.
 *
 * - `tus-finish-before-intent`: a tus upload's last byte is written, nothing of its finishing done yet;
 * - `tus-finish-after-blob-move`: a finished tus upload's bytes are in the blob store, its item not committed;
 * - `tus-finish-after-commit`: the item is committed, the tus upload not yet marked finished;
 * - `upload-finish-after-blob-write`: any upload's blob is stored, its item not committed (plain uploads, imports);
 * - `user-deletion-after-batch`: an account's deletion removed its first batch of items, the rest still there;
 * - `billing-after-usage`: the metered run wrote the day's usage rows, no period closed yet;
 * - `trash-purge-after-batch`: the trash purge removed its first batch (and its blobs), the rest still there,
 *   its job lease held (jobs/every.ts);
 * - `trash-delete-before-blobs`: a batch of trashed items is deleted for good (emptying the trash, or the purge),
 *   its blobs not yet;
 * - `storage-migrate-after-upload`: `npm run storage:migrate` uploaded its third blob, not yet recorded as verified.
 */
export const FAULTS = ['tus-finish-before-intent', 'tus-finish-after-blob-move', 'tus-finish-after-commit', 'upload-finish-after-blob-write', 'user-deletion-after-batch', 'billing-after-usage', 'trash-purge-after-batch', 'trash-delete-before-blobs', 'storage-migrate-after-upload'] as const;
export type Fault = (typeof FAULTS)[number];

export function faultPoint(ctx: Pick<AppContext, 'config'>, point: Fault): void {
  if (ctx.config.fault !== point) return;
  // Written synchronously: the logger's buffered output would die with the process.
  try {
    writeSync(1, `${JSON.stringify({ level: 40, time: Date.now(), fault: point, msg: 'fault injection: killing the process' })}\n`);
  } catch {
    /* the kill matters, not the line */
  }
  process.kill(process.pid, 'SIGKILL');
}
