import type { AppContext } from '../context.ts';
import { validationError } from '../http/errors.ts';
import { hashSecret } from './tokens.ts';

/**
 * WebAuthn challenges between the options and the answer. They are kept in the database (several
 * app nodes may serve the two requests), found again by the challenge the answer's clientDataJSON
 * names, and deleted when taken: each answers once, and only what it was made for.
 */
export type ChallengePurpose = 'register' | 'sign-in' | 'second-step';

/** Long enough for a person to find their phone or key; the browser gives up after `WEBAUTHN_TIMEOUT_MS`. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const WEBAUTHN_TIMEOUT_MS = 120_000;

const expired = () => validationError({ credential: ['This passkey request has expired or was used already. Try again.'] });

export async function storeChallenge(ctx: AppContext, challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('webauthn_challenges')
    .values({ id: hashSecret(challenge), user_id: userId, purpose, challenge, created_at: now.toISOString(), expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString() })
    .execute();
  // Sign-in challenges belong to nobody, so no account's next request would clear them: old ones go here.
  await ctx.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now.toISOString()).execute();
}

/**
 * Takes (deletes) the challenge an answer names, whatever the answer turns out to be: a second try
 * with the same challenge finds nothing. 422 when it is unknown, expired, for another purpose or
 * another account.
 */
export async function takeChallenge(ctx: AppContext, clientDataJSON: string, purpose: ChallengePurpose, userId: string | null): Promise<string> {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) throw expired();
  let query = ctx.db.deleteFrom('webauthn_challenges').where('id', '=', hashSecret(challenge)).where('purpose', '=', purpose);
  query = userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
  const row = await query.returning(['challenge', 'expires_at']).executeTakeFirst();
  if (!row || row.challenge !== challenge || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) throw expired();
  return row.challenge;
}

/** The challenge in a clientDataJSON (base64url JSON), or null when it is not one. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = data && typeof data === 'object' ? (data as Record<string, unknown>).challenge : undefined;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 256 ? challenge : null;
  } catch {
    return null;
  }
}
