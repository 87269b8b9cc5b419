import type { User } from '../auth/sessions.ts';
import type { Settings } from '../settings/service.ts';

/**
 * The bytes a user may store, in one place for everything that measures or enforces it (usage, the
 * upload checks, the client config): the user's own limit when an admin set one, else their fixed
 * plan's storage when they have one (billing/limits.ts reads it), else the instance default. 0
 * means no limit, in any of them.
 */
export function storageCapacity(
  user: Pick<User, 'storage_limit_bytes'> | null | undefined,
  settings: Pick<Settings, 'default_storage_limit_bytes'>,
  plan?: { storage_bytes: number | null } | null,
): number {
  const own = user?.storage_limit_bytes;
  if (own !== null && own !== undefined) return Number(own);
  if (plan?.storage_bytes !== null && plan?.storage_bytes !== undefined) return Number(plan.storage_bytes);
  return settings.default_storage_limit_bytes;
}
