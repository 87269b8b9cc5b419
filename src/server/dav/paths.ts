import type { AppContext } from '../context.ts';
import { checkName, nameKey } from '../files/names.ts';
import * as q from '../files/queries.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { AppError, badRequest, notFound } from '../http/errors.ts';

/** Everything under it is WebDAV: `/dav/` is the account's home. */
export const DAV_PREFIX = '/dav';

export function isDavRequest(pathname: string): boolean {
  return pathname === DAV_PREFIX || pathname.startsWith(`${DAV_PREFIX}/`);
}

/**
 * The decoded names of a `/dav/…` path (empty: home). A name the app refuses is a 400, and so is one
 * beginning or ending with white space: the app trims those, but a URL names one resource exactly,
 * and trimming here made ` a.txt` write `a.txt` (overwriting it) and a sync client upload it again
 * on every run. Names keep the app's NFC form (clients compare names normalised, as rclone does).
 */
export function davSegments(pathname: string): string[] {
  const rest = pathname.slice(DAV_PREFIX.length).split('/').filter((s) => s !== '');
  return rest.map((raw) => {
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      throw badRequest('The path is not valid percent-encoded UTF-8.');
    }
    const checked = checkName(name);
    if (!checked.ok) throw badRequest(checked.message);
    if (name.trim() !== name) throw badRequest('The name must not begin or end with a space.');
    return checked.name;
  });
}

/**
 * The path of a Destination header (an absolute URL or a path), when it is on this server under
 * /dav: its host is the request's Host or APP_URL's (behind a proxy that rewrites Host).
 */
export function destinationPath(header: string | undefined, host: string | undefined, appHost: string): string {
  if (!header) throw badRequest('The Destination header is required.');
  let url: URL;
  try {
    url = new URL(header, `http://${host ?? 'localhost'}`);
  } catch {
    throw badRequest('The Destination header is not a URL.');
  }
  if (host && url.host !== host && url.host !== appHost) throw new AppError(502, 'The Destination is on another server.');
  if (!isDavRequest(url.pathname)) throw new AppError(502, 'The Destination is outside /dav/.');
  return url.pathname;
}

export interface Resolved {
  /** The item at the path; null for home, undefined when nothing is there. */
  item: ItemWithCount | null | undefined;
  /** The folder holding the last name (null: home); undefined when a folder on the way is missing. */
  parentId: string | null | undefined;
  name: string | null;
}

/**
 * Walks the account's own folders by name (name keys: case and Unicode form as the app compares
 * them). Only the account's items outside the trash are found: another account's names are simply
 * not there (404), the namespace is per account.
 */
export async function resolvePath(ctx: AppContext, ownerId: string, segments: string[]): Promise<Resolved> {
  if (segments.length === 0) return { item: null, parentId: null, name: null };
  let parentId: string | null = null;
  for (const [index, name] of segments.entries()) {
    const found = await q.findTypedByNameKey(ctx.db, ownerId, parentId, nameKey(name));
    const last = index === segments.length - 1;
    if (last) return { item: found ? await q.findItemWithCount(ctx.db, found.id) : undefined, parentId, name };
    if (found?.type !== 'folder') return { item: undefined, parentId: undefined, name };
    parentId = found.id;
  }
  throw notFound();
}
