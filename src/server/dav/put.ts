import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { declaredLength } from '../http/data-route.ts';
import { badRequest } from '../http/errors.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { finishUpload } from '../uploads/finish.ts';
import { checkBeforeBytes, uploadPolicy } from '../uploads/limits.ts';
import { receiveToBlob } from '../uploads/receive.ts';
import { withPlainReservation } from '../uploads/reservations.ts';

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
