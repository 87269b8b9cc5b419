import { Readable } from 'node:stream';
import { AppError, badRequest } from '../http/errors.ts';
import { uploadFinished } from '../uploads/finish.ts';
import { requireWritableScope } from '../files/access.ts';
import { actorFor, memberOf } from '../teams/actor.ts';
import { checkWrite, lockPlaces } from './conditions.ts';
import { covers, createLock, deleteLock, lockTimeout, refreshLock, tokenOf } from './locks.ts';
import { storeAsFile } from './put.ts';
import { header, locateIn, newName, requireChangeable, scopeOf, sendXml, smallBody, userOf, type Dav } from './request.ts';
import { davError, hrefOf, lockAnswer } from './xml.ts';
import { childElements, isDav, parseXmlTree, serializeContent } from './xml-tree.ts';

interface LockInfo {
  scope: 'exclusive' | 'shared';
  ownerXml: string;
}

/** A DAV:lockinfo body: a write lock, exclusive or shared, with the client's DAV:owner kept as XML. */
function parseLockInfo(body: string): LockInfo {
  const root = parseXmlTree(body, 'LOCK');
  if (!isDav(root, 'lockinfo')) throw badRequest('The LOCK body must be a DAV:lockinfo element.');
  const children = childElements(root);
  const scope = children.find((e) => isDav(e, 'lockscope'));
  const type = children.find((e) => isDav(e, 'locktype'));
  const owner = children.find((e) => isDav(e, 'owner'));
  const scopeName = scope && childElements(scope).find((e) => isDav(e, 'exclusive') || isDav(e, 'shared'))?.local;
  if (!scopeName) throw badRequest('The LOCK body needs a DAV:lockscope of DAV:exclusive or DAV:shared.');
  if (!type || !childElements(type).some((e) => isDav(e, 'write'))) throw badRequest('Only DAV:write locks are supported.');
  return { scope: scopeName as LockInfo['scope'], ownerXml: owner ? serializeContent(owner) : '' };
}

/**
 * LOCK (RFC 4918 §9.10). With a DAV:lockinfo body: a new write lock, exclusive or shared, Depth 0
 * or infinity (the default), for the Timeout asked (at most an hour, 10 minutes by default); a
 * conflicting lock is 423. On an unmapped URL an empty file is made (201), as §7.3 says. Without
 * a body: a refresh of the lock whose token the If header sends (on the URL or above it).
 */
export async function lock(dav: Dav): Promise<void> {
  const user = userOf(dav);
  const body = await smallBody(dav.req);
  const timeout = lockTimeout(header(dav.req, 'timeout'));
  const now = () => dav.ctx.clock.now();
  if (!body.trim()) {
    if (!header(dav.req, 'if')) throw badRequest('A LOCK without a body refreshes a lock: send its token in an If header.');
    const { submitted, here } = await checkWrite(scopeOf(dav), []);
    const held = here.locks.find((l) => submitted.has(tokenOf(l)) && covers(l, here.key));
    if (!held) throw new AppError(412, 'No lock on this resource has the token in the If header.', { code: 'precondition_failed' });
    const refreshed = await refreshLock(dav.ctx, held, timeout);
    return sendXml(dav.res, 200, lockAnswer(refreshed, now()));
  }
  const info = parseLockInfo(body);
  const depth = (header(dav.req, 'depth') ?? 'infinity').trim().toLowerCase();
  if (depth !== '0' && depth !== 'infinity') throw badRequest('Depth must be 0 or infinity for LOCK.');
  const resolved = await locateIn(dav);
  if (resolved.kind === 'teams') requireChangeable(resolved);
  const creates = resolved.item === undefined;
  if (creates && resolved.parentId === undefined) throw new AppError(409, 'The folder to lock this name in does not exist.');
  const name = creates ? newName(resolved.name, []) : null;
  // A lock is a write: in a team folder, only a member who may change it takes one.
  const actor = await actorFor(dav.ctx, user, [resolved.item ? resolved.item.id : resolved.parentId]);
  requireWritableScope(actor);
  // Making the empty file adds a member to the folder: a lock on the folder needs its token.
  const { here } = await checkWrite(scopeOf(dav), creates ? [{ segments: dav.segments.slice(0, -1), tree: false }] : []);
  const folder = resolved.item === null || resolved.item?.type === 'folder';
  const created = await createLock(dav.ctx, { ownerId: here.ownerId, key: here.key, href: hrefOf(dav.segments, folder), scope: info.scope, depth, ownerXml: info.ownerXml, timeout });
  if (creates) {
    try {
      const item = await storeAsFile(dav.ctx, actor, Readable.from([]), { parentId: resolved.parentId!, name: name!, size: 0, declaredType: null });
      const member = memberOf(actor);
      await uploadFinished(dav.ctx, item, member ? `member:${member.userId}:${actor.scope!.rootId}` : user.id);
    } catch (error) {
      await deleteLock(dav.ctx, created.id);
      throw error;
    }
  }
  sendXml(dav.res, creates ? 201 : 200, lockAnswer(created, now()), { 'Lock-Token': `<${tokenOf(created)}>` });
}

/** UNLOCK (RFC 4918 §9.11): the Lock-Token header's lock, which must cover the URL (else 409). */
export async function unlock(dav: Dav): Promise<void> {
  const token = header(dav.req, 'lock-token')?.trim().match(/^<([^>]+)>$/)?.[1];
  if (!token) throw badRequest('UNLOCK needs a Lock-Token header: <token>.');
  const here = await lockPlaces(scopeOf(dav))(dav.segments);
  const held = here.locks.find((l) => tokenOf(l) === token && covers(l, here.key));
  if (!held) return sendXml(dav.res, 409, davError('lock-token-matches-request-uri'));
  await deleteLock(dav.ctx, held.id);
  dav.res.writeHead(204);
  dav.res.end();
}
