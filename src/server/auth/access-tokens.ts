import { randomUUID } from 'node:crypto';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import type { User } from './sessions.ts';
import { generateSecret, hashSecret } from './tokens.ts';

/** Personal access tokens: "cd_" + 160 random bits. Shown once at creation; only the hash is kept. */
const PREFIX = 'cd_';

export interface AccessTokenView {
  id: string;
  name: string;
  last_used_at: string | null;
  created_at: string;
}

export async function createAccessToken(ctx: AppContext, userId: string, name: string): Promise<{ token: string; accessToken: AccessTokenView }> {
  const token = PREFIX + generateSecret(20);
  const row = { id: randomUUID(), user_id: userId, name, token_hash: hashSecret(token), last_used_at: null, created_at: ctx.clock.now().toISOString() };
  await ctx.db.insertInto('access_tokens').values(row).execute();
  return { token, accessToken: { id: row.id, name, last_used_at: null, created_at: row.created_at } };
}

export async function listAccessTokens(ctx: AppContext, userId: string): Promise<AccessTokenView[]> {
  return ctx.db
    .selectFrom('access_tokens')
    .select(['id', 'name', 'last_used_at', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function revokeAccessToken(ctx: AppContext, userId: string, id: string): Promise<void> {
  const result = await ctx.db.deleteFrom('access_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('Access token not found.');
}

/** Every token of the user: a password change or reset ends them all. */
export async function revokeAllAccessTokens(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.deleteFrom('access_tokens').where('user_id', '=', userId).execute();
}

/**
 * How stale a token's `last_used_at` may be: a sync client (WebDAV, rclone) sends hundreds of
 * requests a minute, and a write per request would cost each of them a commit for a date the
 * settings page shows to the minute.
 */
const LAST_USED_PRECISION_MS = 60_000;

/**
 * The user of a token hash (outside a deletion) with the token's `last_used_at`; compiled once
 * (db/compiled-once.ts): every API request with a token asks. Scalar subqueries by the token's key,
 * not a join (see sessions.ts validateSessionToken: SQLite's join cost several times more).
 */
const tokenUser = compiledOnce((db, hash: string) => {
  const ofToken = db.selectFrom('access_tokens').where('token_hash', '=', hash);
  return db
    .selectFrom('users')
    .selectAll('users')
    .select(ofToken.select('last_used_at').as('token_last_used_at'))
    .where('users.id', '=', ofToken.select('user_id'))
    .where('users.deletion_started_at', 'is', null);
});

/** Whether access token `token` still signs `userId` in (not revoked, the account not being deleted); it is not marked used. */
export async function accessTokenHolds(ctx: AppContext, token: string, userId: string): Promise<boolean> {
  if (!token.startsWith(PREFIX) || token.length > 100) return false;
  const row = (await tokenUser(ctx.db, hashSecret(token))).rows[0];
  return row?.id === userId;
}

export async function userForAccessToken(ctx: AppContext, token: string): Promise<User | null> {
  if (!token.startsWith(PREFIX) || token.length > 100) return null;
  const hash = hashSecret(token);
  const row = (await tokenUser(ctx.db, hash)).rows[0];
  if (!row) return null;
  const { token_last_used_at, ...user } = row;
  const now = ctx.clock.now();
  if (token_last_used_at === null || now.getTime() - Date.parse(token_last_used_at) >= LAST_USED_PRECISION_MS) {
    await ctx.db.updateTable('access_tokens').set({ last_used_at: now.toISOString() }).where('token_hash', '=', hash).execute();
  }
  return user;
}
