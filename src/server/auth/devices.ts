import type { AppContext } from '../context.ts';
import { generateSecret, hashSecret } from './tokens.ts';

/**
 * Device cookies (OWASP's "device cookies" against account lock-out): a successful sign-in leaves a
 * random long-lived cookie naming the account (only its hash is stored, with the user). A later
 * sign-in to that account presenting it is throttled per cookie instead of under the account's
 * ceiling, so someone guessing from elsewhere cannot lock the owner out of a browser they used
 * before. It grants nothing else: the password is still checked.
 */
export const DEVICE_COOKIE = 'device';
export const DEVICE_LIFETIME_MS = 365 * 24 * 60 * 60_000;
/** Devices remembered per user; older ones are dropped (scripts signing in without cookies add one each time). */
const KEEP_PER_USER = 20;
const TOKEN = /^[a-z2-7]{32}$/;

/** The stored id of a cookie that is valid for the account with this email, or null. */
export async function deviceFor(ctx: AppContext, token: string | undefined, email: string): Promise<string | null> {
  if (!token || !TOKEN.test(token)) return null;
  const row = await ctx.db
    .selectFrom('sign_in_devices')
    .innerJoin('users', 'users.id', 'sign_in_devices.user_id')
    .select('sign_in_devices.id')
    .where('sign_in_devices.id', '=', hashSecret(token))
    .where('users.email', '=', email.toLowerCase())
    .where('sign_in_devices.expires_at', '>', ctx.clock.now().toISOString())
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A new device cookie for the user (the caller sets it), dropping their expired and oldest ones. */
export async function rememberDevice(ctx: AppContext, userId: string): Promise<{ token: string; expires: Date }> {
  const token = generateSecret();
  const now = ctx.clock.now();
  const expires = new Date(now.getTime() + DEVICE_LIFETIME_MS);
  await ctx.db.insertInto('sign_in_devices').values({ id: hashSecret(token), user_id: userId, created_at: now.toISOString(), expires_at: expires.toISOString() }).execute();
  const keep = ctx.db.selectFrom('sign_in_devices').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').limit(KEEP_PER_USER);
  await ctx.db
    .deleteFrom('sign_in_devices')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', now.toISOString()), eb('id', 'not in', eb.selectFrom(keep.as('k')).select('k.id'))]))
    .execute();
  return { token, expires };
}
