import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserPrincipal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { AppError, badRequest, forbidden, notFound } from '../http/errors.ts';
import { checkUploadSegment } from '../uploads/names.ts';
import type { DavScope } from './conditions.ts';
import { locate, type Located } from './locate.ts';

/** One WebDAV request: who acts (null only for OPTIONS) and the decoded names of its URL. */
export type Dav = { ctx: AppContext; req: IncomingMessage; res: ServerResponse; principal: UserPrincipal | null; segments: string[] };

export function userOf(dav: Dav): UserPrincipal['user'] {
  if (!dav.principal) throw new AppError(401, 'Unauthenticated.');
  return dav.principal.user;
}

/** The request as the lock and If checks see it (conditions.ts). */
export function scopeOf(dav: Dav, segments = dav.segments): DavScope {
  return { ctx: dav.ctx, req: dav.req, userId: userOf(dav).id, segments };
}

/** A name for something new: the upload rules (reserved device names too); refused is a 400. */
export function newName(name: string | null, allow: readonly string[]): string {
  if (name === null) throw new AppError(405, 'The home folder cannot be replaced.', { headers: { Allow: allow.join(', ') } });
  const checked = checkUploadSegment(name);
  if (!checked.ok) throw badRequest(checked.message);
  return checked.name;
}

/** A small request body as text (PROPFIND's, PROPPATCH's, LOCK's), at most 1 MiB. */
export async function smallBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    bytes += (chunk as Buffer).length;
    if (bytes > 1024 * 1024) throw new AppError(413, 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function locateIn(dav: Dav, segments = dav.segments): Promise<Located> {
  return locate(dav.ctx, userOf(dav).id, segments);
}

export async function found(dav: Dav): Promise<Located & { item: ItemWithCount | null }> {
  const located = await locateIn(dav);
  if (located.item === undefined) throw notFound('Nothing is at this path.');
  return { ...located, item: located.item };
}

/** `Team folders` and what is directly in it, and a team folder itself, cannot be written to (403). */
export function requireChangeable(located: Located): void {
  if (located.kind === 'teams') throw forbidden('Team folders lists the team folders you are a member of: nothing can be made, changed or removed there.');
  if (located.teamRoot) throw forbidden('The team folder itself cannot be changed.');
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** An XML answer (a multistatus, a lock's properties, an error with a DAV precondition). */
export function sendXml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/xml; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'private, no-cache', ...headers });
  res.end(body);
}
