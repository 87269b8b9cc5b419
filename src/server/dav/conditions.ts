import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import { etagOf } from '../downloads/headers.ts';
import { AppError } from '../http/errors.ts';
import { parseIfHeader, submittedTokens, type IfList } from './if-header.ts';
import { nameKey } from '../files/names.ts';
import { locate, TEAM_FOLDERS, type Located } from './locate.ts';
import { covers, liveLocks, locksInTheWay, pathKey, requireTokens, tokenOf, type DavLock } from './locks.ts';
import { davSegments, isDavRequest } from './paths.ts';

export interface DavScope {
  ctx: AppContext;
  req: IncomingMessage;
  /** The account signed in: /dav/ is its namespace. */
  userId: string;
  /** The request URL's names. */
  segments: string[];
}

/** What a write touches: a path, and whether locks below it count too (DELETE, MOVE, an overwritten target). */
export interface WriteTarget {
  segments: string[];
  tree: boolean;
}

/** Where a path's locks are: the account whose items it names, the path's key there, and that account's live locks. */
export interface LockPlace {
  ownerId: string;
  key: string;
  locks: DavLock[];
  /** The item at the path (for an entity tag), looked up only when asked. */
  item: () => Promise<Located['item']>;
}

const weak = (etag: string) => etag.replace(/^W\//, '');

/** A Resource-Tag's names when it is under /dav/ (another URL: null, its lists are false). */
function taggedSegments(resource: string): string[] | null {
  try {
    const { pathname } = new URL(resource, 'http://localhost');
    return isDavRequest(pathname) ? davSegments(pathname) : null;
  } catch {
    return null;
  }
}

/**
 * Finds paths and their namespaces' locks, each namespace read once per request. A path outside
 * `Team folders` is the account's own: its place needs no lookup.
 */
export function lockPlaces(scope: DavScope): (segments: string[]) => Promise<LockPlace> {
  const locksOf = new Map<string, Promise<DavLock[]>>();
  return async (segments) => {
    const find = () => locate(scope.ctx, scope.userId, segments);
    const located = segments.length && nameKey(segments[0]!) === nameKey(TEAM_FOLDERS) ? await find() : null;
    const ownerId = located?.ownerId ?? scope.userId;
    if (!locksOf.has(ownerId)) locksOf.set(ownerId, liveLocks(scope.ctx, ownerId));
    return { ownerId, key: pathKey(located?.ownerSegments ?? segments), locks: await locksOf.get(ownerId)!, item: async () => (located ?? (await find())).item };
  };
}

async function listHolds(place: LockPlace, list: IfList): Promise<boolean> {
  let etag: string | null | undefined;
  for (const condition of list.conditions) {
    if ('etag' in condition && etag === undefined) {
      const item = await place.item();
      etag = item?.type === 'file' && item.blob_key ? etagOf(item.blob_key, Number(item.size)) : null;
    }
    const holds = 'token' in condition ? place.locks.some((lock) => condition.token === tokenOf(lock) && covers(lock, place.key)) : etag != null && weak(etag) === weak(condition.etag);
    if (holds === condition.not) return false;
  }
  return true;
}

/**
 * The checks before a write (RFC 4918 §10.4, §7): the If header, when sent, must hold for at
 * least one of its lists (else 412), and every lock in the way of the targets needs its token
 * among the header's state tokens (else 423). Answers the submitted tokens and the request
 * path's place (its namespace's locks).
 */
export async function checkWrite(scope: DavScope, targets: WriteTarget[]): Promise<{ submitted: Set<string>; here: LockPlace }> {
  const header = scope.req.headers.if;
  const lists = typeof header === 'string' && header.trim() ? parseIfHeader(header) : [];
  const place = lockPlaces(scope);
  const here = await place(scope.segments);
  if (lists.length) {
    let holds = false;
    for (const list of lists) {
      const segments = list.resource === null ? scope.segments : taggedSegments(list.resource);
      if (segments && (holds = await listHolds(await place(segments), list))) break;
    }
    if (!holds) throw new AppError(412, 'The If header does not hold: a lock token or entity tag in it does not match.', { code: 'precondition_failed' });
  }
  const submitted = submittedTokens(lists);
  const inTheWay = new Map<string, DavLock>();
  for (const target of targets) {
    const { locks, key } = await place(target.segments);
    for (const lock of locksInTheWay(locks, key, target.tree)) inTheWay.set(lock.id, lock);
  }
  requireTokens([...inTheWay.values()], submitted);
  return { submitted, here };
}
