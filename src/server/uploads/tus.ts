import type { IncomingMessage, ServerResponse } from 'node:http';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, Upload } from '@tus/server';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireTargetFolder } from '../files/access.ts';
import { presentItem } from '../files/presenter.ts';
import { findItemWithCount, type ItemWithCount } from '../files/queries.ts';
import { requireDataUser, sendJson } from '../http/data-auth.ts';
import { isAppError } from '../http/errors.ts';
import { openShareForData } from '../sharing/data-plane.ts';
import { openRequestForData } from '../upload-requests/data-plane.ts';
import { runEvery } from '../jobs/every.ts';
import { checkBeforeBytes, uploadPolicy } from './limits.ts';
import { relativeFolders, uploadName } from './names.ts';
import { completeTusUpload, readUploadInfo, type StoredUpload } from './tus-finish.ts';

/**
 * Resumable uploads over tus 1.0 at /api/upload/tus (@tus/server + @tus/file-store): core,
 * creation, creation-with-upload, termination and expiration. (@tus/file-store offers no checksum
 * extension and we do not advertise one; creation-defer-length is switched off: the length must be
 * known to check the limits before the bytes flow.)
 *
 * - Every request, OPTIONS included, is signed in with requireDataUser (bearer token, or the
 *   session cookie with our Origin and X-Requested-With on writes). CORS is answered for our own
 *   origin only.
 * - Metadata keys: `filename`, `filetype`, `parent_id` ('' for home), `path` (a folder upload's
 *   relative folder). The server adds `owner`: each upload id is bound to the user who created it,
 *   and any request for another user's id is a 404, like an id that does not exist.
 * - A share link's editor or an upload request's holder uploads here too, with the header
 *   `X-Share-Token` or `X-Upload-Request-Token` on every request instead of a sign-in: the upload
 *   is bound to that link (`binding`), goes into the owner's storage and quota, and is checked
 *   against the link again on every request (a revoked link stops it at once).
 * - GET of an upload is refused to everyone (405): bytes are only served as files.
 * - PATCH with a Content-Type other than application/offset+octet-stream is a 415.
 * - The request that completes the upload (the last PATCH, or a POST with the whole body) answers
 *   with headers `X-Item-Id` (the new item's id) and `X-Item` (the item resource `{ data }` as
 *   percent-encoded JSON: `JSON.parse(decodeURIComponent(value))`). A HEAD of a finished upload
 *   answers the same headers with Upload-Offset = Upload-Length, so a client that lost that answer
 *   and resumes learns it is done instead of starting over; finished records go after the expiry.
 * - Refusals answer the status of limits.ts with a JSON body `{ message, code?, errors? }`.
 * - Upload files live in DATA_DIR/uploads/tus (data plus `<id>.json` metadata), so an upload
 *   resumes after a server restart; the sweep removes unfinished ones after UPLOAD_EXPIRY_SECONDS.
 */
export const TUS_PATH = '/api/upload/tus';
const ID = /^[0-9a-f]{32}$/;

export function isTusRequest(pathname: string): boolean {
  return pathname === TUS_PATH || pathname.startsWith(`${TUS_PATH}/`);
}

interface TusUploads {
  server: Server;
  store: FileStore;
  directory: string;
  users: WeakMap<IncomingMessage, User>;
  /** What an upload is bound to: the user's id, or `share:{id}` / `request:{id}` for a token holder. */
  bindings: WeakMap<IncomingMessage, string>;
}

const instances = new WeakMap<AppContext, TusUploads>();

/** The file store, knowing finished uploads: their data is in the blob store, their offset is their size. */
class UploadStore extends FileStore {
  private readonly ctx: AppContext;

  constructor(ctx: AppContext, options: ConstructorParameters<typeof FileStore>[0]) {
    super(options);
    this.ctx = ctx;
  }

  override async getUpload(id: string): Promise<Upload> {
    const info = (await this.configstore.get(id)) as StoredUpload | undefined;
    const whole = (i: StoredUpload) => new Upload({ id, size: i.size, offset: i.size ?? 0, metadata: i.metadata ?? {}, ...(i.creation_date ? { creation_date: i.creation_date } : {}) });
    if (info?.finished) return whole(info);
    try {
      return await super.getUpload(id);
    } catch (error) {
      // The data file went into the blob store under this request's feet: the upload is finishing
      // (or a crash left it so). Wait for that (or finish it) rather than answer 410.
      const owner = info?.metadata?.owner;
      if ((error as { status_code?: number }).status_code !== 410 || !info || info.size === undefined || !owner) throw error;
      await completeTusUpload(this.ctx, { id, ownerId: owner }).catch(() => {
        throw error;
      });
      return whole(info);
    }
  }
}

function nodeRequest(req: unknown): IncomingMessage | undefined {
  return (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
}

/** A domain error as the tus server throws it: the status, and our JSON body. */
function tusError(error: unknown): unknown {
  if (!isAppError(error)) return error;
  return { status_code: error.status, body: JSON.stringify({ message: error.message, ...(error.code ? { code: error.code } : {}), ...(error.errors ? { errors: error.errors } : {}) }) };
}

function itemHeaders(item: ItemWithCount | undefined, id: string): Record<string, string> {
  const headers: Record<string, string> = { 'X-Item-Id': id };
  if (item) headers['X-Item'] = encodeURIComponent(JSON.stringify(presentItem(item)));
  return headers;
}

function uploadsFor(ctx: AppContext): TusUploads {
  const existing = instances.get(ctx);
  if (existing) return existing;
  const directory = path.join(ctx.config.dataDir, 'uploads', 'tus');
  const store = new UploadStore(ctx, { directory, expirationPeriodInMilliseconds: ctx.config.uploads.expiryMs });
  store.extensions = store.extensions.filter((e) => e !== 'creation-defer-length');
  const users = new WeakMap<IncomingMessage, User>();
  const bindings = new WeakMap<IncomingMessage, string>();

  const onUploadCreate = async (req: unknown, upload: Upload) => {
    const user = users.get(nodeRequest(req)!);
    if (!user) throw { status_code: 401, body: JSON.stringify({ message: 'Unauthenticated.' }) };
    try {
      const meta = upload.metadata ?? {};
      const name = uploadName(meta.filename ?? meta.name);
      const folders = relativeFolders(meta.path);
      const parent = await requireTargetFolder(ctx, user, meta.parent_id ? meta.parent_id : null, 'parent_id');
      const declaredType = meta.filetype ?? meta.type ?? '';
      await checkBeforeBytes(ctx, user, await uploadPolicy(ctx), { name, declaredType, size: upload.size ?? null });
      // Only the keys we know, as checked, and the owner, which the client cannot set.
      const binding = bindings.get(nodeRequest(req)!) ?? user.id;
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
      if (!isAppError(error)) ctx.logger.error({ err: error, upload: upload.id }, 'finishing a tus upload failed');
      throw tusError(error);
    }
  };

  const server = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    respectForwardedHeaders: false,
    allowedOrigins: (origin) => origin === ctx.config.appUrl.origin,
    allowedHeaders: ['X-Requested-With'],
    exposedHeaders: ['X-Item-Id', 'X-Item'],
    onUploadCreate: onUploadCreate as never,
    onUploadFinish: onUploadFinish as never,
  });
  const instance = { server, store, directory, users, bindings };
  instances.set(ctx, instance);
  return instance;
}

async function discard(directory: string, id: string): Promise<void> {
  await rm(path.join(directory, id), { force: true });
  await rm(path.join(directory, `${id}.json`), { force: true });
}

function tusRefusal(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { message }, { 'Tus-Resumable': '1.0.0', ...headers });
}

/** The data-plane route for /api/upload/tus and /api/upload/tus/{id}. */
export async function handleTus(ctx: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const method = req.method ?? 'GET';
  const rest = pathname.slice(TUS_PATH.length).replace(/^\/|\/$/g, '');
  const id = rest === '' ? null : rest;
  if (method === 'GET') return tusRefusal(res, 405, 'Uploads are not served; download the file instead.', { Allow: 'HEAD, PATCH, DELETE, OPTIONS' });
  const auth = await tusActor(ctx, req, res);
  if (!auth) return void req.resume();
  const tus = uploadsFor(ctx);
  if (id === null) {
    if (method !== 'POST' && method !== 'OPTIONS') return tusRefusal(res, 405, 'Method not allowed.', { Allow: 'POST, OPTIONS' });
  } else {
    if (method === 'POST') return tusRefusal(res, 405, 'Method not allowed.', { Allow: 'HEAD, PATCH, DELETE, OPTIONS' });
    const info = ID.test(id) ? ((await tus.store.configstore.get(id)) as StoredUpload | undefined) : undefined;
    if (!info || (info.metadata?.binding ?? info.metadata?.owner) !== auth.binding) {
      req.resume();
      return tusRefusal(res, 404, 'The upload was not found.');
    }
    if (!info.finished && (method === 'HEAD' || method === 'PATCH') && (await leftComplete(tus, info))) {
      // A crash came after the last byte and before the item was recorded: finish it now.
      req.resume();
      try {
        await completeTusUpload(ctx, { id: info.id, ownerId: info.metadata?.owner ?? '' });
      } catch (error) {
        if (!isAppError(error)) throw error;
        return sendJson(res, error.status, { message: error.message, ...(error.code ? { code: error.code } : {}), ...(error.errors ? { errors: error.errors } : {}) }, { 'Tus-Resumable': '1.0.0' });
      }
      return answerFinished(ctx, req, res, tus, (await readUploadInfo(tus.directory, info.id)) ?? info);
    }
    if (info.finished) return answerFinished(ctx, req, res, tus, info);
    if (method === 'PATCH') {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/offset+octet-stream') {
        req.resume();
        return tusRefusal(res, 415, 'A PATCH body must be sent as application/offset+octet-stream.');
      }
    }
  }
  tus.users.set(req, auth.user);
  tus.bindings.set(req, auth.binding);
  await tus.server.handle(req, res);
}

/** Who uploads: a signed-in user, or a token holder acting as the owner inside the link's scope. */
async function tusActor(ctx: AppContext, req: IncomingMessage, res: ServerResponse): Promise<{ user: User; binding: string } | null> {
  const shareToken = req.headers['x-share-token'];
  const requestToken = req.headers['x-upload-request-token'];
  if (typeof shareToken === 'string') {
    const opened = await openShareForData(ctx, req, res, shareToken, 'write');
    return opened && { user: opened.actor, binding: `share:${opened.share.id}` };
  }
  if (typeof requestToken === 'string') {
    const opened = await openRequestForData(ctx, req, res, requestToken);
    return opened && { user: opened.actor, binding: `request:${opened.request.id}` };
  }
  const auth = await requireDataUser(ctx, req, res);
  return auth && { user: auth.user, binding: auth.user.id };
}

/** All its bytes arrived (or already moved to the blob store), yet it is not marked finished. */
async function leftComplete(tus: TusUploads, info: StoredUpload): Promise<boolean> {
  if (info.size === undefined) return false;
  const size = (await stat(path.join(tus.directory, info.id)).catch(() => null))?.size;
  return size === undefined || size === info.size;
}

/** HEAD, PATCH and DELETE of an upload that is already an item. */
async function answerFinished(ctx: AppContext, req: IncomingMessage, res: ServerResponse, tus: TusUploads, info: StoredUpload): Promise<void> {
  req.resume();
  const size = info.size ?? 0;
  const method = req.method;
  if (method === 'DELETE') {
    await rm(path.join(tus.directory, `${info.id}.json`), { force: true });
    return void res.writeHead(204, { 'Tus-Resumable': '1.0.0' }).end();
  }
  const item = await findItemWithCount(ctx.db, info.finished!.item_id);
  const live = item && item.owner_id === info.metadata?.owner && item.deleted_at === null ? item : undefined;
  const headers = { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(size), 'Upload-Length': String(size), 'Cache-Control': 'no-store', ...itemHeaders(live, info.finished!.item_id) };
  if (method === 'HEAD') return void res.writeHead(200, headers).end();
  if (method === 'PATCH' && req.headers['upload-offset'] === String(size)) return void res.writeHead(204, headers).end();
  if (method === 'PATCH') return tusRefusal(res, 409, 'The upload is complete.', { 'Upload-Offset': String(size) });
  res.writeHead(204, { 'Tus-Resumable': '1.0.0', 'Tus-Version': '1.0.0' }).end();
}

/**
 * The expiry sweep: unfinished uploads older than UPLOAD_EXPIRY_SECONDS (their data and metadata),
 * finished records as old, data files without metadata, and temporary blob files left by a crash.
 */
export async function sweepUploads(ctx: AppContext): Promise<{ removed: number }> {
  const directory = path.join(ctx.config.dataDir, 'uploads', 'tus');
  const cutoff = ctx.clock.now().getTime() - ctx.config.uploads.expiryMs;
  let removed = 0;
  let names: string[] = [];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const metadata = new Set(names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)));
  for (const id of metadata) {
    if (!ID.test(id)) continue;
    const info = (await uploadsFor(ctx).store.configstore.get(id)) as StoredUpload | undefined;
    const since = Date.parse(info?.finished?.at ?? info?.creation_date ?? '');
    if (info && Number.isFinite(since) && since > cutoff) continue;
    await discard(directory, id);
    removed += 1;
  }
  for (const name of names) {
    if (!ID.test(name) || metadata.has(name)) continue;
    const s = await stat(path.join(directory, name)).catch(() => null);
    if (s && s.mtimeMs < cutoff) {
      await rm(path.join(directory, name), { force: true });
      removed += 1;
    }
  }
  const tmp = path.join(ctx.config.dataDir, 'blobs', '.tmp');
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    const s = await stat(path.join(tmp, name)).catch(() => null);
    if (s && s.mtimeMs < cutoff) {
      await rm(path.join(tmp, name), { force: true });
      removed += 1;
    }
  }
  if (removed > 0) ctx.logger.info({ removed }, 'swept expired uploads');
  return { removed };
}

/** Runs the sweep at boot and then every UPLOAD_SWEEP_SECONDS; the returned function stops it. */
export function scheduleUploadSweep(ctx: AppContext): () => Promise<void> {
  return runEvery(ctx, 'upload sweep', ctx.config.uploads.sweepMs, () => sweepUploads(ctx));
}
