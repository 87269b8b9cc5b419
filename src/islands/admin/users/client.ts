import { api } from '../../../stores/api.ts';

/** The admin user API's shapes and calls (src/pages/api/admin/users), typed for the screens. */

export type Role = 'admin' | 'user';
export type UserSort = 'name' | 'email' | 'created_at' | 'last_signed_in_at' | 'storage_used';
export type Direction = 'asc' | 'desc';

export interface AdminUser {
  id: string;
  type: 'user';
  attributes: {
    name: string;
    email: string;
    role: Role;
    color: string;
    avatar: { xs: string; sm: string; md: string } | null;
    email_verified_at: string | null;
    created_at: string;
    last_signed_in_at: string | null;
    storage: { used: number };
  };
}

export interface AdminUserPage {
  data: AdminUser[];
  meta: { next_cursor: string | null; per_page: number };
}

export interface AdminUserDetail {
  data: AdminUser;
  meta: { abilities: { change_role: boolean }; self: boolean; invitation_sent?: boolean | null; two_factor_enabled?: boolean };
}

export function listUsers(query: { search: string; sort: UserSort; direction: Direction; cursor?: string | null }): Promise<AdminUserPage> {
  const params = new URLSearchParams({ sort: query.sort, direction: query.direction, limit: '25' });
  if (query.search.trim()) params.set('search', query.search.trim());
  if (query.cursor) params.set('cursor', query.cursor);
  return api.get<AdminUserPage>(`/api/admin/users?${params}`);
}

export const getUser = (id: string) => api.get<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}`);

export interface NewUser {
  name: string;
  email: string;
  role: Role;
  password?: string;
  password_confirmation?: string;
  send_invitation: boolean;
  verified: boolean;
  /** null: the instance default; 0: no limit. */
  storage_limit_bytes: number | null;
}
export const createUser = (user: NewUser) => api.post<AdminUserDetail>('/api/admin/users', { ...user });

export const updateUser = (id: string, patch: Partial<{ name: string; email: string; role: Role; verified: boolean }>) =>
  api.patch<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}`, patch);

export interface PasswordResult {
  meta: { action: 'set' | 'send_link'; sessions_ended: number; access_tokens_revoked: number };
}
export const setUserPassword = (id: string, password: string, confirmation: string) =>
  api.post<PasswordResult>(`/api/admin/users/${encodeURIComponent(id)}/password`, { action: 'set', password, password_confirmation: confirmation });
export const sendUserResetLink = (id: string) => api.post<PasswordResult>(`/api/admin/users/${encodeURIComponent(id)}/password`, { action: 'send_link' });

export const resetTwoFactor = (id: string) => api.delete<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}/two-factor`);
