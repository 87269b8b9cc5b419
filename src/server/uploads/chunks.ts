import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isStorageUnavailable } from '../blobs/errors.ts';
import type { AppContext } from '../context.ts';
import { LOCK_SPACE, retainAdvisoryLocks } from '../cluster/advisory-locks.ts';
import * as q from '../files/queries.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { newBlobKey } from '../files/service.ts';
import { AppError, badRequest, isAppError, notFound, validationError } from '../http/errors.ts';
import type { Settings } from '../settings/service.ts';
import { findFileByBlobKey } from '../files/queries.ts';
import { finishUpload } from './finish.ts';
import { discardBlob, recordIntent } from './intents.ts';
import { committedBytes, freeBytes, overQuota, tooLarge, uploadLimit, type UploadPolicy } from './limits.ts';
import { releaseReservation, tooManyOpenUploads } from './reservations.ts';
import { CountingSniffer, judgeType } from './sniff.ts';
import { chunkStagingFor, KEY, lostUpload, type ChunkStaging, type PartialUpload } from './chunk-staging.ts';

/**
 * Chunked uploads through POST /api/upload (SPEC §7 "Chunk upload through the store"): the
 * multipart form of a plain upload plus three fields, all sent before the file part:
 *
 * - `upload_id`: the client's random id for this file, 16 to 64 of `A-Z a-z 0-9 _ -` (a UUID will
 *   do); the same on every chunk of the file. It is bound to whoever sent the first chunk (the
 *   user, or the share link / upload request of a token holder) and to the target (`filename`,
 *   `parent_id`, `path`): another user's id is simply not found (404), the same id with another
 *   target is a 422.
 * - `offset`: where this chunk starts in the file, in bytes (0 for the first). Anything but the
 *   bytes received so far is a 409 `offset_mismatch` with the current `offset` in the body (and
 *   `Upload-Offset`), changing nothing: a chunk retried after a lost answer is not appended twice.
 * - `is_last`: `true` or `false` (`1`/`0`), required with `upload_id`. The file appears, once, when
 *   the last chunk is in; earlier chunks are answered 200 `{ upload_id, offset }`. Without
 *   `upload_id`, `is_last` may be absent or true: the one-shot upload of plain.ts.
 *
 * A chunk holds at most `chunk_size_bytes` (a setting) + CHUNK_SLACK bytes (more: 413
 * `chunk_too_large`, the chunk not appended). The bytes are counted as they arrive against
 * `upload_limit_bytes` (413) and the free quota (423), and the running total is held as a quota
 * reservation (kind `chunk`, counted with tus uploads against `max_open_uploads`). A file the
 * limits, the blacklist or the server refuse (413 `upload_limit_exceeded`, 422, 423, 500) is
 * over: its partial bytes and reservation go. A chunk cut off or malformed (400) is dropped and
 * may be sent again at the same offset.
 *
 * Partial bytes and their record live in the chunk staging (chunk-staging.ts: DATA_DIR/uploads/chunks,
 * or the bucket with STORAGE_DRIVER=s3 so any node takes any chunk; the key a hash of the binding
 * and the upload id), so they survive a restart; one chunk of an upload is received at a time
 * across nodes (an advisory lock, cluster/advisory-locks.ts); the upload sweep removes a partial that
 * received nothing for `upload_abandon_seconds`, any after UPLOAD_EXPIRY_SECONDS. The last chunk
 * finishes through finish.ts with an intent like every upload path: the data file is renamed into
 * the blob store and recorded in one transaction, so the file appears exactly once. A last chunk
 * repeated after that is a 409 `upload_complete` with `item_id`. A crash while finishing leaves
 * the intent, which the start-up recovery removes with the blob (as for a plain upload); the next
 * chunk of that id is then a 410, and the file must be sent again.
 */
export const CHUNK_SLACK = 64 * 1024;
const UPLOAD_ID = /^[A-Za-z0-9_-]{16,64}$/;

export interface ChunkFields {
  uploadId: string;
  offset: number;
  isLast: boolean;
}

/** The chunk fields of a form, checked (422 on a bad one); null for a one-shot upload. */
export function chunkFields(fields: Record<string, string>): ChunkFields | null {
  const errors: Record<string, string[]> = {};
  const rawLast = fields.is_last;
  let isLast = true;
  if (rawLast !== undefined) {
    const value = rawLast.trim().toLowerCase();
    if (value === 'true' || value === '1') isLast = true;
    else if (value === 'false' || value === '0') isLast = false;
    else errors.is_last = ['is_last must be true or false.'];
  }
  const uploadId = fields.upload_id;
  if (uploadId === undefined) {
    if (fields.offset !== undefined) errors.upload_id = ['An offset needs an upload_id.'];
    else if (!isLast && !errors.is_last) errors.upload_id = ['A chunk that is not the last needs an upload_id, sent before the file.'];
    if (Object.keys(errors).length) throw validationError(errors);
    return null;
  }
  if (rawLast === undefined) errors.is_last = ['is_last (true or false) is required with upload_id, sent before the file.'];
  if (!UPLOAD_ID.test(uploadId)) errors.upload_id = ['upload_id must be 16 to 64 letters, digits, "_" or "-".'];
  const rawOffset = fields.offset ?? '';
  const offset = /^(0|[1-9][0-9]{0,15})$/.test(rawOffset) ? Number(rawOffset) : NaN;
  if (!Number.isSafeInteger(offset)) errors.offset = ['offset must be the byte offset of this chunk (0 for the first), sent before the file.'];
  if (Object.keys(errors).length) throw validationError(errors);
  return { uploadId, offset, isLast };
}

/** A refusal that carries the upload's state in its body (a 409). */
function chunkConflict(message: string, code: string, details: { offset: number; item_id?: string }): AppError {
  return new AppError(409, message, { code, details, headers: { 'Upload-Offset': String(details.offset) } });
}

const reservationId = (key: string) => `chunk:${key}`;

function keyOf(binding: string, uploadId: string): string {
  return createHash('sha256').update(`${binding}\0${uploadId}`).digest('hex');
}

async function removePartial(ctx: AppContext, staging: ChunkStaging, key: string): Promise<void> {
  await staging.remove(key);
  await releaseReservation(ctx.db, reservationId(key));
}

/** Removes the partial behind a chunk reservation (`chunk:{key}`) and the reservation (an account being deleted). */
export async function discardChunkedUpload(ctx: AppContext, reservation: string): Promise<void> {
  const key = reservation.slice('chunk:'.length);
  if (reservation.startsWith('chunk:') && KEY.test(key)) await removePartial(ctx, await chunkStagingFor(ctx), key);
}

/**
 * Sets the upload's reservation to its running total, atomically checked against the quota (and,
 * for a new upload, the open-upload cap), and drops this request's own reservation of its body
 * (`transit`, plain.ts), which the chunk's bytes now take over.
 */
async function holdTotal(ctx: AppContext, policy: UploadPolicy, input: { key: string; ownerId: string; bytes: number; transit: string | null; isNew: boolean }): Promise<void> {
  const id = reservationId(input.key);
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    if (ctx.config.database.dialect === 'postgres') await q.lockOwnerTree(tx, input.ownerId);
    if (input.transit) await releaseReservation(tx, input.transit);
    const max = policy.settings.max_open_uploads;
    if (input.isNew && max > 0) {
      const open = await tx
        .selectFrom('upload_reservations')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('owner_id', '=', input.ownerId)
        .where('kind', 'in', ['tus', 'chunk'])
        .where('id', '!=', id)
        .executeTakeFirst();
      if (Number(open?.n ?? 0) >= max) throw tooManyOpenUploads(max);
    }
    if (policy.capacity !== null && (await committedBytes(tx, input.ownerId, id)) + input.bytes > policy.capacity) throw overQuota();
    await tx
      .insertInto('upload_reservations')
      .values({ id, owner_id: input.ownerId, kind: 'chunk', bytes: input.bytes, created_at: at, touched_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ bytes: input.bytes, touched_at: at }))
      .execute();
  });
}

export interface ChunkInput {
  /** The user's id, or `share:{id}` / `request:{id}` for a token holder (as tus.ts binds uploads). */
  binding: string;
  ownerId: string;
  target: { name: string; parentId: string | null; folders: string[] };
  declaredType: string | null | undefined;
  chunk: ChunkFields;
  /** This request's reservation of its declared body (plain.ts), released once the chunk is counted in. */
  transit: string | null;
}

export type ChunkResult = { item: ItemWithCount } | { uploadId: string; offset: number };

/** Appends one chunk (see above); the item once the last is in, else the new offset. */
export async function receiveChunk(ctx: AppContext, policy: UploadPolicy, source: Readable, input: ChunkInput): Promise<ChunkResult> {
  const staging = await chunkStagingFor(ctx);
  const key = keyOf(input.binding, input.chunk.uploadId);
  const inProgress = async () => {
    const current = await staging.read(key);
    return chunkConflict('A chunk of this upload is being received; wait for its answer.', 'chunk_in_progress', { offset: current?.offset ?? 0 });
  };
  // One chunk at a time per upload: a request of this process is answered at once; the lock (a
  // PostgreSQL advisory lock across nodes, in-process on SQLite) is waited for a little, as the
  // sweep holds it for a moment and a dead node's session takes a moment to end.
  if (live.has(key)) throw await inProgress();
  live.add(key);
  const locks = retainAdvisoryLocks(ctx);
  try {
    const deadline = Date.now() + LOCK_WAIT_MS;
    while (!(await locks.tryLock(LOCK_SPACE.chunk, key))) {
      if (Date.now() >= deadline) throw await inProgress();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    try {
      return await receiveLocked(ctx, policy, source, input, staging, key, await staging.read(key));
    } finally {
      await locks.unlock(LOCK_SPACE.chunk, key);
    }
  } finally {
    live.delete(key);
    await locks.release();
  }
}

/** Uploads a request of this process is receiving a chunk of. */
const live = new Set<string>();
const LOCK_WAIT_MS = 5_000;

async function receiveLocked(ctx: AppContext, policy: UploadPolicy, source: Readable, input: ChunkInput, staging: ChunkStaging, key: string, existing: PartialUpload | undefined): Promise<ChunkResult> {
  const { chunk, target } = input;
  const now = ctx.clock.now().toISOString();
  if (existing) {
    const same = existing.filename === target.name && existing.parent_id === target.parentId && existing.path === target.folders.join('/');
    if (!same) throw validationError({ upload_id: ['This upload_id belongs to another file (its name, folder or path differ).'] });
    if (existing.finished) throw chunkConflict('The upload is complete.', 'upload_complete', { offset: existing.offset, item_id: existing.finished.item_id });
    if (existing.finishing) return settleCrashed(ctx, staging, key, existing);
    if (chunk.offset !== existing.offset) throw chunkConflict(`The upload is at offset ${existing.offset}; send the chunk that starts there.`, 'offset_mismatch', { offset: existing.offset });
  } else if (chunk.offset !== 0) {
    // Never begun, swept, or someone else's: the same answer for each.
    throw notFound('The upload was not found; start it again at offset 0.');
  }
  const partial: PartialUpload = existing ? { ...existing } : {
    upload_id: chunk.uploadId, binding: input.binding, owner_id: input.ownerId, filename: target.name, parent_id: target.parentId,
    path: target.folders.join('/'), offset: 0, created_at: now, touched_at: now,
  };
  const total = partial.offset;
  if (existing && total > 0 && !(await staging.intact(key, existing))) {
    // Its bytes are gone (removed by hand, a disk restored from an older copy): it cannot go on.
    await removePartial(ctx, staging, key);
    throw lostUpload();
  }

  // The chunk's bytes, counted against the chunk cap, the upload limit and the free quota (whose
  // committed bytes hold this upload's running total already) as they arrive.
  const cap = policy.settings.chunk_size_bytes + CHUNK_SLACK;
  const limit = uploadLimit(policy);
  const free = await freeBytes(ctx.db, input.ownerId, policy, input.transit);
  const forLimit = limit === null ? Number.POSITIVE_INFINITY : limit - total;
  const counter = new CountingSniffer({
    max: Math.min(cap, forLimit, free ?? Number.POSITIVE_INFINITY),
    tooMany: () => (counter.bytes > cap ? chunkTooLarge(cap) : counter.bytes > forLimit ? tooLarge(policy) : overQuota()),
    // The first chunk's head judges the type, so a refused one stops before more is sent.
    onHead: async (head) => {
      if (total === 0) await judgeType(policy, head, target.name, input.declaredType);
    },
  });
  if (source.destroyed && !source.readableEnded) throw badRequest('The upload was cut off.');
  let failure: unknown;
  // The client's faults (a malformed part, a body cut short) are 400s; the chunk may be sent again.
  source.on('error', (error) => {
    failure ??= badRequest(`The multipart body is malformed or incomplete (${error instanceof Error ? error.message : String(error)}).`);
  });
  source.on('close', () => {
    if (!source.readableEnded) counter.destroy(badRequest('The upload was cut off.'));
  });
  counter.on('error', (error) => {
    failure ??= error;
  });
  try {
    await pipeline(source, counter, await staging.sink(key, existing, partial, chunk.isLast));
  } catch (error) {
    const reason = failure ?? error;
    await dropChunk(ctx, staging, key, existing, partial, reason);
    throw reason;
  }
  try {
    partial.offset = total + counter.bytes;
    partial.touched_at = now;
    await holdTotal(ctx, policy, { key, ownerId: input.ownerId, bytes: partial.offset, transit: input.transit, isNew: !existing });
    await staging.save(key, partial, existing);
  } catch (error) {
    await dropChunk(ctx, staging, key, existing, partial, error);
    throw error;
  }
  if (!chunk.isLast) return { uploadId: chunk.uploadId, offset: partial.offset };
  return { item: await finishChunked(ctx, policy, staging, key, partial, input.declaredType, existing) };
}

function chunkTooLarge(cap: number): AppError {
  return new AppError(413, `A chunk may hold at most ${cap} bytes; send smaller chunks.`, { code: 'chunk_too_large' });
}

/**
 * After a failed chunk: a chunk cut off, malformed or over the chunk cap is dropped (the file is
 * truncated back, a new upload removed) and may be sent again; any other refusal ends the upload.
 */
async function dropChunk(ctx: AppContext, staging: ChunkStaging, key: string, existing: PartialUpload | undefined, next: PartialUpload, error: unknown): Promise<void> {
  // The storage down (503, S3 staging) is not the upload's fault either: what it did not store is sent again.
  const retryable = isStorageUnavailable(error) || (isAppError(error) && (error.status === 400 || error.code === 'chunk_too_large'));
  try {
    if (retryable && existing) await staging.rollback(key, existing, next);
    else await removePartial(ctx, staging, key);
  } catch (cleanup) {
    ctx.logger.error({ err: cleanup, key }, 'could not clean up a failed chunk');
  }
}

/** The last chunk is in: the data file becomes the item, exactly once (finish.ts and its intent). */
async function finishChunked(ctx: AppContext, policy: UploadPolicy, staging: ChunkStaging, key: string, partial: PartialUpload, declaredType: string | null | undefined, beforeLast: PartialUpload | undefined): Promise<ItemWithCount> {
  let item: ItemWithCount;
  let blobKey: string | null = null;
  try {
    // An empty file has no first bytes to sniff: not asked of the staging (some S3 servers drop a Range request on an empty object).
    const mimetype = await judgeType(policy, partial.offset === 0 ? new Uint8Array(0) : await staging.readHead(key, partial), partial.filename, declaredType);
    blobKey = newBlobKey(partial.owner_id);
    await staging.save(key, { ...partial, finishing: { blob_key: blobKey } });
    await recordIntent(ctx, { blob_key: blobKey, owner_id: partial.owner_id, upload_id: null, finish: null });
    const stored = await staging.adopt(blobKey, key, partial);
    item = await finishUpload(ctx, policy, {
      ownerId: partial.owner_id, parentId: partial.parent_id, folders: partial.path ? partial.path.split('/') : [], name: partial.filename,
      mimetype, size: stored.size, blobKey, reservationId: reservationId(key),
    });
  } catch (error) {
    if (isStorageUnavailable(error)) {
      // The storage is down (503): the upload goes back to before its last chunk, which may be
      // sent again once the storage is back (its bytes are cut off then, as for any retry).
      if (blobKey) await discardBlob(ctx, blobKey);
      const committed = beforeLast ?? { ...partial, offset: 0, staged: undefined };
      const reopened = await staging.reopen(key, committed, partial).catch((e: unknown) => {
        ctx.logger.error({ err: e, key }, 'could not reopen a chunked upload');
        return true;
      });
      if (!reopened) await removePartial(ctx, staging, key).catch((e: unknown) => ctx.logger.error({ err: e, key }, 'could not remove a lost chunked upload'));
      throw error;
    }
    // Refused at the end (the type, the quota, the folder gone): the upload is over (finishUpload
    // removed its blob already; one that failed before it is removed here).
    if (blobKey) await discardBlob(ctx, blobKey);
    await removePartial(ctx, staging, key).catch((e: unknown) => ctx.logger.error({ err: e, key }, 'could not remove a refused chunked upload'));
    throw error;
  }
  await staging.save(key, { ...partial, finished: { item_id: item.id, at: ctx.clock.now().toISOString() } });
  return item;
}

/** A partial a crash caught while finishing: its item if it was recorded, else it is lost (410). */
async function settleCrashed(ctx: AppContext, staging: ChunkStaging, key: string, partial: PartialUpload): Promise<never> {
  const item = await findFileByBlobKey(ctx.db, partial.finishing!.blob_key);
  if (item) {
    await staging.save(key, { ...partial, finished: { item_id: item.id, at: ctx.clock.now().toISOString() } });
    throw chunkConflict('The upload is complete.', 'upload_complete', { offset: partial.offset, item_id: item.id });
  }
  await removePartial(ctx, staging, key);
  throw lostUpload();
}

/**
 * The chunk half of the upload sweep (tus.ts sweepUploads): partials that received nothing for
 * `upload_abandon_seconds` or began more than UPLOAD_EXPIRY_SECONDS ago, with their reservations;
 * finished records after UPLOAD_EXPIRY_SECONDS; data files without a record after that too.
 * Partials this process is writing are left alone. Driven by ctx.clock.
 */
export async function sweepChunks(ctx: AppContext, settings: Settings): Promise<number> {
  const staging = await chunkStagingFor(ctx);
  const now = ctx.clock.now().getTime();
  const expired = now - ctx.config.uploads.expiryMs;
  const abandoned = now - settings.upload_abandon_seconds * 1000;
  const records = new Set(await staging.listKeys());
  const locks = retainAdvisoryLocks(ctx);
  let removed = 0;
  try {
    for (const key of records) {
      // A chunk being received (on any node) keeps its upload.
      if (!(await locks.tryLock(LOCK_SPACE.chunk, key))) continue;
      try {
        const partial = await staging.read(key);
        const created = Date.parse(partial?.created_at ?? '');
        const touched = Date.parse(partial?.touched_at ?? '');
        const keep = partial?.finished
          ? Date.parse(partial.finished.at) > expired
          : Number.isFinite(created) && created > expired && Number.isFinite(touched) && touched > abandoned;
        if (keep) continue;
        await removePartial(ctx, staging, key);
        records.delete(key);
        removed += 1;
      } finally {
        await locks.unlock(LOCK_SPACE.chunk, key);
      }
    }
  } finally {
    await locks.release();
  }
  return removed + (await staging.sweepOrphans(expired, records));
}
