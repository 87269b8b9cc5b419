import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { actorOf, bindingOf, requireSignedIn, requireWrite, viewOfNode, type Principal } from '../auth/principal.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireTargetFolder, requireWritableScope } from '../files/access.ts';
import { principalFor } from '../teams/actor.ts';
import { itemDataFor } from '../files/endpoints.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { sendJson } from '../http/data-auth.ts';
import { dataRoute, declaredLength, type DataHandler } from '../http/data-route.ts';
import { badRequest, isAppError, unsupportedMediaType, validationError } from '../http/errors.ts';
import { chunkFields, receiveChunk, type ChunkResult } from './chunks.ts';
import { finishUpload, uploadFinished } from './finish.ts';
import { discardBlob } from './intents.ts';
import { assertCanUpload, assertTypeAllowed, checkBeforeBytes, tooLarge, uploadLimit, uploadPolicy, type UploadPolicy } from './limits.ts';
import { relativeFolders, uploadName } from './names.ts';
import { receiveToBlob, type Received } from './receive.ts';
import { withPlainReservation } from './reservations.ts';

/**
 * POST /api/upload: one file in one request (SPEC §7), answered 201 with the item resource.
 *
 * - `multipart/form-data` (Uppy's xhr-upload): fields `filename`, `parent_id` ('' or absent for
 *   home), `path` (a folder upload's relative folder, `Photos/2024`), `extension`, and the bytes
 *   in the part `file`. Parsed as a stream; the file is never held in memory.
 * - `application/octet-stream`: the body is the file; the name in `X-File-Name` (percent-encoded
 *   UTF-8) or `?filename=`, and `parent_id` / `path` in the query. From curl:
 *   `curl -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/octet-stream"
 *    -H "X-File-Name: report.pdf" --data-binary @report.pdf https://host/api/upload?parent_id=…`
 *
 * Refusals (limits.ts) come before the bytes where the declared length allows, else the moment
 * the counted bytes pass a limit; the connection is then closed rather than read to the end.
 * A declared length is reserved against the quota while the bytes flow (reservations.ts), so
 * parallel uploads cannot together pass it. A malformed or cut-off multipart body is a 400 and
 * leaves nothing behind; a request that sends nothing for `upload_idle_seconds` is cut off.
 *
 * The multipart form also takes a file in chunks (chunks.ts): `upload_id`, `offset` and `is_last`
 * before the file part; a chunk that is not the last is answered 200 `{ upload_id, offset }`.
 */
/** The data-plane route of a one-request upload for the principal `open` answers (refusing by throwing). */
export function plainUploadRoute(open: (ctx: AppContext, req: IncomingMessage, pathname: string) => Promise<Principal>): DataHandler {
  return dataRoute({
    methods: ['POST'],
    principal: async (ctx, req, pathname) => {
      const principal = await open(ctx, req, pathname);
      requireWrite(principal);
      return principal;
    },
    handle: async ({ ctx, req, res, principal }) => {
      let result: Outcome;
      try {
        result = await receivePlain(ctx, actorOf(principal), req, bindingOf(principal));
      } catch (error) {
        // The body was cut off (the client went away, or stalled past upload_idle_seconds): no answer.
        if (req.destroyed && !req.complete) return;
        throw error;
      }
      if (!('item' in result)) return sendJson(res, 200, { upload_id: result.uploadId, offset: result.offset });
      // Listeners (an upload request records the item and tells its owner) are done before the answer.
      await uploadFinished(ctx, result.item, bindingOf(principal));
      sendJson(res, 201, { data: itemDataFor(principal)(result.item) });
    },
  });
}

/**
 * `POST /api/upload`: the signed-in user's upload; into a team folder they are a member of when the
 * query string names a `parent_id` inside it (the upload then counts against the team folder
 * owner's storage, under both accounts' flags: teams/actor.ts).
 */
export const handlePlainUpload = plainUploadRoute(async (ctx, req, pathname) => {
  const signedIn = await requireSignedIn(ctx, viewOfNode(req, pathname));
  const principal = await principalFor(ctx, signedIn, [new URL(req.url ?? '/', 'http://x').searchParams.get('parent_id')]);
  requireWritableScope(actorOf(principal));
  return principal;
});

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The item, or where a chunked upload stands after a chunk that was not the last. */
type Outcome = ChunkResult;

async function receivePlain(ctx: AppContext, user: User, req: IncomingMessage, binding: string): Promise<Outcome> {
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const policy = await uploadPolicy(ctx, user);
  assertCanUpload(user, policy);
  if (type !== 'multipart/form-data' && type !== 'application/octet-stream') throw unsupportedMediaType('Send the file as multipart/form-data or application/octet-stream.');
  // A client that stalls (or a connection that died without a word) must not hold its temporary
  // file and reservation for ever: no byte for upload_idle_seconds ends the request.
  req.setTimeout(policy.settings.upload_idle_seconds * 1000, () => req.destroy());
  try {
    return await (type === 'multipart/form-data' ? receiveMultipart(ctx, user, policy, req, binding) : { item: await receiveRaw(ctx, user, policy, req) });
  } finally {
    req.setTimeout(0);
  }
}

interface Target {
  name: string;
  parentId: string | null;
  folders: string[];
}

async function resolveTarget(ctx: AppContext, user: User, input: { name: string | undefined; parentId: string | undefined; path: string | undefined }): Promise<Target> {
  const name = uploadName(input.name);
  const folders = relativeFolders(input.path);
  const parent = await requireTargetFolder(ctx, user, input.parentId ? input.parentId : null, 'parent_id');
  return { name, folders, parentId: parent?.id ?? null };
}

function decodeName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

async function receiveRaw(ctx: AppContext, user: User, policy: UploadPolicy, req: IncomingMessage): Promise<ItemWithCount> {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const target = await resolveTarget(ctx, user, {
    name: decodeName(header(req, 'x-file-name')) ?? query.get('filename') ?? undefined,
    parentId: query.get('parent_id') ?? undefined,
    path: query.get('path') ?? undefined,
  });
  const size = declaredLength(req);
  await checkBeforeBytes(ctx, user, policy, { name: target.name, size });
  return withPlainReservation(ctx, policy, user.id, size, async (reservationId) => {
    const received = await receiveToBlob(ctx, policy, user.id, req, { name: target.name, declaredType: null, declaredSize: size, reservationId });
    return finishUpload(ctx, policy, { ownerId: user.id, ...target, ...received, reservationId });
  });
}

/** Multipart bodies carry a few hundred bytes of boundaries and fields besides the file. */
const MULTIPART_SLACK = 64 * 1024;

async function receiveMultipart(ctx: AppContext, user: User, policy: UploadPolicy, req: IncomingMessage, binding: string): Promise<Outcome> {
  // The body's length bounds the file's: refuse what cannot fit before reading it, and reserve the
  // whole body (the file and a few hundred bytes of form), so uploads sent at once are admitted as
  // their sizes fit, each holding its own share; where only the file would fit, what it takes at
  // least. The quota refusal comes from the reservation.
  const length = declaredLength(req);
  const atLeast = length !== null && length > MULTIPART_SLACK ? length - MULTIPART_SLACK : null;
  const limit = uploadLimit(policy);
  if (atLeast !== null && limit !== null && atLeast > limit) throw tooLarge(policy);
  let reserved = false;
  const overQuota = (error: unknown) => !reserved && isAppError(error) && error.code === 'storage_limit_exceeded';
  const underReservation = (bytes: number | null) =>
    withPlainReservation(ctx, policy, user.id, bytes, (reservationId) => {
      reserved = true;
      return receiveMultipartBody(ctx, user, policy, req, reservationId, binding, null);
    });
  try {
    try {
      return await underReservation(length);
    } catch (error) {
      if (!overQuota(error) || atLeast === null) throw error;
      return await underReservation(atLeast);
    }
  } catch (error) {
    if (!overQuota(error)) throw error;
    // The body does not fit the quota. A chunk's refusal ends its whole upload (chunks.ts), so the
    // fields before the file part are read to learn which this is; a one-shot upload is refused there.
    return receiveMultipartBody(ctx, user, policy, req, null, binding, error);
  }
}

/** busboy's own errors (a malformed part header, an unexpected end of the form or of a file) are the client's. */
function malformed(error: unknown): unknown {
  if (isAppError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return badRequest(`The multipart body is malformed or incomplete (${reason}).`);
}

/** What the file part became: a blob for the finishing step below, or a chunk appended (chunks.ts). */
type Part = { received: Received; declaredName: string; target: Target } | { chunked: ChunkResult };

async function receiveMultipartBody(ctx: AppContext, user: User, policy: UploadPolicy, req: IncomingMessage, reservationId: string | null, binding: string, refusal: unknown): Promise<Outcome> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fields: 20, parts: 25, fieldSize: 64 * 1024, fieldNameSize: 100 } });
  } catch {
    throw badRequest('The multipart body has no boundary.');
  }
  const fields: Record<string, string> = {};
  const result = await new Promise<Part>((resolve, reject) => {
    let settled = false;
    let current: Readable | null = null;
    let upload: Promise<Part> | null = null;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // Without an error: nobody may be listening on the part's stream yet.
      current?.destroy();
      // Answer once the file part's work has let go of its temporary file (or removed its blob),
      // so nothing is left behind when the client reads the refusal.
      const released = upload ? upload.then((value) => ('received' in value ? ctx.blobs.delete(value.received.blobKey) : undefined), () => undefined) : Promise.resolve();
      void released.catch(() => undefined).finally(() => reject(error));
    };
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || upload || settled) return void stream.resume();
      current = stream;
      let streamError: unknown;
      stream.on('error', (error) => {
        streamError = error;
      });
      const work = (async (): Promise<Part> => {
        // Fields sent before the file (Uppy sends them first) are known now; later ones count at the end.
        const chunk = chunkFields(fields);
        const declaredName = fields.filename || info.filename || '';
        const target = await resolveTarget(ctx, user, { name: declaredName, parentId: fields.parent_id, path: fields.path });
        await checkBeforeBytes(ctx, user, policy, { name: target.name, declaredType: info.mimeType, size: null });
        assertTypeAllowed(policy, { extensions: [fields.extension] });
        if (!chunk && refusal) throw refusal;
        if (chunk) return { chunked: await receiveChunk(ctx, policy, stream, { binding, ownerId: user.id, target, declaredType: info.mimeType, chunk, transit: reservationId }) };
        const received = await receiveToBlob(ctx, policy, user.id, stream, { name: target.name, declaredType: info.mimeType, declaredSize: null, reservationId });
        return { received, declaredName, target };
      })();
      upload = work;
      work.catch((error: unknown) => fail(error !== undefined && error === streamError ? malformed(error) : error));
    });
    parser.on('error', (error) => fail(malformed(error)));
    req.on('error', fail);
    parser.on('close', () => {
      if (!upload) return fail(validationError({ file: ['A file is required in the field "file".'] }));
      upload.then((value) => {
        if (settled) return void ('received' in value && discardBlob(ctx, value.received.blobKey));
        settled = true;
        resolve(value);
      }, fail);
    });
    req.pipe(parser);
  });
  if ('chunked' in result) return result.chunked;
  const { received } = result;
  let target: Target;
  try {
    // A chunk's fields must come before the file: one sent after it is refused, not ignored.
    if (chunkFields(fields)) throw validationError({ upload_id: ['upload_id, offset and is_last must be sent before the file.'] });
    // Fields that came after the file part decide too; the blacklist is asked again for them.
    target = await resolveTarget(ctx, user, { name: fields.filename || result.declaredName, parentId: fields.parent_id, path: fields.path });
    assertTypeAllowed(policy, { name: target.name, extensions: [fields.extension] });
  } catch (error) {
    await discardBlob(ctx, received.blobKey);
    throw error;
  }
  return { item: await finishUpload(ctx, policy, { ownerId: user.id, ...target, ...received, reservationId }) };
}
