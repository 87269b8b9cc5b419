import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { updateUser } from './queries.ts';

/** The restriction flags of SPEC §3 (`data.meta.restrictions`). */
export interface Restrictions {
  canUpload: boolean;
  canDownload: boolean;
  canCreateFolder: boolean;
  canCreateTeamFolder: boolean;
}

const DEFAULTS: Restrictions = { canUpload: true, canDownload: true, canCreateFolder: true, canCreateTeamFolder: true };

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

export async function setRestrictions(ctx: AppContext, userId: string, overrides: Partial<Restrictions>): Promise<void> {
  await updateUser(ctx, userId, { restrictions: Object.keys(overrides).length ? JSON.stringify(overrides) : null });
}
