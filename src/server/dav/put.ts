import type { IncomingMessage } from 'node:http';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { declaredLength } from '../http/data-route.ts';
import { badRequest } from '../http/errors.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { finishUpload } from '../uploads/finish.ts';
import { assertCanUpload, checkBeforeBytes, uploadPolicy } from '../uploads/limits.ts';
import { receiveToBlob } from '../uploads/receive.ts';
import { withPlainReservation } from '../uploads/reservations.ts';

/**
 * A PUT's body into a new file named `name` in the folder: the same steps as a raw
 * `POST /api/upload` (uploads/plain.ts): the checks before the bytes, a quota reservation of the
 * declared length, the body streamed into a blob while counted and sniffed (receive.ts), and the
 * one finishing step (finish.ts). Never held in memory. A name taken in the folder is stepped over
 * (`name (1)`) by the finishing step; the caller renames once the old file is in the trash.
 */
export async function receiveDavPut(ctx: AppContext, user: User, req: IncomingMessage, target: { parentId: string | null; name: string }): Promise<ItemWithCount> {
  const policy = await uploadPolicy(ctx, user);
  assertCanUpload(user, policy);
  if (req.headers['content-range']) throw badRequest('PUT with Content-Range is not supported: send the whole file.');
  const size = declaredLength(req);
  await checkBeforeBytes(ctx, user, policy, { name: target.name, size });
  // A client that stalls must not hold its temporary file and reservation for ever.
  req.setTimeout(policy.settings.upload_idle_seconds * 1000, () => req.destroy());
  try {
    return await withPlainReservation(ctx, policy, user.id, size, async (reservationId) => {
      const declaredType = req.headers['content-type']?.split(';')[0]?.trim() || null;
      const received = await receiveToBlob(ctx, policy, user.id, req, { name: target.name, declaredType, declaredSize: size, reservationId });
      return finishUpload(ctx, policy, { ownerId: user.id, parentId: target.parentId, folders: [], name: target.name, ...received, reservationId });
    });
  } finally {
    req.setTimeout(0);
  }
}
