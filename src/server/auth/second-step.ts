import type { Selectable } from 'kysely';
import type { SignInChallengesTable } from '../../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { validationError } from '../http/errors.ts';
import { findUserById } from '../users/queries.ts';
import { rememberDevice } from './devices.ts';
import { assertSignInAllowed } from './oidc/only-provider.ts';
import { hit } from './rate-limit.ts';
import { createSession, type Session, type User } from './sessions.ts';
import { generateSecret, hashSecret } from './tokens.ts';

/**
 * Every way into an account ends here. `finishFirstStep` is called once the first step passed (a
 * password, a social or OpenID Connect provider): an account without two-factor authentication
 * gets its session at once; one with it gets a short-lived challenge token instead, which carries
 * no session and grants nothing but the right to try the second factor (a TOTP code, a recovery
 * code or a passkey). A second factor's endpoint opens the challenge, checks its factor, and calls
 * `passChallenge` or `failChallenge`.
 *
 * A passkey sign-in alone (no password) proves possession and user verification in one step, so it
 * calls `signInNow` and skips the challenge.
 */
export const CHALLENGE_LIFETIME_MS = 10 * 60_000;
/** Wrong second factors per challenge; the next one deletes it and the sign-in starts over. */
export const CHALLENGE_MAX_FAILURES = 5;
/** Second-step tries per account, whatever the challenge: a password alone cannot buy unlimited guesses. */
export const SECOND_STEP_PER_ACCOUNT = { max: 10, windowMs: 15 * 60_000 };
/** The cookie that carries the challenge token for the HTML sign-in form; only the /login endpoints read it. */
export const CHALLENGE_COOKIE = 'sign_in_challenge';
const TOKEN = /^[a-z2-7]{32}$/;

export type SignInMethod = 'password' | 'passkey' | `social:${string}` | `oidc:${string}`;
export type SecondFactor = 'totp' | 'recovery_code' | 'passkey';

export interface SignedIn {
  user: User;
  token: string;
  session: Session;
  /** A fresh device cookie for this browser (devices.ts). */
  device: { token: string; expires: Date };
}

export type FirstStepOutcome =
  | ({ kind: 'signed-in' } & SignedIn)
  | { kind: 'second-step'; user: User; challenge: string; expires: Date; factors: SecondFactor[] };

export type Challenge = Selectable<SignInChallengesTable>;

/**
 * The second factors an account can answer a challenge with; empty when two-factor authentication
 * is off. Kinds of factor register here (the passkeys module adds 'passkey').
 */
const factorSources: Array<(ctx: AppContext, user: User) => Promise<SecondFactor[]>> = [async (_ctx, user) => (user.two_factor_enabled_at ? ['totp', 'recovery_code'] : [])];

export function addSecondFactorSource(source: (ctx: AppContext, user: User) => Promise<SecondFactor[]>): void {
  factorSources.push(source);
}

export async function secondFactorsOf(ctx: AppContext, user: User): Promise<SecondFactor[]> {
  if (!user.two_factor_enabled_at) return [];
  const lists = await Promise.all(factorSources.map((source) => source(ctx, user)));
  return [...new Set(lists.flat())];
}

export async function finishFirstStep(ctx: AppContext, user: User, options: { remember: boolean; method: SignInMethod }): Promise<FirstStepOutcome> {
  await assertSignInAllowed(ctx, user, options.method);
  const factors = await secondFactorsOf(ctx, user);
  if (factors.length === 0) return { kind: 'signed-in', ...(await signInNow(ctx, user, options.remember)) };
  const challenge = generateSecret();
  const now = ctx.clock.now();
  const expires = new Date(now.getTime() + CHALLENGE_LIFETIME_MS);
  await ctx.db
    .insertInto('sign_in_challenges')
    .values({ id: hashSecret(challenge), user_id: user.id, persistent: options.remember ? 1 : 0, method: options.method, created_at: now.toISOString(), expires_at: expires.toISOString() })
    .execute();
  // Expired challenges of this account go as a new one is made; they are worthless anyway.
  await ctx.db.deleteFrom('sign_in_challenges').where('user_id', '=', user.id).where('expires_at', '<=', now.toISOString()).execute();
  return { kind: 'second-step', user, challenge, expires, factors };
}

/** A session for an account whose sign-in is complete. */
export async function signInNow(ctx: AppContext, user: User, remember: boolean): Promise<SignedIn> {
  const { token, session } = await createSession(ctx, user.id, remember);
  return { user, token, session, device: await rememberDevice(ctx, user.id) };
}

const expired = () => validationError({ challenge: ['This sign-in has expired. Sign in again.'] }, 'This sign-in has expired. Sign in again.');

/**
 * The challenge behind a token, and its account, for one second-factor try. Refused (422) when the
 * token is unknown or expired, or the account is being deleted; 429 once the account spent its
 * second-step budget. Every try counts against that budget, right or wrong.
 */
export async function openChallenge(ctx: AppContext, token: string | undefined | null): Promise<{ challenge: Challenge; user: User }> {
  if (!token || !TOKEN.test(token)) throw expired();
  const challenge = await ctx.db.selectFrom('sign_in_challenges').selectAll().where('id', '=', hashSecret(token)).executeTakeFirst();
  if (!challenge || Date.parse(challenge.expires_at) <= ctx.clock.now().getTime()) throw expired();
  const user = await findUserById(ctx, challenge.user_id);
  if (!user || user.deletion_started_at || !user.two_factor_enabled_at) throw expired();
  await hit(ctx, `second-step:${user.id}`, SECOND_STEP_PER_ACCOUNT);
  return { challenge, user };
}

/**
 * What a challenge can still be answered with, for the second-step page (which cannot read the
 * challenge cookie itself): no try is counted. Refused (422) like openChallenge when it is gone.
 */
export async function challengeFactors(ctx: AppContext, token: string | undefined | null): Promise<{ factors: SecondFactor[]; expires_at: string }> {
  if (!token || !TOKEN.test(token)) throw expired();
  const challenge = await ctx.db.selectFrom('sign_in_challenges').select(['user_id', 'expires_at']).where('id', '=', hashSecret(token)).executeTakeFirst();
  if (!challenge || Date.parse(challenge.expires_at) <= ctx.clock.now().getTime()) throw expired();
  const user = await findUserById(ctx, challenge.user_id);
  if (!user || user.deletion_started_at || !user.two_factor_enabled_at) throw expired();
  return { factors: await secondFactorsOf(ctx, user), expires_at: challenge.expires_at };
}

/**
 * A wrong second factor: counted on the challenge, which is deleted at CHALLENGE_MAX_FAILURES.
 * Always throws: the 422 names `field` (the form field of the factor tried) with `message`.
 */
export async function failChallenge(ctx: AppContext, challenge: Challenge, field: string, message: string): Promise<never> {
  const row = await ctx.db
    .updateTable('sign_in_challenges')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', challenge.id)
    .returning('failed_attempts')
    .executeTakeFirst();
  if (!row || row.failed_attempts >= CHALLENGE_MAX_FAILURES) {
    await ctx.db.deleteFrom('sign_in_challenges').where('id', '=', challenge.id).execute();
    throw validationError({ challenge: ['Too many wrong codes. Sign in again.'] }, 'Too many wrong codes. Sign in again.');
  }
  throw validationError({ [field]: [message] }, message);
}

/**
 * The second factor was right: the challenge is used up (once, even if two tries race) and the
 * session made.
 */
export async function passChallenge(ctx: AppContext, challenge: Challenge, user: User): Promise<SignedIn> {
  const taken = await ctx.db.deleteFrom('sign_in_challenges').where('id', '=', challenge.id).returning('id').executeTakeFirst();
  if (!taken) throw expired();
  return signInNow(ctx, user, challenge.persistent === 1);
}

/** Turning two-factor authentication off, or an admin resetting it, ends every sign-in half done. */
export async function dropChallenges(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
}
