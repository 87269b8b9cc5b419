import type { UserPrincipal } from '../auth/principal.ts';
import { sendFileBytes } from '../downloads/file.ts';
import { requireDownloadableFile, requireWritableScope } from '../files/access.ts';
import { nameKey } from '../files/names.ts';
import { browseFolder, createFolder, moveItems, removeItems, renameItem } from '../files/service.ts';
import { dataRoute, declaredLength, type DataHandler } from '../http/data-route.ts';
import { AppError, badRequest, isAppError } from '../http/errors.ts';
import { uploadFinished } from '../uploads/finish.ts';
import { usedBytes, uploadPolicy } from '../uploads/limits.ts';
import { davPrincipal } from './auth.ts';
import { checkWrite } from './conditions.ts';
import { copyItem } from './copy.ts';
import { lock, unlock } from './lock-methods.ts';
import { locate, teamFoldersShown, TEAM_FOLDERS, type Located } from './locate.ts';
import { covers, DAV_LOCKED, deleteLocksAt, liveLocks, pathKey, type DavLock } from './locks.ts';
import { parsePropfind } from './propfind-body.ts';
import { deadProps, proppatch } from './properties.ts';
import { davSegments, destinationPath } from './paths.ts';
import { putInPlace, receiveDavPut } from './put.ts';
import { found, header, locateIn, newName as checkedName, requireChangeable, scopeOf, sendXml, smallBody, userOf, type Dav } from './request.ts';
import { actorFor, memberOf } from '../teams/actor.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { davError, multistatus, responseXml, type Quota } from './xml.ts';

/** Served under /dav/: RFC 4918 class 1 and 2 (LOCK/UNLOCK). */
export const DAV_METHODS = ['OPTIONS', 'PROPFIND', 'PROPPATCH', 'GET', 'HEAD', 'PUT', 'MKCOL', 'DELETE', 'MOVE', 'COPY', 'LOCK', 'UNLOCK'] as const;

/**
 * WebDAV (RFC 4918 class 1 and 2) on the data plane: the account's own folders and files by name, home
 * at `/dav/`. Every change goes through the file services the app uses (create folder, rename,
 * move, trash; a copy is a new upload of the same bytes) and uploads through the same receiving and finishing steps as POST /api/upload, so
 * quotas, limits, blocked types, thumbnails and events apply. Authenticated per request with HTTP
 * Basic (auth.ts); OPTIONS answers without it, as clients probe before they sign in. Locks and
 * dead properties are rows in the database (locks.ts, properties.ts), so every app node sees them.
 */
export const handleDav: DataHandler = dataRoute<UserPrincipal | null>({
  methods: DAV_METHODS,
  principal: (ctx, req) => (req.method === 'OPTIONS' ? Promise.resolve(null) : davPrincipal(ctx, req)),
  handle: async ({ ctx, req, res, pathname, principal }) => {
    const dav: Dav = { ctx, req, res, principal, segments: davSegments(pathname) };
    try {
      await METHOD_HANDLERS[req.method as (typeof DAV_METHODS)[number]](dav);
    } catch (error) {
      throw davStatus(error);
    }
  },
});

/**
 * The app's refusals as a WebDAV client expects them: a full quota is 507 Insufficient Storage, a
 * blocked type 415, an account restriction 403 (423 means a WebDAV lock here: locks.ts), a refused name 400.
 */
function davStatus(error: unknown): unknown {
  if (!isAppError(error)) return error;
  if (error.code === 'storage_limit_exceeded') return new AppError(507, error.message, { code: error.code });
  if (error.code === 'mimetype_blacklisted') return new AppError(415, error.message, { code: error.code });
  if (error.status === 423 && error.code !== DAV_LOCKED) return new AppError(403, error.message, { code: error.code });
  if (error.status === 422) return new AppError(400, Object.values(error.errors ?? {})[0]?.[0] ?? error.message, { code: error.code });
  return error;
}

const METHOD_HANDLERS: Record<(typeof DAV_METHODS)[number], (dav: Dav) => Promise<void>> = {
  OPTIONS: options,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  GET: get,
  HEAD: get,
  PUT: put,
  MKCOL: mkcol,
  DELETE: remove,
  MOVE: transfer('move'),
  COPY: transfer('copy'),
  LOCK: lock,
  UNLOCK: unlock,
};

const newName = (name: string | null) => checkedName(name, DAV_METHODS);

/** The folder holding a path (the home folder for a name in it). */
const parentOf = (segments: string[]) => segments.slice(0, -1);

async function options({ res }: Dav): Promise<void> {
  res.writeHead(200, { DAV: '1, 2', Allow: DAV_METHODS.join(', '), 'MS-Author-Via': 'DAV', 'Content-Length': 0 });
  res.end();
}

interface Entry {
  item: ItemWithCount | null;
  segments: string[];
  /** Whose namespace its locks are in, and its path there (null: no locks, `Team folders`). */
  place: { ownerId: string; ownerSegments: string[] } | null;
}

/** What a Depth 1 PROPFIND lists below the located collection: its items, and in the home folder `Team folders` when there is one. */
async function childEntries(dav: Dav, located: Located): Promise<Entry[]> {
  const user = userOf(dav);
  if (located.kind === 'teams') {
    const teams = (await teamFoldersShown(dav.ctx, user.id)) ?? [];
    return Promise.all(teams.map(async (t) => {
      const segments = [...dav.segments, t.item.name];
      const at = await locate(dav.ctx, user.id, segments);
      return { item: t.item, segments, place: { ownerId: at.ownerId, ownerSegments: at.ownerSegments } };
    }));
  }
  const { items } = await browseFolder(dav.ctx, user, located.item?.id ?? null, { sort: { field: 'name', direction: 'asc' } });
  const entries: Entry[] = items.map((child) => ({ item: child, segments: [...dav.segments, child.name], place: { ownerId: located.ownerId, ownerSegments: [...located.ownerSegments, child.name] } }));
  if (located.item === null && (await teamFoldersShown(dav.ctx, user.id))) entries.push({ item: null, segments: [...dav.segments, TEAM_FOLDERS], place: null });
  return entries;
}

async function propfind(dav: Dav): Promise<void> {
  const depth = (dav.req.headers.depth ?? 'infinity').toString().trim().toLowerCase();
  if (depth !== '0' && depth !== '1') {
    return sendXml(dav.res, 403, davError('propfind-finite-depth'));
  }
  const request = parsePropfind(await smallBody(dav.req));
  const user = userOf(dav);
  const located = await found(dav);
  const { item } = located;
  // In a team folder the quota is its owner's (uploads there count against it).
  const actor = item ? await actorFor(dav.ctx, user, [item.id]) : user;
  const policy = await uploadPolicy(dav.ctx, actor);
  const used = await usedBytes(dav.ctx.db, actor.id);
  const quota: Quota = { used, available: policy.capacity === null ? null : Math.max(0, policy.capacity - used) };
  const self: Entry = { item, segments: dav.segments, place: located.kind === 'teams' ? null : { ownerId: located.ownerId, ownerSegments: located.ownerSegments } };
  const entries = [self, ...(depth === '1' && (item === null || item.type === 'folder') ? await childEntries(dav, located) : [])];
  const dead = await deadProps(dav.ctx.db, entries.flatMap((e) => (e.item ? [e.item.id] : [])));
  const locksOf = new Map<string, Promise<DavLock[]>>();
  const now = dav.ctx.clock.now();
  const responses = await Promise.all(entries.map(async (e) => {
    let locks: DavLock[] = [];
    if (e.place) {
      const { ownerId, ownerSegments } = e.place;
      if (!locksOf.has(ownerId)) locksOf.set(ownerId, liveLocks(dav.ctx, ownerId));
      const key = pathKey(ownerSegments);
      locks = (await locksOf.get(ownerId)!).filter((l) => covers(l, key));
    }
    return responseXml(e.item, e.segments, quota, request, { dead: (e.item && dead.get(e.item.id)) || [], locks, now });
  }));
  sendXml(dav.res, 207, multistatus(responses));
}

async function get(dav: Dav): Promise<void> {
  const { item } = await found(dav);
  if (item === null || item.type === 'folder') throw new AppError(405, 'A folder has no content to download: list it with PROPFIND.', { headers: { Allow: 'OPTIONS, PROPFIND, MKCOL, DELETE, MOVE' } });
  const file = await requireDownloadableFile(dav.ctx, await actorFor(dav.ctx, userOf(dav), [item.id]), item.id);
  await sendFileBytes(dav.ctx, dav.req, dav.res, file);
}

/**
 * PUT streams the body through the upload path (put.ts). Replacing a file: the new content is
 * stored as a new file first; only once it is recorded is the old file moved to the trash (where
 * it can be restored, as any deleted file; an empty one is deleted) and the new one given its
 * name (putInPlace, which also settles concurrent PUTs to one URL). A failed upload leaves the old
 * file untouched.
 */
async function put(dav: Dav): Promise<void> {
  const user = userOf(dav);
  const resolved = await locateIn(dav);
  requireChangeable(resolved);
  const name = newName(resolved.name);
  if (resolved.parentId === undefined) throw new AppError(409, 'The folder to put this file in does not exist.');
  if (resolved.item?.type === 'folder') throw new AppError(405, 'A folder is at this path.');
  await checkWrite(scopeOf(dav), [{ segments: dav.segments, tree: false }, ...(resolved.item ? [] : [{ segments: parentOf(dav.segments), tree: false }])]);
  // Into a team folder: stored as its owner's, with the member's permission (teams/actor.ts).
  const actor = await actorFor(dav.ctx, user, [resolved.parentId]);
  requireWritableScope(actor);
  const member = memberOf(actor);
  const created = await receiveDavPut(dav.ctx, actor, dav.req, { parentId: resolved.parentId, name });
  await uploadFinished(dav.ctx, created, member ? `member:${member.userId}:${actor.scope!.rootId}` : user.id);
  await putInPlace(dav.ctx, user, created, name);
  dav.res.writeHead(resolved.item ? 204 : 201, { 'Content-Length': 0 });
  dav.res.end();
}

async function mkcol(dav: Dav): Promise<void> {
  const user = userOf(dav);
  if ((declaredLength(dav.req) ?? 0) > 0 || dav.req.headers['transfer-encoding']) throw new AppError(415, 'MKCOL takes no body.');
  const resolved = await locateIn(dav);
  if (resolved.item !== undefined) throw new AppError(405, 'Something is at this path already.', { headers: { Allow: 'OPTIONS, PROPFIND, GET, HEAD, PUT, DELETE, MOVE' } });
  requireChangeable(resolved);
  const name = newName(resolved.name);
  if (resolved.parentId === undefined) throw new AppError(409, 'The folder to create this folder in does not exist.');
  await checkWrite(scopeOf(dav), [{ segments: dav.segments, tree: false }, { segments: parentOf(dav.segments), tree: false }]);
  await createFolder(dav.ctx, user, { name, parent_id: resolved.parentId }).catch((error: unknown) => {
    // Made by a concurrent MKCOL (or PUT) since the lookup: what a MKCOL on a mapped URL answers.
    if (isAppError(error) && error.status === 422 && error.errors?.name) throw new AppError(405, 'Something is at this path already.');
    throw error;
  });
  dav.res.writeHead(201, { 'Content-Length': 0 });
  dav.res.end();
}

async function remove(dav: Dav): Promise<void> {
  const user = userOf(dav);
  const located = await found(dav);
  const { item } = located;
  if (item === null) throw new AppError(403, 'The home folder cannot be deleted.');
  requireChangeable(located);
  await checkWrite(scopeOf(dav), [{ segments: dav.segments, tree: true }, { segments: parentOf(dav.segments), tree: false }]);
  await removeItems(dav.ctx, user, [{ id: item.id, type: item.type, force_delete: false }]);
  await deleteLocksAt(dav.ctx, located.ownerId, pathKey(located.ownerSegments));
  dav.res.writeHead(204);
  dav.res.end();
}

/**
 * MOVE (RFC 4918 §9.9) and COPY (§9.8): MOVE is a rename, a move, or both, through the app's own
 * rename and move; COPY stores new items (copy.ts). An existing target is moved to the trash first
 * when Overwrite allows it (T, the default), else 412. A folder into itself or below it is a 409.
 */
function transfer(kind: 'move' | 'copy') {
  return async (dav: Dav): Promise<void> => {
    const user = userOf(dav);
    const source = await found(dav);
    const { item } = source;
    if (item === null) throw new AppError(403, `The home folder cannot be ${kind === 'move' ? 'moved' : 'copied'}.`);
    if (kind === 'move') requireChangeable(source);
    const depth = (header(dav.req, 'depth') ?? 'infinity').trim().toLowerCase();
    if (depth !== 'infinity' && (kind === 'move' || depth !== '0')) throw badRequest(`Depth must be ${kind === 'move' ? 'infinity' : '0 or infinity'} here.`);
    const destSegments = davSegments(destinationPath(header(dav.req, 'destination'), header(dav.req, 'host'), dav.ctx.config.appUrl.host));
    const keys = (names: string[]) => names.map(nameKey);
    const [from, to] = [keys(dav.segments), keys(destSegments)];
    if (to.length >= from.length && from.every((key, i) => key === to[i])) {
      // Only a MOVE may change a name's case in place (`a.txt` to `A.txt`).
      if (to.length === from.length && (kind === 'copy' || destSegments.at(-1) === dav.segments.at(-1))) throw new AppError(403, 'The source and the destination are the same.');
      if (to.length > from.length) throw new AppError(409, 'A folder cannot be moved or copied into itself.');
    }
    // Onto a folder holding the source: overwriting it would put the source in the trash first.
    if (to.length < from.length && to.every((key, i) => key === from[i])) throw new AppError(409, 'The destination holds the source: it cannot be replaced by it.');
    const target = await locate(dav.ctx, user.id, destSegments);
    requireChangeable(target);
    const name = newName(target.name);
    if (target.parentId === undefined) throw new AppError(409, 'The destination folder does not exist.');
    const overwrite = (header(dav.req, 'overwrite') ?? 'T').trim().toUpperCase();
    if (overwrite !== 'T' && overwrite !== 'F') throw badRequest('Overwrite must be T or F.');
    const replaced = target.item && target.item.id !== item.id ? target.item : null;
    if (replaced && overwrite === 'F') throw new AppError(412, 'Something is at the destination and Overwrite is F.');
    const destination = [{ segments: destSegments, tree: true }, { segments: parentOf(destSegments), tree: false }];
    const moving = kind === 'move' ? [{ segments: dav.segments, tree: true }, { segments: parentOf(dav.segments), tree: false }] : [];
    await checkWrite(scopeOf(dav), [...moving, ...destination]);
    if (replaced) await removeItems(dav.ctx, user, [{ id: replaced.id, type: replaced.type, force_delete: false }]);
    if (kind === 'copy') {
      await copyItem(dav.ctx, user, item, { parentId: target.parentId, name }, depth === 'infinity');
    } else {
      let moved = item;
      if (target.parentId !== item.parent_id) moved = (await moveItems(dav.ctx, user, target.parentId, [{ id: item.id, type: item.type }]))[0]!;
      if (moved.name !== name) await renameItem(dav.ctx, user, item.id, { name });
      // Locks stay with URLs (RFC 4918 §7.5): the source's go, unless only the name's case changed.
      if (source.ownerId !== target.ownerId || pathKey(source.ownerSegments) !== pathKey(target.ownerSegments)) await deleteLocksAt(dav.ctx, source.ownerId, pathKey(source.ownerSegments));
    }
    dav.res.writeHead(replaced ? 204 : 201, { 'Content-Length': 0 });
    dav.res.end();
  };
}
