import type { UserDeletionResource } from '../../../server/admin/users/deletion.ts';
import { api } from '../../../stores/api.ts';

/** The Delete tab's calls: GET (status) and POST (start) /api/admin/users/{id}/deletion (src/server/admin/users/deletion.ts). */
export type UserDeletion = UserDeletionResource['data'];

const path = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/deletion`;

export function loadUserDeletion(userId: string): Promise<UserDeletionResource> {
  return api.get<UserDeletionResource>(path(userId));
}

/** `email`: the account's address typed again, the confirmation the server checks. */
export function startUserDeletion(userId: string, email: string): Promise<UserDeletionResource> {
  return api.post<UserDeletionResource>(path(userId), { email });
}

/** How often the tab asks again while the files are being removed. */
export const DELETION_POLL_MS = 1000;
