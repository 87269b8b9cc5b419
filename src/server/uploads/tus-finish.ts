import type { AppContext } from '../context.ts';
import { isStorageUnavailable } from '../blobs/errors.ts';
import { faultPoint } from '../faults.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { AppError } from '../http/errors.ts';
import { findUserById } from '../users/queries.ts';
import { findFileByBlobKey } from '../files/queries.ts';
import { finishUpload, uploadFinished } from './finish.ts';
import { discardBlob, dropIntent, findIntent, recordIntent } from './intents.ts';
import { uploadPolicy } from './limits.ts';
import { relativeFolders, uploadName } from './names.ts';
import { judgeType } from './sniff.ts';
import { stagingFor, type TusStaging } from './tus-staging.ts';

/**
 * Finishing a tus upload whose bytes are complete, so that a crash at any point of it can be
 * finished again later, and the file is recorded exactly once:
 *
 * 1. an item already holding the upload's blob: done (a crash after the commit), answer it;
 * 2. the intent (intents.ts), written once with everything the item needs (name, folder, the type
 *    judged from the bytes, size, binding), before the bytes move;
 * 3. the staged bytes moved into the blob store under a key made from the upload id (a rename on
 *    the local disk, a copy inside the bucket on S3: tus-staging.ts), unless a crash left them there already;
 * 4. finishUpload: quota re-check, the item, and the intent taken, in one transaction;
 * 5. the upload's metadata marked finished (HEAD answers the item from then on).
 *
 * Callers: the tus finish hook, a HEAD/PATCH of an upload a crash left complete (tus.ts), and the
 * start-up recovery (recover.ts). In one process, concurrent calls for one id share one run; the
 * intent's transaction makes it exactly once across processes and restarts.
 */
export interface StoredUpload {
  id: string;
  size?: number;
  offset?: number;
  metadata?: Record<string, string | null>;
  creation_date?: string;
  /** Set once the upload became an item: the data file is in the blob store then. */
  finished?: { item_id: string; at: string };
}

/** What the intent of a tus upload records: the item to make, fixed before the bytes move. */
interface TusFinish {
  parentId: string | null;
  folders: string[];
  name: string;
  mimetype: string;
  size: number;
  binding: string | null;
}

/** The blob a tus upload becomes: named by its id, so a restart knows where to look. */
export function tusBlobKey(ownerId: string, uploadId: string): string {
  const hex = uploadId.toLowerCase();
  return `files/${ownerId.toLowerCase()}/${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

async function markFinished(ctx: AppContext, staging: TusStaging, info: StoredUpload, item: ItemWithCount): Promise<void> {
  await staging.writeInfo({ ...info, offset: item.size, finished: { item_id: item.id, at: ctx.clock.now().toISOString() } });
}

const gone = () => new AppError(410, 'The upload is gone; send it again.');

const running = new WeakMap<AppContext, Map<string, Promise<ItemWithCount>>>();

export function completeTusUpload(ctx: AppContext, upload: { id: string; ownerId: string }): Promise<ItemWithCount> {
  let inFlight = running.get(ctx);
  if (!inFlight) running.set(ctx, (inFlight = new Map()));
  const existing = inFlight.get(upload.id);
  if (existing) return existing;
  const work = complete(ctx, upload).finally(() => inFlight.delete(upload.id));
  inFlight.set(upload.id, work);
  return work;
}

async function complete(ctx: AppContext, { id, ownerId }: { id: string; ownerId: string }): Promise<ItemWithCount> {
  const staging = await stagingFor(ctx);
  const blobKey = tusBlobKey(ownerId, id);
  const info = await staging.readInfo(id);
  const done = await findFileByBlobKey(ctx.db, blobKey);
  if (done) {
    if (info && !info.finished) await markFinished(ctx, staging, info, done);
    return done;
  }
  let intent = await findIntent(ctx.db, blobKey);
  const size = intent ? undefined : await staging.stagedSize(id);
  if (!intent && info?.size !== undefined && size !== undefined && size < info.size) throw new AppError(409, 'The upload is not complete.');
  try {
    const policy = await uploadPolicy(ctx, await findUserById(ctx, ownerId));
    if (!intent) {
      if (!info || info.size === undefined || size !== info.size) throw gone();
      const meta = info.metadata ?? {};
      const name = uploadName(meta.filename ?? undefined);
      // An empty file has no first bytes to sniff: not asked of the staging (some S3 servers drop a Range request on an empty object).
      const mimetype = await judgeType(policy, size === 0 ? new Uint8Array(0) : await staging.readHead(id), name, meta.filetype);
      const finish: TusFinish = { parentId: meta.parent_id ? meta.parent_id : null, folders: relativeFolders(meta.path ?? undefined), name, mimetype, size, binding: meta.binding ?? null };
      faultPoint(ctx, 'tus-finish-before-intent');
      await recordIntent(ctx, { blob_key: blobKey, owner_id: ownerId, upload_id: id, finish: JSON.stringify(finish) });
      intent = (await findIntent(ctx.db, blobKey))!;
    }
    const finish = JSON.parse(intent.finish ?? 'null') as TusFinish | null;
    if (!finish) {
      await discardBlob(ctx, blobKey);
      throw gone();
    }
    // The bytes into the blob store: a rename on the same disk, a copy inside the bucket on S3 (the
    // staged bytes go after the blob exists). A crash may have moved them already.
    let stored = await ctx.blobs.stat(blobKey);
    if (stored) await staging.removeData(id); // a copy that was cut short after the blob was written
    else stored = await staging.adopt(blobKey, id);
    if (!stored) {
      await dropIntent(ctx.db, blobKey);
      throw gone();
    }
    faultPoint(ctx, 'tus-finish-after-blob-move');
    if (stored.size !== finish.size) {
      await discardBlob(ctx, blobKey);
      throw gone();
    }
    const item = await finishUpload(ctx, policy, { ownerId, parentId: finish.parentId, folders: finish.folders, name: finish.name, mimetype: finish.mimetype, size: stored.size, blobKey, reservationId: id });
    faultPoint(ctx, 'tus-finish-after-commit');
    await uploadFinished(ctx, item, finish.binding);
    if (info) await markFinished(ctx, staging, info, item);
    return item;
  } catch (error) {
    // The storage is down (503): the bytes and the intent stay, and the next HEAD or PATCH (or the
    // start-up recovery) finishes the upload once it is back.
    if (isStorageUnavailable(error)) throw error;
    // A refused or lost upload is over: its files go (finishUpload removed the blob and the intent).
    await staging.discard(id);
    throw error;
  }
}
