import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DavLocksTable } from '../../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { nameKey } from '../files/names.ts';
import type { Db } from '../files/queries.ts';
import { AppError } from '../http/errors.ts';

export type DavLock = DavLocksTable;

/** The code of a refusal for a lock (423), told apart from the app's own 423s. */
export const DAV_LOCKED = 'dav_locked';

/** Timeouts: the client's ask, at most an hour; ten minutes when it names none (or only Infinite). */
export const LOCK_TIMEOUT_MAX = 3600;
export const LOCK_TIMEOUT_DEFAULT = 600;

/** The lock token (RFC 4918 §6.5: a URI, unique forever): `urn:uuid:`. */
export const tokenOf = (lock: Pick<DavLock, 'id'>) => `urn:uuid:${lock.id}`;

/** A path's key: its names as the app compares them, joined by '/'; '' is the home folder. */
export const pathKey = (segments: string[]) => segments.map(nameKey).join('/');

/** The lock applies to the resource at `key`: locked itself, or below a lock of depth infinity. */
export function covers(lock: Pick<DavLock, 'path_key' | 'depth'>, key: string): boolean {
  if (lock.path_key === key) return true;
  return lock.depth === 'infinity' && (lock.path_key === '' ? key !== '' : key.startsWith(`${lock.path_key}/`));
}

/** The lock is on something strictly below `key`. */
export function below(lock: Pick<DavLock, 'path_key'>, key: string): boolean {
  return key === '' ? lock.path_key !== '' : lock.path_key.startsWith(`${key}/`);
}

/** The `Timeout` header (RFC 4918 §10.7): the first value understood, capped. */
export function lockTimeout(header: string | undefined): number {
  for (const part of (header ?? '').split(',')) {
    const value = part.trim();
    const seconds = value.match(/^Second-(\d{1,12})$/i)?.[1];
    if (seconds !== undefined && Number(seconds) > 0) return Math.min(Number(seconds), LOCK_TIMEOUT_MAX);
    if (/^Infinite$/i.test(value)) return LOCK_TIMEOUT_MAX;
  }
  return LOCK_TIMEOUT_DEFAULT;
}

/** The account's locks that have not expired. */
export async function liveLocks(ctx: AppContext, ownerId: string, db: Db = ctx.db): Promise<DavLock[]> {
  return db.selectFrom('dav_locks').selectAll().where('owner_id', '=', ownerId).where('expires_at', '>', ctx.clock.now().toISOString()).execute();
}

/** Locks that a write to `key` must have the token of: on it or above it, and with `tree` also below it. */
export function locksInTheWay(locks: DavLock[], key: string, tree: boolean): DavLock[] {
  return locks.filter((lock) => covers(lock, key) || (tree && below(lock, key)));
}

/**
 * Every lock in the way is answered by a submitted token: its own, or, for a shared lock, another
 * shared lock's on the same path. Otherwise 423 Locked.
 */
export function requireTokens(locks: DavLock[], submitted: Set<string>): void {
  for (const lock of locks) {
    if (submitted.has(tokenOf(lock))) continue;
    if (lock.scope === 'shared' && locks.some((other) => other.scope === 'shared' && other.path_key === lock.path_key && submitted.has(tokenOf(other)))) continue;
    throw new AppError(423, `${lock.href} is locked: send its lock token in an If header.`, { code: DAV_LOCKED });
  }
}

export interface NewLock {
  ownerId: string;
  key: string;
  href: string;
  scope: 'exclusive' | 'shared';
  depth: '0' | 'infinity';
  ownerXml: string;
  timeout: number;
}

/**
 * Takes a lock unless one in the way conflicts (an exclusive lock conflicts with any, a shared one
 * with an exclusive one): 423. Check and insert are one transaction; on PostgreSQL under the
 * account's advisory lock, so two app nodes cannot both grant an exclusive lock.
 */
export async function createLock(ctx: AppContext, lock: NewLock): Promise<DavLock> {
  return ctx.db.transaction().execute(async (tx) => {
    if (ctx.config.database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`dav-locks:${lock.ownerId}`}))`.execute(tx);
    const now = ctx.clock.now();
    await tx.deleteFrom('dav_locks').where('owner_id', '=', lock.ownerId).where('expires_at', '<=', now.toISOString()).execute();
    const inTheWay = locksInTheWay(await liveLocks(ctx, lock.ownerId, tx), lock.key, lock.depth === 'infinity');
    if (lock.scope === 'exclusive' ? inTheWay.length : inTheWay.some((l) => l.scope === 'exclusive')) {
      throw new AppError(423, 'A conflicting lock is held on this resource.', { code: DAV_LOCKED });
    }
    const row: DavLock = {
      id: randomUUID(),
      owner_id: lock.ownerId,
      path_key: lock.key,
      href: lock.href,
      scope: lock.scope,
      depth: lock.depth,
      owner_xml: lock.ownerXml,
      timeout_seconds: lock.timeout,
      expires_at: new Date(now.getTime() + lock.timeout * 1000).toISOString(),
      created_at: now.toISOString(),
    };
    await tx.insertInto('dav_locks').values(row).execute();
    return row;
  });
}

export async function refreshLock(ctx: AppContext, lock: DavLock, timeout: number): Promise<DavLock> {
  const expires = new Date(ctx.clock.now().getTime() + timeout * 1000).toISOString();
  await ctx.db.updateTable('dav_locks').set({ expires_at: expires, timeout_seconds: timeout }).where('id', '=', lock.id).execute();
  return { ...lock, expires_at: expires, timeout_seconds: timeout };
}

export async function deleteLock(ctx: AppContext, id: string): Promise<void> {
  await ctx.db.deleteFrom('dav_locks').where('id', '=', id).execute();
}

/** After a DELETE or MOVE: the locks on the path and below it go (locks stay with URLs, not items). */
export async function deleteLocksAt(ctx: AppContext, ownerId: string, key: string): Promise<void> {
  const ids = (await liveLocks(ctx, ownerId)).filter((l) => l.path_key === key || below(l, key)).map((l) => l.id);
  if (ids.length) await ctx.db.deleteFrom('dav_locks').where('id', 'in', ids).execute();
}
