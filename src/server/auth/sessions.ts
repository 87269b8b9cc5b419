import type { Selectable } from 'kysely';
import type { SessionsTable, UsersTable } from '../../../db/schema.ts';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { AppContext } from '../context.ts';
import { generateSecret, hashSecret } from './tokens.ts';

const DAY = 24 * 60 * 60_000;
/** "Remember me" sessions last 30 days, others 2 days; both slide forward when past half their life. */
export const SESSION_LIFETIME = { persistent: 30 * DAY, browser: 2 * DAY };
export const SESSION_COOKIE = 'session';

export type Session = Selectable<SessionsTable>;
export type User = Selectable<UsersTable>;

/** A new session is a sign-in (a password sign-in, or the setup wizard's first admin): the user's last sign-in moves to now. */
export async function createSession(ctx: AppContext, userId: string, persistent: boolean): Promise<{ token: string; session: Session }> {
  const token = generateSecret();
  const now = ctx.clock.now();
  const session: Session = {
    id: hashSecret(token),
    user_id: userId,
    persistent: persistent ? 1 : 0,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + lifetime(persistent)).toISOString(),
  };
  await ctx.db.insertInto('sessions').values(session).execute();
  await ctx.db.updateTable('users').set({ last_signed_in_at: session.created_at }).where('id', '=', userId).execute();
  return { token, session };
}

/** Looks a cookie token up by its hash; extends a session past half its life (the returned `renewed` says so). */
/**
 * Every signed-in request's first statement, compiled once (db/compiled-once.ts). The session's
 * fields as scalar subqueries by its key, not a join: SQLite ran the join at 100-150 us against
 * 15-20 us for this, on both an idle and a busy machine.
 */
const sessionWithUser = compiledOnce((db, id: string) => {
  const ofSession = db.selectFrom('sessions').where('id', '=', id);
  return (
    db
      .selectFrom('users')
      .selectAll('users')
      .select([ofSession.select('expires_at').as('session_expires_at'), ofSession.select('persistent').as('session_persistent'), ofSession.select('created_at').as('session_created_at')])
      .where('users.id', '=', ofSession.select('user_id'))
      // An account an admin is deleting is signed out at once, whatever sessions are left.
      .where('users.deletion_started_at', 'is', null)
  );
});

export async function validateSessionToken(ctx: AppContext, token: string): Promise<{ session: Session; user: User; renewed: boolean } | null> {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const id = hashSecret(token);
  const row = (await sessionWithUser(ctx.db, id)).rows[0];
  if (!row || row.session_expires_at === null || row.session_persistent === null || row.session_created_at === null) return null;
  const { session_expires_at, session_persistent, session_created_at, ...user } = row;
  const session: Session = { id, user_id: user.id, expires_at: session_expires_at, persistent: session_persistent, created_at: session_created_at };
  const now = ctx.clock.now().getTime();
  const expires = Date.parse(session.expires_at);
  if (now >= expires) {
    await ctx.db.deleteFrom('sessions').where('id', '=', session.id).execute();
    return null;
  }
  const life = lifetime(session.persistent === 1);
  let renewed = false;
  if (expires - now < life / 2) {
    session.expires_at = new Date(now + life).toISOString();
    await ctx.db.updateTable('sessions').set({ expires_at: session.expires_at }).where('id', '=', session.id).execute();
    renewed = true;
  }
  return { session, user, renewed };
}

/**
 * Whether session `sessionId` of `userId` still signs its holder in, asked again by a response that
 * outlives its request (the event stream): the same lookup as a request's, without renewing it.
 */
export async function sessionHolds(ctx: AppContext, sessionId: string, userId: string): Promise<boolean> {
  const row = (await sessionWithUser(ctx.db, sessionId)).rows[0];
  return !!row && row.id === userId && row.session_expires_at !== null && ctx.clock.now().getTime() < Date.parse(row.session_expires_at);
}

export async function invalidateSession(ctx: AppContext, sessionId: string): Promise<void> {
  await ctx.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

export async function invalidateUserSessions(ctx: AppContext, userId: string, exceptSessionId?: string): Promise<void> {
  let query = ctx.db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}

function lifetime(persistent: boolean): number {
  return persistent ? SESSION_LIFETIME.persistent : SESSION_LIFETIME.browser;
}

export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  sameSite: 'lax';
  secure: boolean;
  maxAge?: number;
}

/** Cookie attributes for a session; browser sessions get no Max-Age so they end with the browser. */
export function sessionCookieOptions(session: Session, secure: boolean, now: Date): CookieOptions {
  const options: CookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure };
  if (session.persistent === 1) options.maxAge = Math.floor((Date.parse(session.expires_at) - now.getTime()) / 1000);
  return options;
}
