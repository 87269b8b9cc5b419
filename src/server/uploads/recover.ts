import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { LOCK_SPACE, retainAdvisoryLocks } from '../cluster/advisory-locks.ts';
import { deadNodes } from '../cluster/node.ts';
import type { AppContext } from '../context.ts';
import { isAppError } from '../http/errors.ts';
import { discardBlob, listIntents, type Intent } from './intents.ts';
import { dropDeadPlainReservations } from './reservations.ts';
import { completeTusUpload } from './tus-finish.ts';
import { stagingFor } from './tus-staging.ts';

const ID = /^[0-9a-f]{32}$/;
const BATCH = 100;

/**
 * What a crash left of finishing uploads, settled: run at start before the server listens, and by
 * the reconciler for intents older than the upload expiry (left by a failure that could not even
 * remove its blob). Only a dead process's intents: another app node's live uploads are its own
 * business (cluster/node.ts), so starting a node beside running ones cancels none of theirs.
 *
 * - an intent of a tus upload: finished (its bytes are complete: in the blob store or still in the
 *   upload's data file), exactly once; refused now (the quota filled meanwhile) it is removed;
 * - an intent of a plain upload or an import: its request died with the process, so its blob (if
 *   it got stored) and the intent go;
 * - at start, too, every tus upload whose bytes are all here but that is not marked finished (a
 *   crash between the last byte and the intent, or between the commit and the mark): finished, so
 *   a client's HEAD finds the item.
 */
export async function recoverUploads(ctx: AppContext, options: { before: Date | null } = { before: null }): Promise<{ finished: number; discarded: number }> {
  let finished = 0;
  let discarded = 0;
  const settle = async (upload: { id: string; ownerId: string }) => {
    try {
      await completeTusUpload(ctx, upload);
      finished += 1;
    } catch (error) {
      discarded += 1;
      if (isAppError(error)) ctx.logger.warn({ upload: upload.id, status: error.status, reason: error.message }, 'a crashed tus upload could not be finished');
      else ctx.logger.error({ err: error, upload: upload.id }, 'recovering a tus upload failed');
    }
  };
  let after: Intent | undefined;
  for (;;) {
    const intents = await listIntents(ctx.db, { before: options.before?.toISOString() ?? null, ...(after ? { after } : {}), limit: BATCH });
    const dead = await deadNodes(ctx, intents.map((intent) => intent.node_id));
    for (const intent of intents) {
      if (!dead.has(intent.node_id)) continue;
      if (intent.upload_id && ID.test(intent.upload_id)) await settle({ id: intent.upload_id, ownerId: intent.owner_id });
      else {
        await discardBlob(ctx, intent.blob_key);
        discarded += 1;
      }
    }
    if (intents.length < BATCH) break;
    after = intents.at(-1);
    await yieldToLoop();
  }
  if (options.before === null) {
    // A plain upload's reservation outlives its request only when the process died.
    const dropped = await dropDeadPlainReservations(ctx);
    if (dropped > 0) ctx.logger.info({ reservations: dropped }, 'released the quota of uploads a crash interrupted');
    const staging = await stagingFor(ctx);
    // A tus upload another node is receiving or finishing holds its tus lock: left to that node.
    const locks = retainAdvisoryLocks(ctx);
    try {
      for (const id of await staging.listIds()) {
        const info = await staging.readInfo(id);
        if (!info || info.finished || info.size === undefined || !info.metadata?.owner) continue;
        const size = await staging.stagedSize(id);
        if (size !== undefined && size !== info.size) continue;
        if (!(await locks.tryLock(LOCK_SPACE.tus, id))) continue;
        try {
          await settle({ id, ownerId: info.metadata.owner });
        } finally {
          await locks.unlock(LOCK_SPACE.tus, id);
        }
      }
    } finally {
      await locks.release();
    }
  }
  if (finished + discarded > 0) ctx.logger.info({ finished, discarded }, 'recovered uploads a crash interrupted');
  return { finished, discarded };
}
