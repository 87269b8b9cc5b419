import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { declaredLength } from '../http/data-route.ts';
import { AppError, badRequest, isAppError } from '../http/errors.ts';
import { nameKey } from '../files/names.ts';
import * as q from '../files/queries.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { removeItems, renameItem } from '../files/service.ts';
import { finishUpload } from '../uploads/finish.ts';
import { checkBeforeBytes, uploadPolicy } from '../uploads/limits.ts';
import { receiveToBlob } from '../uploads/receive.ts';
import { withPlainReservation } from '../uploads/reservations.ts';
import { moveDeadProps } from './properties.ts';

export interface NewFile {
  parentId: string | null;
  name: string;
  /** The length the source declares, if it does (checked before a byte is read, and reserved). */
  size: number | null;
  declaredType: string | null;
}

/**
 * Bytes from `source` into a new file: the same steps as a raw `POST /api/upload`
 * (uploads/plain.ts): the checks before the bytes (may upload, blocked types, upload limit, quota),
 * a quota reservation of the declared length, the bytes streamed into a blob while counted and
 * sniffed (receive.ts), and the one finishing step (finish.ts: quota again, the item, its events).
 * Never held in memory. A name taken in the folder is stepped over (`name (1)`) by the finishing
 * step; the caller renames once the old file is in the trash.
 */
export async function storeAsFile(ctx: AppContext, user: User, source: Readable, file: NewFile): Promise<ItemWithCount> {
  const policy = await uploadPolicy(ctx, user);
  await checkBeforeBytes(ctx, user, policy, { name: file.name, declaredType: file.declaredType, size: file.size });
  return withPlainReservation(ctx, policy, user.id, file.size, async (reservationId) => {
    const received = await receiveToBlob(ctx, policy, user.id, source, { name: file.name, declaredType: file.declaredType, declaredSize: file.size, reservationId });
    return finishUpload(ctx, policy, { ownerId: user.id, parentId: file.parentId, folders: [], name: file.name, ...received, reservationId });
  });
}

/** A PUT's body into a new file named `name` in the folder (a stalled client is cut off after upload_idle_seconds). */
export async function receiveDavPut(ctx: AppContext, user: User, req: IncomingMessage, target: { parentId: string | null; name: string }): Promise<ItemWithCount> {
  if (req.headers['content-range']) throw badRequest('PUT with Content-Range is not supported: send the whole file.');
  const policy = await uploadPolicy(ctx, user);
  req.setTimeout(policy.settings.upload_idle_seconds * 1000, () => req.destroy());
  try {
    const declaredType = req.headers['content-type']?.split(';')[0]?.trim() || null;
    return await storeAsFile(ctx, user, req, { ...target, size: declaredLength(req), declaredType });
  } finally {
    req.setTimeout(0);
  }
}

/** The app's refusal of a name that another item in the folder holds (files/service.ts). */
const isNameTaken = (error: unknown) => isAppError(error) && error.status === 422 && Boolean(error.errors?.name);

/**
 * Gives a stored PUT (`created`, named `name (1)` by the finishing step when the name was taken)
 * its URL's name: whatever holds the name now goes to the trash (an empty file, as LOCK leaves on
 * an unmapped URL, is deleted), passing on its dead properties, and the new file takes the name.
 * Whatever holds it "now": the file the PUT replaces, or one a concurrent PUT to the same URL put
 * there meanwhile. Before, each of two PUTs to one new URL at once kept its file, the second as
 * `name (1)` (a URL the client never asked for), and two replacing one file raced to trash it, the
 * loser answering 400 and leaving its `name (1)`. Now the last to take the name holds the URL.
 */
export async function putInPlace(ctx: AppContext, user: User, created: ItemWithCount, name: string): Promise<ItemWithCount> {
  const key = nameKey(name);
  const holderNow = () => q.findTypedByNameKey(ctx.db, created.owner_id, created.parent_id, key);
  for (let attempt = 0; ; attempt += 1) {
    const holder = await holderNow();
    if (holder && holder.id !== created.id) {
      if (holder.type === 'folder') {
        await removeItems(ctx, user, [{ id: created.id, type: 'file', force_delete: true }]);
        throw new AppError(405, 'A folder is at this path.');
      }
      const old = await q.findItemWithCount(ctx.db, holder.id);
      await moveDeadProps(ctx.db, holder.id, created.id);
      try {
        await removeItems(ctx, user, [{ id: holder.id, type: 'file', force_delete: Number(old?.size ?? 1) === 0 }]);
      } catch (error) {
        // Taken away by a concurrent PUT meanwhile: what this one wanted.
        if ((await holderNow())?.id === holder.id) throw error;
      }
    }
    if (created.name === name) return created;
    try {
      return await renameItem(ctx, user, created.id, { name });
    } catch (error) {
      // Another PUT took the name between the two steps: replace that one in turn.
      if (!isNameTaken(error) || attempt >= 20) throw error;
    }
  }
}
