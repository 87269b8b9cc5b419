import type { User } from '../auth/sessions.ts';
import type { Settings } from '../settings/service.ts';

/**
 * The bytes a user may store, in one place for everything that measures or enforces it (usage, the
 * upload checks, the client config): the user's own limit when an admin set one, else the instance
 * default. 0 means no limit, in either.
 */
export function storageCapacity(user: Pick<User, 'storage_limit_bytes'> | null | undefined, settings: Pick<Settings, 'default_storage_limit_bytes'>): number {
  const own = user?.storage_limit_bytes;
  return own === null || own === undefined ? settings.default_storage_limit_bytes : Number(own);
}
