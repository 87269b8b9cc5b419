import type { Readable } from 'node:stream';
import type { AppContext } from '../context.ts';
import { newBlobKey } from '../files/service.ts';
import { badRequest } from '../http/errors.ts';
import { discardBlob, recordIntent } from './intents.ts';
import { freeBytes, overQuota, tooLarge, uploadLimit, type UploadPolicy } from './limits.ts';
import { CountingSniffer, judgeType } from './sniff.ts';

export interface Received {
  blobKey: string;
  size: number;
  mimetype: string;
}

/**
 * Streams an upload's bytes into a new blob (written at its key in place: the intent recorded
 * first names it, so a crash mid-write leaves a cut blob the start-up recovery removes) while
 * counting them: more than the upload limit is a 413 and more than the free quota a 423 the
 * moment the excess arrives, whatever length was declared; the type is judged by the first bytes
 * (sniff.ts) before anything is stored. On any failure nothing is left at the key. The blob is
 * named by an intent (intents.ts) until finishUpload records it or discards it.
 */
export async function receiveToBlob(
  ctx: AppContext,
  policy: UploadPolicy,
  ownerId: string,
  source: Readable,
  /** `reservationId`: the upload's own quota reservation (reservations.ts), not counted against it. */
  file: { name: string; declaredType: string | null | undefined; declaredSize: number | null; reservationId?: string | null },
  /** A further cap of this path (import from URL), with its own refusal. */
  cap?: { bytes: number; error: () => Error },
): Promise<Received> {
  const limit = uploadLimit(policy);
  const free = await freeBytes(ctx.db, ownerId, policy, file.reservationId);
  // Gone while we looked at the quota: its close event has passed, and piping it would wait for ever.
  if (source.destroyed && !source.readableEnded) throw badRequest('The upload was cut off.');
  let mimetype = 'application/octet-stream';
  const counter = new CountingSniffer({
    max: Math.min(limit ?? Number.POSITIVE_INFINITY, free ?? Number.POSITIVE_INFINITY, cap?.bytes ?? Number.POSITIVE_INFINITY),
    tooMany: () => (cap && counter.bytes > cap.bytes ? cap.error() : limit !== null && counter.bytes > limit ? tooLarge(policy) : overQuota()),
    onHead: async (head) => {
      mimetype = await judgeType(policy, head, file.name, file.declaredType);
    },
  });
  source.on('error', (error) => counter.destroy(error));
  // A client that goes away mid-body: the source closes without ending.
  source.on('close', () => {
    if (!source.readableEnded) counter.destroy(badRequest('The upload was cut off.'));
  });
  // The counter may fail (a refused type, too many bytes) before the store's pipeline listens:
  // keep its error here and answer with it.
  let failure: unknown;
  counter.on('error', (error) => {
    failure ??= error;
  });
  const blobKey = newBlobKey(ownerId);
  // The intent first: a crash from here until the item commits leaves a row the start-up recovery
  // cleans up (the blob, if it got stored), never an unaccounted blob.
  await recordIntent(ctx, { blob_key: blobKey, owner_id: ownerId, upload_id: null, finish: null });
  let stat;
  try {
    // In place: the intent above names the key, so a crash mid-write leaves nothing taken for whole.
    stat = await ctx.blobs.put(blobKey, source.pipe(counter), { inPlace: true });
  } catch (error) {
    await discardBlob(ctx, blobKey);
    throw failure ?? error;
  }
  if (file.declaredSize !== null && stat.size !== file.declaredSize) {
    await discardBlob(ctx, blobKey);
    throw badRequest(`The body held ${stat.size} bytes, not the ${file.declaredSize} declared.`);
  }
  return { blobKey, size: stat.size, mimetype };
}
