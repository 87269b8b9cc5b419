import { randomUUID } from 'node:crypto';
import type { SharePermission } from '../../../db/schema.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../auth/passwords.ts';
import type { User } from '../auth/sessions.ts';
import { forgetAttempts, refundAttempt, remember, remembered, takeAttempt, type Backoff } from '../auth/throttle.ts';
import { generateSecret, hashSecret } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';
import { requireOwnedItem, type Actor } from '../files/access.ts';
import { findItem, findItemWithCount, type ItemRow, type ItemWithCount } from '../files/queries.ts';
import { AppError, forbidden, notFound, validationError } from '../http/errors.ts';
import { displayName, escapeHtml, htmlParagraphs, takeUserMail, type UserMailTicket } from '../mail/outgoing.ts';
import { findUserById } from '../users/queries.ts';
import { requireVerifiedEmail } from '../users/restrictions.ts';
import * as q from './queries.ts';
import type { ShareRow } from './queries.ts';

/**
 * Share links: an owner's item opened to whoever holds the token, as a visitor (view, download,
 * zip) or an editor (also upload, create folders, rename, move, remove inside it). Every
 * token-scoped request comes through `openShare`, which checks the token, the expiry, the item
 * (a trashed or deleted item kills the link), the password session and the permission, and hands
 * back the owner as an Actor scoped to the shared item for the file service to act as.
 */

/** 24 random bytes: 192 bits, 39 base32 characters. */
const TOKEN = /^[a-z2-7]{39}$/;
export const newShareToken = () => generateSecret(24);

export const SHARE_SESSION_HOURS = 24;
/**
 * Unlocking a protected link backs off (auth/throttle.ts) per (link, IP) and per IP. The link as a
 * whole has a much higher ceiling against guessing from many addresses, which does not apply to an
 * address that unlocked the link before (remembered for KNOWN_UNLOCKER_MS), so guessers cannot
 * lock out the people the link was given to.
 */
export const AUTH_LIMITS = {
  perTokenAndIp: { free: 5, baseMs: 30_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 },
  perIp: { free: 20, baseMs: 60_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 },
  perToken: { free: 50, baseMs: 60_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 },
} satisfies Record<string, Backoff>;
const KNOWN_UNLOCKER_MS = 30 * 24 * 3600_000;

export const shareCookieName = (share: Pick<ShareRow, 'id'>) => `share_${share.id.replace(/-/g, '')}`;

const dead = () => notFound('This link does not exist or has expired.');

export function isExpired(ctx: AppContext, share: Pick<ShareRow, 'expires_at'>): boolean {
  return share.expires_at !== null && share.expires_at <= ctx.clock.now().toISOString();
}

function expiresAt(ctx: AppContext, hours: number | null): string | null {
  return hours === null ? null : new Date(ctx.clock.now().getTime() + hours * 3600_000).toISOString();
}

/** The link mailed to each address (the budget was taken before the share was saved). */
async function sendLink(ctx: AppContext, ticket: UserMailTicket, owner: User, share: ShareRow, item: Pick<ItemRow, 'name' | 'type'>): Promise<void> {
  const link = shareLink(ctx, share);
  const sender = displayName(owner.name);
  const what = item.type === 'folder' ? 'folder' : 'file';
  const locked = share.password_hash ? 'The link is protected by a password; ask the sender for it.' : '';
  await ticket.send({
    subject: `${sender} shared a ${what} with you`,
    text: `${sender} shared "${item.name}" with you.\n\nOpen it here: ${link}\n${locked ? `\n${locked}\n` : ''}`,
    html: `${htmlParagraphs(`${sender} shared "${item.name}" with you.`)}\n<p><a href="${escapeHtml(link)}">Open it</a></p>${locked ? `\n${htmlParagraphs(locked)}` : ''}`,
  });
}

export function shareLink(ctx: AppContext, share: Pick<ShareRow, 'token' | 'type'>): string {
  return `${ctx.config.appUrl.origin}/share/${share.token}/${share.type === 'folder' ? 'files' : 'file'}`;
}

// --- the owner's calls ------------------------------------------------------------------------

export async function createShare(
  ctx: AppContext,
  user: User,
  itemId: string,
  input: { type: 'folder' | 'file'; permission: SharePermission; password?: string | null | undefined; expiration?: number | null | undefined; emails?: string[] | undefined },
): Promise<ShareRow> {
  await requireVerifiedEmail(ctx, user);
  const item = await requireOwnedItem(ctx, user, itemId, { type: input.type, field: 'type' });
  if (await q.findShareOfItem(ctx.db, user.id, item.id)) throw validationError({ item: ['This item is shared already: change its link instead.'] });
  const mail = input.emails?.length ? await takeUserMail(ctx, user, input.emails) : null;
  const at = ctx.clock.now().toISOString();
  const share: ShareRow = {
    id: randomUUID(),
    token: newShareToken(),
    user_id: user.id,
    item_id: item.id,
    type: item.type,
    permission: input.permission,
    password_hash: input.password ? await hashPassword(input.password) : null,
    expire_in: input.expiration ?? null,
    expires_at: expiresAt(ctx, input.expiration ?? null),
    created_at: at,
    updated_at: at,
  };
  await q.insertShare(ctx.db, share);
  if (mail) await sendLink(ctx, mail, user, share, item);
  return share;
}

/** A share of the user's, by token; another's or an unknown token is the same 404. */
async function requireOwnShare(ctx: AppContext, user: User, token: string): Promise<ShareRow> {
  const share = TOKEN.test(token) ? await q.findShareByToken(ctx.db, token) : undefined;
  if (!share || share.user_id !== user.id) throw notFound('The link was not found.');
  return share;
}

export async function updateShare(
  ctx: AppContext,
  user: User,
  token: string,
  input: { permission?: SharePermission | undefined; password?: string | null | undefined; expiration?: number | null | undefined; emails?: string[] | undefined },
): Promise<ShareRow> {
  if (input.emails?.length) await requireVerifiedEmail(ctx, user);
  const share = await requireOwnShare(ctx, user, token);
  const mail = input.emails?.length ? await takeUserMail(ctx, user, input.emails) : null;
  const patch: Partial<ShareRow> = { updated_at: ctx.clock.now().toISOString() };
  if (input.permission !== undefined) patch.permission = input.permission;
  if (input.expiration !== undefined) {
    patch.expire_in = input.expiration;
    patch.expires_at = expiresAt(ctx, input.expiration);
  }
  if (input.password !== undefined) patch.password_hash = input.password === null ? null : await hashPassword(input.password);
  await ctx.db.transaction().execute(async (tx) => {
    await q.updateShare(tx, share.id, patch);
    // A new or removed password ends every visitor session unlocked with the old one.
    if (input.password !== undefined) await q.deleteShareSessions(tx, share.id);
  });
  const updated = { ...share, ...patch };
  if (mail) {
    const item = await findItem(ctx.db, share.item_id);
    if (item) await sendLink(ctx, mail, user, updated, item);
  }
  return updated;
}

/** Revokes the user's links by token; one token that is not theirs refuses the lot (404). */
export async function revokeShares(ctx: AppContext, user: User, tokens: string[]): Promise<void> {
  const shares: ShareRow[] = [];
  for (const token of new Set(tokens)) shares.push(await requireOwnShare(ctx, user, token));
  await q.deleteShares(ctx.db, shares.map((s) => s.id));
}

/** Everything the user shares, with the item, newest link first. */
export async function mySharedItems(ctx: AppContext, user: User): Promise<{ share: ShareRow; item: ItemWithCount }[]> {
  const shares = await q.listLiveSharesOf(ctx.db, user.id);
  const out: { share: ShareRow; item: ItemWithCount }[] = [];
  for (const share of shares) {
    const item = await findItemWithCount(ctx.db, share.item_id);
    if (item) out.push({ share, item });
  }
  return out;
}

export function sharesOfItems(ctx: AppContext, user: User, itemIds: string[]): Promise<Map<string, ShareRow>> {
  return q.sharesOfItems(ctx.db, user.id, itemIds);
}

// --- token holders ----------------------------------------------------------------------------

export interface OpenedShare {
  share: ShareRow;
  item: ItemRow;
  owner: User;
  /** The owner, scoped to the shared item: what the file service acts as. */
  actor: Actor;
  /** The browser may see the item: the link has no password, or this browser unlocked it. */
  unlocked: boolean;
}

/** Reads a cookie of the current request (Astro's cookies or the data plane's header). */
export type CookieReader = (name: string) => string | undefined;

/** The live share behind a token, without the password check: unknown, expired or trashed is a 404. */
async function liveShare(ctx: AppContext, token: string): Promise<Omit<OpenedShare, 'unlocked'>> {
  const share = TOKEN.test(token) ? await q.findShareByToken(ctx.db, token) : undefined;
  if (!share || isExpired(ctx, share)) throw dead();
  const item = await findItem(ctx.db, share.item_id);
  if (!item || item.owner_id !== share.user_id || item.deleted_at !== null) throw dead();
  const owner = await findUserById(ctx, share.user_id);
  if (!owner || owner.deletion_started_at) throw dead();
  return { share, item, owner, actor: { ...owner, scope: { rootId: item.id } } };
}

async function isUnlocked(ctx: AppContext, share: ShareRow, cookie: CookieReader): Promise<boolean> {
  if (!share.password_hash) return true;
  const secret = cookie(shareCookieName(share));
  if (!secret || secret.length > 100) return false;
  return q.findShareSession(ctx.db, hashSecret(secret), share.id, ctx.clock.now().toISOString());
}

/** The share detail: answered for locked links too (the page then asks for the password). */
export async function peekShare(ctx: AppContext, token: string, cookie: CookieReader): Promise<OpenedShare> {
  const opened = await liveShare(ctx, token);
  return { ...opened, unlocked: await isUnlocked(ctx, opened.share, cookie) };
}

/**
 * Opens a share for one token-scoped call: 404 for a dead link, 401 while a protected link is
 * locked in this browser, 403 for a visitor calling an editor's action.
 */
export async function openShare(ctx: AppContext, token: string, cookie: CookieReader, need: 'read' | 'write'): Promise<OpenedShare> {
  const opened = await peekShare(ctx, token, cookie);
  if (!opened.unlocked) throw new AppError(401, 'This link is protected by a password.', { code: 'share_password_required' });
  if (need === 'write' && opened.share.permission !== 'editor') throw forbidden('This link only lets you view and download.');
  return opened;
}

/**
 * Unlocks a protected link for this browser. Attempts back off per link and IP (AUTH_LIMITS; 429
 * with Retry-After); an unknown token costs the same password check as a wrong password, then 404.
 */
export async function authenticateShare(ctx: AppContext, token: string, password: string, ip: string): Promise<{ opened: OpenedShare; secret: string | null; expires: Date | null }> {
  const link = hashSecret(token.slice(0, 100));
  const address = hashSecret(ip);
  const keys = { ip: `share-auth:ip:${ip}`, linkAndIp: `share-auth:token-ip:${link}:${address}`, link: `share-auth:token:${link}`, known: `share-auth:known:${link}:${address}` };
  const known = await remembered(ctx, keys.known);
  await takeAttempt(ctx, [
    { key: keys.ip, limit: AUTH_LIMITS.perIp },
    { key: keys.linkAndIp, limit: AUTH_LIMITS.perTokenAndIp },
    ...(known ? [] : [{ key: keys.link, limit: AUTH_LIMITS.perToken }]),
  ]);
  let opened: Omit<OpenedShare, 'unlocked'>;
  try {
    opened = await liveShare(ctx, token);
  } catch (error) {
    await verifyAgainstDummy(password);
    throw error;
  }
  const { share } = opened;
  if (share.password_hash && !(await verifyPassword(share.password_hash, password))) throw validationError({ password: ['The password is not correct.'] });
  await forgetAttempts(ctx, [keys.linkAndIp]);
  await refundAttempt(ctx, [keys.ip, ...(known ? [] : [keys.link])]);
  await remember(ctx, keys.known, KNOWN_UNLOCKER_MS);
  if (!share.password_hash) return { opened: { ...opened, unlocked: true }, secret: null, expires: null };
  const secret = generateSecret();
  const lifetime = new Date(ctx.clock.now().getTime() + SHARE_SESSION_HOURS * 3600_000);
  const expires = share.expires_at && share.expires_at < lifetime.toISOString() ? new Date(share.expires_at) : lifetime;
  await q.insertShareSession(ctx.db, { id: hashSecret(secret), share_id: share.id, expires_at: expires.toISOString() });
  return { opened: { ...opened, unlocked: true }, secret, expires };
}
