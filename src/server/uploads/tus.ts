import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server, type Upload } from '@tus/server';
import { sendNodeResponse } from 'srvx/node';
import { actorOf, bindingOf, uploader, viewOfNode, type Principal } from '../auth/principal.ts';
import type { Actor } from '../files/access.ts';
import type { AppContext } from '../context.ts';
import { requireTargetFolder, requireWritableScope } from '../files/access.ts';
import { principalFor } from '../teams/actor.ts';
import { presentItem } from '../files/presenter.ts';
import { findItemWithCount, type ItemWithCount } from '../files/queries.ts';
import { dataRoute, type DataRequest } from '../http/data-route.ts';
import { webRequestOf } from '../http/web-body.ts';
import { AppError, badRequest, errorBody, isAppError, notFound, unsupportedMediaType } from '../http/errors.ts';
import { runEvery } from '../jobs/every.ts';
import { getSettings } from '../settings/service.ts';
import { checkBeforeBytes, uploadPolicy } from './limits.ts';
import { releaseReservation, renewLiveReservations, reserve, sweepReservations, touchReservation } from './reservations.ts';
import { relativeFolders, uploadName } from './names.ts';
import { isStorageUnavailable } from '../blobs/errors.ts';
import { completeTusUpload, type StoredUpload } from './tus-finish.ts';
import { ID, stagingFor, type TusStaging } from './tus-staging.ts';
import { sweepChunks } from './chunks.ts';
import { tusLocker } from './tus-locker.ts';

/**
 * Resumable uploads over tus 1.0 at /api/upload/tus (@tus/server, staged by tus-staging.ts): core,
 * creation, creation-with-upload, termination and expiration. (@tus/file-store offers no checksum
 * extension and we do not advertise one; creation-defer-length is switched off: the length must be
 * known to check the limits before the bytes flow.)
 *
 * - Every request, OPTIONS included, has its principal (auth/principal.ts `uploader`: a bearer
 *   token, or the session cookie with our Origin and X-Requested-With on writes, or a link's
 *   token below). CORS is answered for our own origin only.
 * - Metadata keys: `filename`, `filetype`, `parent_id` ('' for home), `path` (a folder upload's
 *   relative folder). The server adds `owner`: each upload id is bound to the user who created it,
 *   and any request for another user's id is a 404, like an id that does not exist.
 * - A share link's editor or an upload request's holder uploads here too, with the header
 *   `X-Share-Token` or `X-Upload-Request-Token` on every request instead of a sign-in: the upload
 *   is bound to that link (principal.ts `bindingOf`), goes into the owner's storage and quota, and
 *   is checked against the link again on every request (a revoked link stops it at once). Who
 *   uploaded is told through the `upload.finished` event (tus-finish.ts), nothing more.
 * - GET of an upload is refused to everyone (405): bytes are only served as files.
 * - PATCH with a Content-Type other than application/offset+octet-stream is a 415.
 * - The request that completes the upload (the last PATCH, or a POST with the whole body) answers
 *   with headers `X-Item-Id` (the new item's id) and `X-Item` (the item resource `{ data }` as
 *   percent-encoded JSON: `JSON.parse(decodeURIComponent(value))`). A HEAD of a finished upload
 *   answers the same headers with Upload-Offset = Upload-Length, so a client that lost that answer
 *   and resumes learns it is done instead of starting over; finished records go after the expiry.
 * - Refusals answer the status of limits.ts with errors.ts `errorBody`: `{ message, code?, errors? }`.
 * - Creation reserves the Upload-Length against the owner's quota and counts against the cap of
 *   open uploads (`max_open_uploads`), atomically (reservations.ts); the reservation goes when the
 *   upload becomes an item, is terminated (DELETE) or is swept.
 * - Uploads in progress are staged (tus-staging.ts) in DATA_DIR/uploads/tus (data plus `<id>.json`
 *   metadata), or in the bucket under `uploads/tus/` with STORAGE_DRIVER=s3, so an upload resumes
 *   after a server restart, or on another app node (sharing DATA_DIR, or any node on S3; the
 *   upload's lock is a PostgreSQL advisory lock then, tus-locker.ts); the sweep removes an unfinished one once nothing arrived for
 *   `upload_abandon_seconds` (a setting), and any after UPLOAD_EXPIRY_SECONDS (the hard maximum,
 *   from its creation; Upload-Expires names that one).
 */
export const TUS_PATH = '/api/upload/tus';

export function isTusRequest(pathname: string): boolean {
  return pathname === TUS_PATH || pathname.startsWith(`${TUS_PATH}/`);
}

interface TusUploads {
  server: Server;
  staging: TusStaging;
  /** The principal of each request the tus server is handling. */
  principals: WeakMap<IncomingMessage, Principal>;
}

const instances = new WeakMap<AppContext, Promise<TusUploads>>();

function nodeRequest(req: unknown): IncomingMessage | undefined {
  return (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
}

/** A domain error as the tus server throws it: the status, and our JSON body. */
function tusError(error: unknown): unknown {
  if (!isAppError(error)) return error;
  return { status_code: error.status, body: JSON.stringify(errorBody(error)) };
}

function itemHeaders(item: ItemWithCount | undefined, id: string): Record<string, string> {
  const headers: Record<string, string> = { 'X-Item-Id': id };
  if (item) headers['X-Item'] = encodeURIComponent(JSON.stringify(presentItem(item)));
  return headers;
}

function uploadsFor(ctx: AppContext): Promise<TusUploads> {
  let existing = instances.get(ctx);
  if (!existing) {
    existing = stagingFor(ctx).then((staging) => createUploads(ctx, staging));
    instances.set(ctx, existing);
  }
  return existing;
}

function createUploads(ctx: AppContext, staging: TusStaging): TusUploads {
  const principals = new WeakMap<IncomingMessage, Principal>();

  const onUploadCreate = async (req: unknown, upload: Upload) => {
    const asked = principals.get(nodeRequest(req)!);
    if (!asked) throw tusError(new AppError(401, 'Unauthenticated.', { code: 'unauthenticated' }));
    try {
      const meta = upload.metadata ?? {};
      // Into a team folder the user is a member of: as its owner, scoped to it (teams/actor.ts).
      const principal = asked.kind === 'user' ? await principalFor(ctx, asked, [meta.parent_id]) : asked;
      const user: Actor = actorOf(principal);
      requireWritableScope(user);
      const name = uploadName(meta.filename ?? meta.name);
      const folders = relativeFolders(meta.path);
      const parent = await requireTargetFolder(ctx, user, meta.parent_id ? meta.parent_id : null, 'parent_id');
      const declaredType = meta.filetype ?? meta.type ?? '';
      // creation-defer-length is switched off, so @tus/server has refused a creation without a length.
      if (upload.size === undefined) throw badRequest('Upload-Length is required.');
      if (!Number.isSafeInteger(upload.size) || upload.size < 0) throw badRequest('Upload-Length is not a valid length.');
      const policy = await uploadPolicy(ctx, user);
      await checkBeforeBytes(ctx, user, policy, { name, declaredType, size: upload.size });
      // The last step of the checks: nothing refuses the upload after its bytes are promised.
      await reserve(ctx, policy, { id: upload.id, ownerId: user.id, kind: 'tus', bytes: upload.size });
      // Only the keys we know, as checked, and the owner, which the client cannot set.
      const binding = bindingOf(principal);
      return { metadata: { filename: name, filetype: declaredType, parent_id: parent?.id ?? '', path: folders.join('/'), owner: user.id, binding } };
    } catch (error) {
      throw tusError(error);
    }
  };

  const onUploadFinish = async (_req: unknown, upload: Upload) => {
    try {
      // Crash-safe and idempotent (tus-finish.ts): the upload's files go when it fails.
      const item = await completeTusUpload(ctx, { id: upload.id, ownerId: upload.metadata?.owner ?? '' });
      return { headers: itemHeaders(item, item.id) };
    } catch (error) {
      // The storage being down ends nothing: the upload stays, reserved, for its next HEAD or PATCH.
      if (!isStorageUnavailable(error)) await releaseReservation(ctx.db, upload.id).catch((e: unknown) => ctx.logger.error({ err: e, upload: upload.id }, 'could not release an upload reservation'));
      if (!isAppError(error)) ctx.logger.error({ err: error, upload: upload.id }, 'finishing a tus upload failed');
      throw tusError(error);
    }
  };

  const server = new Server({
    path: TUS_PATH,
    datastore: staging.store,
    relativeLocation: true,
    respectForwardedHeaders: false,
    allowedOrigins: (origin) => origin === ctx.config.appUrl.origin,
    allowedHeaders: ['X-Requested-With'],
    exposedHeaders: ['X-Item-Id', 'X-Item'],
    onUploadCreate: onUploadCreate as never,
    onUploadFinish: onUploadFinish as never,
    locker: tusLocker(ctx),
  });
  return { server, staging, principals };
}

/** Removes an unfinished tus upload's files and its reservation (an account being deleted). */
export async function discardTusUpload(ctx: AppContext, id: string): Promise<void> {
  if (!ID.test(id)) return;
  await (await stagingFor(ctx)).discard(id);
  await releaseReservation(ctx.db, id);
}

const TUS_HEADERS = { 'Tus-Resumable': '1.0.0' };

/** The data-plane route for /api/upload/tus and /api/upload/tus/{id}. */
export const handleTus = dataRoute({
  // GET of an upload is refused to everyone: bytes are only served as files.
  methods: (pathname) => (pathname.slice(TUS_PATH.length).replace(/^\/|\/$/g, '') === '' ? ['POST', 'OPTIONS'] : ['HEAD', 'PATCH', 'DELETE', 'OPTIONS']),
  methodMessage: (method) => (method === 'GET' ? 'Uploads are not served; download the file instead.' : 'Method not allowed.'),
  principal: (ctx, req, pathname) => uploader(ctx, viewOfNode(req, pathname)),
  handle: handleTusRequest,
  refusalHeaders: TUS_HEADERS,
});

async function handleTusRequest({ ctx, req, res, pathname, principal }: DataRequest<Principal>): Promise<void> {
  const method = req.method ?? 'GET';
  const rest = pathname.slice(TUS_PATH.length).replace(/^\/|\/$/g, '');
  const id = rest === '' ? null : rest;
  const tus = await uploadsFor(ctx);
  if (id === null) {
    // The length is reserved against the quota at creation, so it must be known then (a 4xx, not the library's 501).
    if (method === 'POST' && req.headers['upload-defer-length'] !== undefined) throw badRequest('Upload-Length is required: uploads of a length not yet known are not supported.');
  } else {
    const info = ID.test(id) ? await tus.staging.readInfo(id) : undefined;
    // A member's upload into a team folder is theirs while the membership lasts (asked again at every request).
    const resuming = info && principal.kind === 'user' ? await principalFor(ctx, principal, [info.metadata?.parent_id]) : principal;
    if (!info || (info.metadata?.binding ?? info.metadata?.owner) !== bindingOf(resuming)) throw notFound('The upload was not found.');
    if (!info.finished && (method === 'HEAD' || method === 'PATCH') && (await leftComplete(tus, info))) {
      // A crash came after the last byte and before the item was recorded: finish it now.
      req.resume();
      await completeTusUpload(ctx, { id: info.id, ownerId: info.metadata?.owner ?? '' });
      return answerFinished(ctx, req, res, tus, (await tus.staging.readInfo(info.id)) ?? info);
    }
    if (info.finished) return answerFinished(ctx, req, res, tus, info);
    if (method === 'PATCH') {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/offset+octet-stream') throw unsupportedMediaType('A PATCH body must be sent as application/offset+octet-stream.');
      // A sign of life: the sweep measures abandonment from the last one.
      await touchReservation(ctx, id);
      tus.staging.announceLength?.(id, Number(req.headers['content-length'] ?? Number.NaN));
    }
  }
  tus.principals.set(req, principal);
  // What Server.handle does, with the body read without a copy of every chunk (http/web-body.ts).
  await sendNodeResponse(res, await tus.server.handleWeb(webRequestOf(req, res)));
}

/** All its bytes arrived (or already moved to the blob store), yet it is not marked finished. */
async function leftComplete(tus: TusUploads, info: StoredUpload): Promise<boolean> {
  if (info.size === undefined) return false;
  const size = await tus.staging.stagedSize(info.id);
  return size === undefined || size === info.size;
}

/** HEAD, PATCH and DELETE of an upload that is already an item. */
async function answerFinished(ctx: AppContext, req: IncomingMessage, res: ServerResponse, tus: TusUploads, info: StoredUpload): Promise<void> {
  req.resume();
  const size = info.size ?? 0;
  const method = req.method;
  if (method === 'DELETE') {
    await tus.staging.discard(info.id);
    return void res.writeHead(204, { 'Tus-Resumable': '1.0.0' }).end();
  }
  const item = await findItemWithCount(ctx.db, info.finished!.item_id);
  const live = item && item.owner_id === info.metadata?.owner && item.deleted_at === null ? item : undefined;
  const headers = { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(size), 'Upload-Length': String(size), 'Cache-Control': 'no-store', ...itemHeaders(live, info.finished!.item_id) };
  if (method === 'HEAD') return void res.writeHead(200, headers).end();
  if (method === 'PATCH' && req.headers['upload-offset'] === String(size)) return void res.writeHead(204, headers).end();
  if (method === 'PATCH') throw new AppError(409, 'The upload is complete.', { headers: { 'Upload-Offset': String(size) } });
  res.writeHead(204, { 'Tus-Resumable': '1.0.0', 'Tus-Version': '1.0.0' }).end();
}

/**
 * The upload sweep: unfinished tus uploads that received nothing for `upload_abandon_seconds` or
 * began more than UPLOAD_EXPIRY_SECONDS ago (their data, metadata and reservation), finished
 * records after UPLOAD_EXPIRY_SECONDS, data files without metadata, chunked uploads' partials
 * (chunks.ts sweepChunks, by the same rules), temporary blob files no live
 * request is writing and untouched for `upload_idle_seconds` (a plain upload whose request or
 * process died), then reservations with no sign of life (reservations.ts sweepReservations).
 * Driven by ctx.clock, so a test runs it with a later clock instead of waiting.
 */
export async function sweepUploads(ctx: AppContext): Promise<{ removed: number }> {
  const staging = await stagingFor(ctx);
  const settings = await getSettings(ctx);
  const now = ctx.clock.now().getTime();
  const cutoff = now - ctx.config.uploads.expiryMs;
  const abandonCutoff = now - settings.upload_abandon_seconds * 1000;
  let removed = 0;
  const metadata = await staging.listIds();
  const touched = await lastTouched(ctx, metadata);
  for (const id of metadata) {
    const info = await staging.readInfo(id);
    if (info?.finished) {
      const since = Date.parse(info.finished.at);
      if (Number.isFinite(since) && since > cutoff) continue;
    } else if (info) {
      const created = Date.parse(info.creation_date ?? '');
      // A PATCH still writing keeps the upload's last write fresh.
      const written = await staging.writtenAt(id);
      const lastSign = Math.max(Number.isFinite(created) ? created : 0, written, touched.get(id) ?? 0);
      if (Number.isFinite(created) && created > cutoff && lastSign > abandonCutoff) {
        // Keeps the reservation of an upload still being written alive for the database half of the
        // sweep (and other app nodes' sweeps); written only once it is half-way to abandonment.
        const touchedAt = touched.get(id) ?? 0;
        if (lastSign > touchedAt && touchedAt < now - (now - abandonCutoff) / 2) await ctx.db.updateTable('upload_reservations').set({ touched_at: new Date(lastSign).toISOString() }).where('id', '=', id).execute();
        continue;
      }
    }
    await staging.discard(id);
    await releaseReservation(ctx.db, id);
    removed += 1;
  }
  removed += await staging.sweepOrphans(cutoff, new Set(metadata));
  removed += await sweepChunks(ctx, settings);
  removed += (await ctx.blobs.sweepTemporary?.(new Date(now - settings.upload_idle_seconds * 1000))) ?? 0;
  const released = await sweepReservations(ctx, settings);
  if (removed > 0 || released > 0) ctx.logger.info({ removed, released }, 'swept expired uploads');
  return { removed };
}

/** When each upload's reservation last showed a sign of life (ms), in bounded batches. */
async function lastTouched(ctx: AppContext, ids: string[]): Promise<Map<string, number>> {
  const touched = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await ctx.db.selectFrom('upload_reservations').select(['id', 'touched_at']).where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const row of rows) touched.set(row.id, Date.parse(row.touched_at));
  }
  return touched;
}

/**
 * Runs the sweep at boot and then every UPLOAD_SWEEP_SECONDS on one node at a time (jobs/every.ts);
 * every node renews its own live plain uploads' reservations at each tick. The returned function stops it.
 */
export function scheduleUploadSweep(ctx: AppContext): () => Promise<void> {
  return runEvery(ctx, 'upload sweep', ctx.config.uploads.sweepMs, () => sweepUploads(ctx), { everyNode: () => renewLiveReservations(ctx) });
}
