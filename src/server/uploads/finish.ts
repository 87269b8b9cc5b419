import { originOf } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { EventBus } from '../events/bus.ts';
import { liveFolder } from '../files/access.ts';
import * as q from '../files/queries.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { createFileItem, ensureFolder } from '../files/service.ts';
import { AppError, validationError } from '../http/errors.ts';
import { faultPoint } from '../faults.ts';
import { claimIntent, discardBlob } from './intents.ts';
import { committedBytes, overQuota, tooLarge, uploadLimit, type UploadPolicy } from './limits.ts';
import { releaseReservation } from './reservations.ts';
import { commitsDurable } from './durable.ts';

/**
 * The one finishing step of every upload path (plain, tus, import from URL): the bytes are in the
 * blob store already; this re-checks the quota and the upload limit atomically, creates the
 * folders of a folder upload's relative path, records the file (createFileItem: next free name,
 * `file.created` event, which thumbnails and usage listen to), and removes the blob when any of
 * it fails, so a refused or failed upload leaves neither an item nor an orphan blob.
 *
 * The same transaction takes the upload's intent (intents.ts), written before the bytes were
 * stored: the item exists exactly when the intent is gone, whatever crash comes in between. An
 * intent already taken means the upload was finished by someone else (a retry after a crash, the
 * start-up recovery): that item is answered, and nothing is recorded twice.
 *
 * Atomic per owner: on SQLite the single connection runs one transaction at a time; on PostgreSQL
 * the transaction holds the owner's advisory lock (the one moves take), so two uploads finishing
 * at once cannot both fit into the last bytes of a quota, and the folders of a folder upload whose
 * files finish in parallel are created once.
 */
export interface FinishInput {
  ownerId: string;
  /** The folder uploaded to; null is home. */
  parentId: string | null;
  /** Checked folder names of the relative path below the parent (names.ts relativeFolders). */
  folders: string[];
  /** The checked file name; a clash in the folder makes it `name (1).ext`. */
  name: string;
  mimetype: string;
  size: number;
  blobKey: string;
  /** The upload's quota reservation (reservations.ts): not counted against it, removed with the commit. */
  reservationId?: string | null;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

export async function finishUpload(ctx: AppContext, policy: UploadPolicy, input: FinishInput): Promise<ItemWithCount> {
  // Events wait for the commit: a listener must find the row.
  const pending: (() => void)[] = [];
  const events: EventBus = {
    emit: (name, payload) => void pending.push(() => ctx.events.emit(name, payload)),
    emitAndWait: async (name, payload) => void pending.push(() => ctx.events.emit(name, payload)),
    on: (name, listener, options) => ctx.events.on(name, listener, options),
    ready: () => ctx.events.ready(),
    close: () => Promise.resolve(),
  };
  const attempt = () =>
    ctx.db.transaction().execute(async (tx) => {
      if (ctx.config.database.dialect === 'postgres') await q.lockOwnerTree(tx, input.ownerId);
      if (!(await claimIntent(tx, input.blobKey))) return { done: await q.findFileByBlobKey(tx, input.blobKey) };
      const limit = uploadLimit(policy);
      if (limit !== null && input.size > limit) throw tooLarge(policy);
      if (policy.capacity !== null && (await committedBytes(tx, input.ownerId, input.reservationId)) + input.size > policy.capacity) throw overQuota();
      if (input.reservationId) await releaseReservation(tx, input.reservationId);
      let parentId = input.parentId;
      if (parentId !== null && !(await liveFolder(tx, { id: input.ownerId }, parentId))) throw validationError({ parent_id: ['The folder was not found.'] });
      for (const folder of input.folders) parentId = await ensureFolder({ ...ctx, db: tx, events }, input.ownerId, parentId, folder);
      if (input.folders.length) events.emit('items.changed', { ownerId: input.ownerId, folderIds: [input.parentId], itemIds: [] });
      return { item: await createFileItem({ ...ctx, db: tx, events }, { ownerId: input.ownerId, parentId, name: input.name, mimetype: input.mimetype, size: input.size, blobKey: input.blobKey }) };
    });
  faultPoint(ctx, 'upload-finish-after-blob-write');
  let outcome: { item: ItemWithCount } | { done: ItemWithCount | undefined };
  try {
    try {
      outcome = await attempt();
    } catch (error) {
      // Another writer (a folder created by hand, say) took a name between our read and insert.
      if (!isUniqueViolation(error)) throw error;
      pending.length = 0;
      outcome = await attempt();
    }
  } catch (error) {
    await discardBlob(ctx, input.blobKey);
    throw error;
  }
  if ('item' in outcome) {
    await commitsDurable(ctx);
    for (const fire of pending) fire();
    return outcome.item;
  }
  if (outcome.done) return outcome.done;
  // The intent was dropped without an item (a recovery judged the upload dead): the blob goes too.
  await discardBlob(ctx, input.blobKey);
  throw new AppError(409, 'The upload was abandoned; send it again.');
}

/**
 * Tells whoever listens that an upload became an item (`upload.finished`: an upload request records
 * it and tells its owner), and waits for them, so their work is done when the upload is answered.
 * `binding` is what the upload was bound to (auth/principal.ts bindingOf): it names who made it.
 */
export async function uploadFinished(ctx: AppContext, item: ItemWithCount, binding: string | null | undefined): Promise<void> {
  await ctx.events.emitAndWait('upload.finished', { itemId: item.id, ownerId: item.owner_id, name: item.name, principal: originOf(binding, item.owner_id) });
}
