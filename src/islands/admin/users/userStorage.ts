import type { UserStorageResource } from '../../../server/admin/users/storage.ts';
import type { Restrictions } from '../../../server/users/restrictions.ts';
import { api } from '../../../stores/api.ts';

/** The Storage tab's calls: GET/PATCH /api/admin/users/{id}/storage (src/server/admin/users/storage.ts). */
export type UserStorage = UserStorageResource['data'];
export type { Restrictions };

const path = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/storage`;

export function loadUserStorage(userId: string): Promise<UserStorageResource> {
  return api.get<UserStorageResource>(path(userId));
}

/** `storage_limit_bytes`: null for the instance default, 0 for no limit. */
export function saveUserStorage(userId: string, change: { storage_limit_bytes?: number | null; restrictions?: Partial<Restrictions> }): Promise<UserStorageResource> {
  return api.patch<UserStorageResource>(path(userId), change);
}

/** Units the limit is entered in, as the rest of the product counts them (1 MB = 1024² bytes). */
export const LIMIT_UNITS = { MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 } as const;
export type LimitUnit = keyof typeof LIMIT_UNITS;

/** A limit in bytes as an amount in the largest unit that shows it with at most two decimals. */
export function limitAmount(bytes: number): { amount: string; unit: LimitUnit } {
  for (const unit of ['TB', 'GB', 'MB'] as const) {
    const value = bytes / LIMIT_UNITS[unit];
    if (value >= 1 && Math.abs(Math.round(value * 100) - value * 100) < 1e-6) return { amount: String(Math.round(value * 100) / 100), unit };
  }
  // Below 1 MB, or not exact in any unit: MB with enough decimals to save the same limit again.
  return { amount: String(Number((bytes / LIMIT_UNITS.MB).toFixed(6))), unit: 'MB' };
}
