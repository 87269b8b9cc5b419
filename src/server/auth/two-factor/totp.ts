import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { openSecret, sealSecret } from '../../settings/secrets.ts';
import type { User } from '../sessions.ts';

/**
 * TOTP (RFC 6238) as every authenticator app speaks it: SHA-1, 6 digits, 30 s steps, a 160-bit key.
 * A code is accepted for the step before, the current one and the next (clocks drift), and only
 * for a step later than the last one accepted: a code seen once (over a shoulder, in a log) never
 * passes again, and of two requests racing with one code only one wins.
 */
export const PERIOD_SECONDS = 30;
export const DIGITS = 6;
const WINDOW = 1;

export const newTotpKey = (): string => encodeBase32UpperCaseNoPadding(randomBytes(20));

export function totpUri(issuer: string, email: string, key: string): string {
  return createTOTPKeyURI(issuer, email, decodeBase32IgnorePadding(key), PERIOD_SECONDS, DIGITS);
}

const purpose = (userId: string) => `totp:${userId}`;
export const sealTotpKey = (ctx: AppContext, userId: string, key: string) => sealSecret(ctx, purpose(userId), key);

/** The account's key in plain base32, or null when it has none (or it no longer decrypts). */
export async function totpKeyOf(ctx: AppContext, user: Pick<User, 'id' | 'totp_secret'>): Promise<string | null> {
  if (!user.totp_secret) return null;
  const key = await openSecret(ctx, purpose(user.id), user.totp_secret);
  if (key === null) ctx.logger.error({ userId: user.id }, 'a TOTP key could not be decrypted: the instance secret (APP_KEY or DATA_DIR/instance.key) changed');
  return key;
}

export const currentStep = (now: Date) => Math.floor(now.getTime() / 1000 / PERIOD_SECONDS);

/** The step within the window whose code this is, or null. Every candidate is compared, in constant time. */
export function matchingStep(key: string, code: string, now: Date): number | null {
  if (!/^\d+$/.test(code) || code.length !== DIGITS) return null;
  const secret = decodeBase32IgnorePadding(key);
  const given = Buffer.from(code);
  const current = currentStep(now);
  let found: number | null = null;
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    if (timingSafeEqual(Buffer.from(generateHOTP(secret, BigInt(step), DIGITS)), given) && found === null) found = step;
  }
  return found;
}

/**
 * Takes a step for the account: true only when no code of this step or a later one was accepted
 * before. One conditional UPDATE, so two requests with the same code cannot both pass.
 */
export async function claimStep(ctx: AppContext, userId: string, step: number, extra: { two_factor_enabled_at?: string } = {}): Promise<boolean> {
  const row = await ctx.db
    .updateTable('users')
    .set({ totp_last_step: step, ...extra })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .where('totp_secret', 'is not', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A code for an account whose key is `key`: the step it matched is claimed (replays fail). */
export async function checkTotp(ctx: AppContext, user: Pick<User, 'id' | 'totp_secret'>, code: string): Promise<boolean> {
  const key = await totpKeyOf(ctx, user);
  if (!key) return false;
  const step = matchingStep(key, code, ctx.clock.now());
  return step !== null && (await claimStep(ctx, user.id, step));
}
