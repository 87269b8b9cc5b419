import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { getSettings, type Settings } from '../settings/service.ts';
import { updateUser } from './queries.ts';

/** The restriction flags of SPEC §3 (`data.meta.restrictions`). */
export interface Restrictions {
  canUpload: boolean;
  canDownload: boolean;
  canCreateFolder: boolean;
  canCreateTeamFolder: boolean;
}

const DEFAULTS: Restrictions = { canUpload: true, canDownload: true, canCreateFolder: true, canCreateTeamFolder: true };
export const RESTRICTION_FLAGS = Object.keys(DEFAULTS) as (keyof Restrictions)[];

/**
 * The key in users.restrictions that billing sets while an account is limited (3 unresolved failed
 * payments, SPEC §4/§9; src/server/billing/restriction.ts). It sits beside the admin's flags and
 * turns every flag off while set: lifting it leaves the admin's flags as they were, and an admin
 * switching a flag back on does not lift it.
 */
export const BILLING_LIMIT_KEY = 'billing_limited';

function parseOverrides(raw: string | null): Record<string, unknown> {
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    /* an unreadable override restricts nothing */
    return {};
  }
}

/** The flags an admin set on the user (users.restrictions without billing's limit). */
export function adminRestrictionsFor(user: Pick<User, 'restrictions'>): Restrictions {
  const flags = { ...DEFAULTS };
  const overrides = parseOverrides(user.restrictions);
  for (const key of RESTRICTION_FLAGS) {
    if (typeof overrides[key] === 'boolean') flags[key] = overrides[key];
  }
  return flags;
}

/** Whether billing limits the account (SPEC §4: 3 failed payments). */
export function billingLimited(user: Pick<User, 'restrictions'>): boolean {
  return parseOverrides(user.restrictions)[BILLING_LIMIT_KEY] === true;
}

/**
 * A user's flags: everything allowed, except what an admin's override on the user turns off, and
 * nothing while billing limits the account. Unknown or unreadable overrides are ignored.
 */
export function restrictionsFor(user: Pick<User, 'restrictions'>): Restrictions {
  const flags = adminRestrictionsFor(user);
  if (!billingLimited(user)) return flags;
  return { canUpload: false, canDownload: false, canCreateFolder: false, canCreateTeamFolder: false };
}

/**
 * The stored form of a user's flags (users.restrictions): only those that differ from the defaults,
 * keeping billing's limit of the stored value `previous`; null for none.
 */
export function restrictionOverrides(flags: Restrictions, previous: string | null = null): string | null {
  const overrides: Record<string, boolean> = Object.fromEntries(RESTRICTION_FLAGS.filter((key) => flags[key] !== DEFAULTS[key]).map((key) => [key, flags[key]]));
  if (parseOverrides(previous)[BILLING_LIMIT_KEY] === true) overrides[BILLING_LIMIT_KEY] = true;
  return Object.keys(overrides).length ? JSON.stringify(overrides) : null;
}

/** The stored form with billing's limit set or lifted, the admin's flags kept. */
export function withBillingLimit(previous: string | null, limited: boolean): string | null {
  const overrides = { ...parseOverrides(previous) };
  if (limited) overrides[BILLING_LIMIT_KEY] = true;
  else delete overrides[BILLING_LIMIT_KEY];
  return Object.keys(overrides).length ? JSON.stringify(overrides) : null;
}

/**
 * The stored form of the flags two accounts allow together (each flag on only if both have it on):
 * a team member acts with the owner's files under both accounts' flags.
 */
export function jointRestrictions(a: Pick<User, 'restrictions'>, b: Pick<User, 'restrictions'>): string | null {
  const [x, y] = [restrictionsFor(a), restrictionsFor(b)];
  return restrictionOverrides(Object.fromEntries(RESTRICTION_FLAGS.map((key) => [key, x[key] && y[key]])) as unknown as Restrictions);
}

export async function setRestrictions(ctx: AppContext, userId: string, overrides: Partial<Restrictions>): Promise<void> {
  const row = await ctx.db.selectFrom('users').select('restrictions').where('id', '=', userId).executeTakeFirst();
  const limited = billingLimited({ restrictions: row?.restrictions ?? null });
  const stored = { ...overrides, ...(limited ? { [BILLING_LIMIT_KEY]: true } : {}) };
  await updateUser(ctx, userId, { restrictions: Object.keys(stored).length ? JSON.stringify(stored) : null });
}

export const EMAIL_VERIFICATION_REQUIRED = 'email_verification_required';

/** With `email_verification_required` on, an account whose address is not verified yet is held back. */
export function verificationPending(user: Pick<User, 'email_verified_at'>, settings: Pick<Settings, 'email_verification_required'>): boolean {
  return settings.email_verification_required && !user.email_verified_at;
}

/**
 * The one gate for everything that reaches other people or brings content in (uploads of every
 * kind, share links, sharing by email, upload requests, import from URL): an unverified account may
 * sign in and look around, but not do these until it confirms its address (403, code
 * `email_verification_required`; the app shell offers to send the link again).
 */
export function assertEmailVerified(user: Pick<User, 'email_verified_at'>, settings: Pick<Settings, 'email_verification_required'>): void {
  if (!verificationPending(user, settings)) return;
  throw new AppError(403, 'Please verify your email address first: open the link we sent you, or ask for a new one.', { code: EMAIL_VERIFICATION_REQUIRED });
}

/** `assertEmailVerified` for callers that have not read the settings yet. */
export async function requireVerifiedEmail(ctx: AppContext, user: Pick<User, 'email_verified_at'>): Promise<void> {
  assertEmailVerified(user, await getSettings(ctx));
}
