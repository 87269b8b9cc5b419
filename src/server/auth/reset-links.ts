import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import type { AppContext } from '../context.ts';
import type { User } from './sessions.ts';
import { generateSecret, hashSecret } from './tokens.ts';

/** A reset link from "forgotten password" or an admin's "send a reset link" lives an hour. */
export const RESET_LIFETIME_MS = 60 * 60_000;
/** An invitation to a new account (the same link) lives a week: the person may not read mail today. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/**
 * Stores a new set-password token for the user (only its hash) and answers the link to
 * /create-new-password that carries it. Pass the transaction when the token belongs with a change.
 */
export async function createPasswordResetLink(ctx: AppContext, db: Kysely<Database>, user: Pick<User, 'id' | 'email'>, lifetimeMs = RESET_LIFETIME_MS): Promise<string> {
  const token = generateSecret(32);
  const now = ctx.clock.now();
  await db
    .insertInto('password_resets')
    .values({ token_hash: hashSecret(token), user_id: user.id, created_at: now.toISOString(), expires_at: new Date(now.getTime() + lifetimeMs).toISOString() })
    .execute();
  return new URL(`/create-new-password?token=${token}&email=${encodeURIComponent(user.email)}`, ctx.config.appUrl).href;
}

/** Takes a link back (its mail could not be sent). */
export async function dropPasswordResetLink(db: Kysely<Database>, link: string): Promise<void> {
  const token = new URL(link).searchParams.get('token');
  if (token) await db.deleteFrom('password_resets').where('token_hash', '=', hashSecret(token)).execute();
}
