import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import { etagOf } from '../downloads/headers.ts';
import { AppError } from '../http/errors.ts';
import { parseIfHeader, submittedTokens, type IfList } from './if-header.ts';
import { covers, liveLocks, locksInTheWay, pathKey, requireTokens, type DavLock } from './locks.ts';
import { davSegments, isDavRequest, resolvePath } from './paths.ts';

export interface DavScope {
  ctx: AppContext;
  req: IncomingMessage;
  /** The account whose /dav/ namespace is addressed. */
  ownerId: string;
  /** The request URL's names. */
  segments: string[];
}

/** What a write touches: a path, and whether locks below it count too (DELETE, MOVE, an overwritten target). */
export interface WriteTarget {
  segments: string[];
  tree: boolean;
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

async function listHolds(scope: DavScope, locks: DavLock[], list: IfList): Promise<boolean> {
  const segments = list.resource === null ? scope.segments : taggedSegments(list.resource);
  if (!segments) return false;
  const key = pathKey(segments);
  let etag: string | null | undefined;
  for (const condition of list.conditions) {
    let holds: boolean;
    if ('token' in condition) holds = locks.some((lock) => condition.token === `urn:uuid:${lock.id}` && covers(lock, key));
    else {
      if (etag === undefined) {
        const { item } = await resolvePath(scope.ctx, scope.ownerId, segments);
        etag = item?.type === 'file' && item.blob_key ? etagOf(item.blob_key, Number(item.size)) : null;
      }
      holds = etag !== null && weak(etag) === weak(condition.etag);
    }
    if (holds === condition.not) return false;
  }
  return true;
}

/**
 * The checks before a write (RFC 4918 §10.4, §7): the If header, when sent, must hold for at
 * least one of its lists (else 412), and every lock in the way of the targets needs its token
 * among the header's state tokens (else 423). Answers the submitted tokens and the live locks.
 */
export async function checkWrite(scope: DavScope, targets: WriteTarget[]): Promise<{ submitted: Set<string>; locks: DavLock[] }> {
  const header = scope.req.headers.if;
  const lists = typeof header === 'string' && header.trim() ? parseIfHeader(header) : [];
  const locks = await liveLocks(scope.ctx, scope.ownerId);
  if (lists.length) {
    let holds = false;
    for (const list of lists) if ((holds = await listHolds(scope, locks, list))) break;
    if (!holds) throw new AppError(412, 'The If header does not hold: a lock token or entity tag in it does not match.', { code: 'precondition_failed' });
  }
  const submitted = submittedTokens(lists);
  const inTheWay = new Map<string, DavLock>();
  for (const target of targets) for (const lock of locksInTheWay(locks, pathKey(target.segments), target.tree)) inTheWay.set(lock.id, lock);
  requireTokens([...inTheWay.values()], submitted);
  return { submitted, locks };
}
