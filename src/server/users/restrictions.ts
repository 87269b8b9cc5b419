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
 * A user's flags: everything allowed, except what an override on the user turns off (set by an admin,
 * and later by billing, e.g. a limited account). Unknown or unreadable overrides are ignored.
 */
export function restrictionsFor(user: Pick<User, 'restrictions'>): Restrictions {
  const flags = { ...DEFAULTS };
  if (!user.restrictions) return flags;
  try {
    const overrides = JSON.parse(user.restrictions) as Record<string, unknown>;
    for (const key of Object.keys(DEFAULTS) as (keyof Restrictions)[]) {
      if (typeof overrides[key] === 'boolean') flags[key] = overrides[key];
    }
  } catch {
    /* an unreadable override restricts nothing */
  }
  return flags;
}

/** The stored form of a user's flags (users.restrictions): only those that differ from the defaults; null for none. */
export function restrictionOverrides(flags: Restrictions): string | null {
  const overrides = Object.fromEntries(RESTRICTION_FLAGS.filter((key) => flags[key] !== DEFAULTS[key]).map((key) => [key, flags[key]]));
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
  await updateUser(ctx, userId, { restrictions: Object.keys(overrides).length ? JSON.stringify(overrides) : null });
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
