import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import type { AccessScope, Actor } from '../files/access.ts';
import { isSameOrigin, isUnsafe } from '../http/csrf.ts';
import { AppError } from '../http/errors.ts';
import { openShare, type OpenedShare } from '../sharing/service.ts';
import { openActiveRequest, openUploadRequest, recordRequestItem, type OpenedRequest } from '../upload-requests/service.ts';
import { accessTokenHolds, userForAccessToken } from './access-tokens.ts';
import { SESSION_COOKIE, sessionHolds, validateSessionToken, type Session, type User } from './sessions.ts';

/**
 * Who acts, for both planes (Astro's pages and endpoints, and the data plane's Node routes): one
 * answer made from the session cookie, a bearer token, a share link's token or an upload
 * request's token, and one CSRF rule for all of them.
 *
 * - `user` is the account the file services act as: the signed-in user, or the owner of the files
 *   a link opens (their storage, quota and restrictions).
 * - `scope` limits the ids a link (or a team member) may name (files/access.ts); none for a user.
 * - `permissions` says what the principal may do at all (a visitor's link only reads).
 * - `method` is how it was proven: a browser session, an access token, or a link.
 *
 * The `member` kind is a slot for team folders: a member acts on the owner's files through a scope
 * rooted at the team folder, with the permission of their membership.
 */
export type PrincipalKind = 'user' | 'share' | 'request' | 'member';
export type AuthMethod = 'cookie' | 'token' | 'link';

export interface Permissions {
  read: boolean;
  write: boolean;
}

interface Base {
  user: User;
  scope?: AccessScope | undefined;
  permissions: Permissions;
}

export interface UserPrincipal extends Base {
  kind: 'user';
  method: 'cookie' | 'token';
  /** The browser session (cookie sign-in only). */
  session: Session | null;
}

export interface SharePrincipal extends Base {
  kind: 'share';
  method: 'link';
  scope: AccessScope;
  share: OpenedShare;
}

export interface RequestPrincipal extends Base {
  kind: 'request';
  method: 'link';
  scope: AccessScope;
  request: OpenedRequest;
}

/** Team folders fill this in: `user` is the folder's owner, `member` the account acting. */
export interface MemberPrincipal extends Base {
  kind: 'member';
  method: 'cookie' | 'token';
  scope: AccessScope;
  member: { account: User; teamFolderId: string; permission: 'can_edit' | 'can_view' };
}

export type Principal = UserPrincipal | SharePrincipal | RequestPrincipal | MemberPrincipal;

/** A write by a principal that may only read (a visitor's link; a `can_view` member) is a 403. */
export function requireWrite(principal: Principal): void {
  if (!principal.permissions.write) throw new AppError(403, 'You may only view and download here.', { code: 'read_only' });
}

/** What the file services act as: the principal's account, limited by its scope. */
export function actorOf(principal: Principal): Actor {
  return principal.scope ? { ...principal.user, scope: principal.scope } : principal.user;
}

/** A request as the principal functions read it, whichever plane it came in on. */
export interface RequestView {
  method: string;
  pathname: string;
  header(name: string): string | undefined;
  cookie(name: string): string | undefined;
}

export function viewOfNode(req: IncomingMessage, pathname?: string): RequestView {
  const header = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    pathname: pathname ?? new URL(req.url ?? '/', 'http://x').pathname,
    header,
    cookie: (name) => readCookie(header('cookie'), name),
  };
}

export function viewOfAstro(astro: { request: Request; url: URL; cookies: { get(name: string): { value: string } | undefined } }): RequestView {
  return {
    method: astro.request.method.toUpperCase(),
    pathname: astro.url.pathname,
    header: (name) => astro.request.headers.get(name) ?? undefined,
    cookie: (name) => astro.cookies.get(name)?.value,
  };
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const badToken = () => new AppError(401, 'The access token is invalid or was revoked.', { code: 'invalid_token', headers: { 'WWW-Authenticate': 'Bearer' } });

/** The signed-in identity of a request (a bearer token, else the session cookie), or none. */
export interface Identity {
  principal: UserPrincipal | null;
  /** The session was extended: the cookie is to be sent again (the middleware does). */
  renewed: boolean;
  /** A session cookie was sent that names no live session: the middleware clears it. */
  staleCookie: boolean;
}

/** Who is signed in. A bearer token that is unknown or revoked is refused outright (401 invalid_token). */
export async function identify(ctx: AppContext, request: RequestView): Promise<Identity> {
  const bearer = request.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) {
    const user = await userForAccessToken(ctx, bearer);
    if (!user) throw badToken();
    return { principal: userPrincipal(user, 'token', null), renewed: false, staleCookie: false };
  }
  const token = request.cookie(SESSION_COOKIE);
  if (!token) return { principal: null, renewed: false, staleCookie: false };
  const found = await validateSessionToken(ctx, token);
  if (!found) return { principal: null, renewed: false, staleCookie: true };
  return { principal: userPrincipal(found.user, 'cookie', found.session), renewed: found.renewed, staleCookie: false };
}

function userPrincipal(user: User, method: 'cookie' | 'token', session: Session | null): UserPrincipal {
  return { kind: 'user', user, permissions: { read: true, write: true }, method, session };
}

/**
 * Why a request that changes something is refused (403 csrf_refused), or null when it may go on.
 * Token requests are exempt; every other unsafe one must come from our origin (Origin, or
 * Sec-Fetch-Site for browsers that omit it); a cookie-authenticated API call must also carry
 * X-Requested-With. `method` is how the request is authenticated (null: not at all).
 */
export function csrfRefusal(ctx: AppContext, request: RequestView, method: AuthMethod | null): AppError | null {
  if (!isUnsafe(request.method) || method === 'token') return null;
  // Payment providers' webhooks come from their servers, with no Origin: the signature on the body authenticates them.
  if (request.pathname.startsWith('/api/webhooks/')) return null;
  const headers = new Headers();
  for (const name of ['origin', 'sec-fetch-site']) {
    const value = request.header(name);
    if (value) headers.set(name, value);
  }
  if (!isSameOrigin(headers, ctx.config.appUrl.origin)) return new AppError(403, 'Cross-site request refused: the Origin header must be this site.', { code: 'csrf_refused' });
  if (method === 'cookie' && request.pathname.startsWith('/api/') && !request.header('x-requested-with')) return new AppError(403, 'Missing the X-Requested-With header.', { code: 'csrf_refused' });
  return null;
}

export function requireCsrf(ctx: AppContext, request: RequestView, method: AuthMethod | null): void {
  const refusal = csrfRefusal(ctx, request, method);
  if (refusal) throw refusal;
}

/**
 * Whether the credential a request was signed in with still holds: its session not signed out or
 * expired, its access token not revoked. Asked again by a response that outlives its request (the
 * event stream), without renewing the session or marking the token used.
 */
export async function credentialHolds(ctx: AppContext, principal: UserPrincipal, request: RequestView): Promise<boolean> {
  if (principal.method === 'cookie') return !!principal.session && (await sessionHolds(ctx, principal.session.id, principal.user.id));
  const bearer = request.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return !!bearer && (await accessTokenHolds(ctx, bearer, principal.user.id));
}

/** The signed-in user, or a refusal: 401 for a bad token or nobody, 403 for a cross-site write. */
export async function requireSignedIn(ctx: AppContext, request: RequestView): Promise<UserPrincipal> {
  const { principal } = await identify(ctx, request);
  requireCsrf(ctx, request, principal?.method ?? null);
  if (!principal) throw new AppError(401, 'Unauthenticated.', { code: 'unauthenticated' });
  return principal;
}

/**
 * The holder of a share link: 404 for a dead link, 401 while a protected link is locked in this
 * browser, 403 for a visitor's write. A link holder's write must come from our own origin.
 */
export async function shareHolder(ctx: AppContext, request: RequestView, token: string, need: 'read' | 'write'): Promise<SharePrincipal> {
  requireCsrf(ctx, request, 'link');
  const share = await openShare(ctx, token, request.cookie, need);
  return {
    kind: 'share',
    method: 'link',
    user: share.owner,
    scope: { rootId: share.item.id },
    permissions: { read: true, write: share.share.permission === 'editor' },
    share,
  };
}

/** The holder of an upload request: 404 for an unknown one; a write only while it is active (423). */
export async function requestHolder(ctx: AppContext, request: RequestView, token: string, need: 'read' | 'write'): Promise<RequestPrincipal> {
  requireCsrf(ctx, request, 'link');
  const opened = need === 'write' ? await openActiveRequest(ctx, token) : await openUploadRequest(ctx, token);
  const active = opened.status === 'active';
  return {
    kind: 'request',
    method: 'link',
    user: opened.owner,
    scope: opened.actor.scope!,
    permissions: { read: active, write: active },
    request: opened,
  };
}

/** An Astro endpoint's view of the request, as the route helpers below need it. */
interface AstroRoute {
  request: Request;
  url: URL;
  cookies: { get(name: string): { value: string } | undefined };
  params: Record<string, string | undefined>;
  locals: { principal: UserPrincipal | null };
}

/** The signed-in principal the middleware found (route() has refused a signed-out caller already). */
export function signedInOf(astro: AstroRoute): UserPrincipal {
  if (!astro.locals.principal) throw new AppError(401, 'Unauthenticated.', { code: 'unauthenticated' });
  return astro.locals.principal;
}

/** The holder of the share link named by the route's `token`. */
export function shareOfRoute(ctx: AppContext, astro: AstroRoute, need: 'read' | 'write'): Promise<SharePrincipal> {
  return shareHolder(ctx, viewOfAstro(astro), astro.params.token ?? '', need);
}

/** The holder of the upload request named by the route's `token`. */
export function requestOfRoute(ctx: AppContext, astro: AstroRoute, need: 'read' | 'write'): Promise<RequestPrincipal> {
  return requestHolder(ctx, viewOfAstro(astro), astro.params.token ?? '', need);
}

/**
 * Whoever uploads on the data plane's shared routes (tus): a share link's editor
 * (`X-Share-Token`), an upload request's holder (`X-Upload-Request-Token`), or the signed-in user.
 */
export async function uploader(ctx: AppContext, request: RequestView): Promise<Principal> {
  const share = request.header('x-share-token');
  if (share !== undefined) return shareHolder(ctx, request, share, 'write');
  const upload = request.header('x-upload-request-token');
  if (upload !== undefined) return requestHolder(ctx, request, upload, 'write');
  const principal = await requireSignedIn(ctx, request);
  requireWrite(principal);
  return principal;
}

/**
 * After the principal made an item by hand (a folder): a request's holder may change what it made
 * later, so the request records it. Uploads are recorded through the `upload.finished` event.
 */
export async function recordMade(ctx: AppContext, principal: Principal, item: { id: string }): Promise<void> {
  if (principal.kind === 'request') await recordRequestItem(ctx, principal.request, item);
}

/**
 * What an upload is bound to, kept with it while it is in flight (tus metadata, chunk records,
 * the finishing intent): only the same principal may continue it, and when it finishes the
 * `upload.finished` event names who made it (`originOf`). Opaque to the uploads feature.
 */
export function bindingOf(principal: Principal): string {
  switch (principal.kind) {
    case 'user':
      return principal.user.id;
    case 'share':
      return `share:${principal.share.share.id}`;
    case 'request':
      return `request:${principal.request.request.id}`;
    case 'member':
      return `member:${principal.member.account.id}:${principal.member.teamFolderId}`;
  }
}

export interface PrincipalOrigin {
  kind: PrincipalKind;
  /** The user's id, the share's or the request's id, or the member's account id. */
  id: string;
}

/** Who a stored binding names (`bindingOf`); an upload bound to no link is the owner's own. */
export function originOf(binding: string | null | undefined, ownerId: string): PrincipalOrigin {
  const [kind, id] = (binding ?? '').split(':');
  if ((kind === 'share' || kind === 'request' || kind === 'member') && id) return { kind, id };
  return { kind: 'user', id: ownerId };
}
