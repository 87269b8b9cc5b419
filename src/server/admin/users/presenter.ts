import type { User } from '../../auth/sessions.ts';
import { avatarUrls } from '../../users/presenter.ts';

type Presentable = Pick<User, 'id' | 'name' | 'email' | 'role' | 'color' | 'avatar_key' | 'email_verified_at' | 'created_at' | 'last_signed_in_at' | 'storage_used_bytes'>;

/** An account as the admin's screens see it: never a password hash, a token or a setting. */
export function presentAdminUser(user: Presentable) {
  return {
    id: user.id,
    type: 'user' as const,
    attributes: {
      name: user.name,
      email: user.email,
      role: user.role,
      color: user.color,
      avatar: avatarUrls(user),
      email_verified_at: user.email_verified_at,
      created_at: user.created_at,
      last_signed_in_at: user.last_signed_in_at,
      storage: { used: Number(user.storage_used_bytes) },
    },
  };
}

export type AdminUserData = ReturnType<typeof presentAdminUser>;

/**
 * One account with what the acting admin may do to it (the client shows, never decides): the role
 * stays when it is the admin's own account (nobody removes their own admin role).
 */
export function presentAdminUserFor(actor: Pick<User, 'id'>, user: Presentable & Partial<Pick<User, 'two_factor_enabled_at'>>) {
  return {
    data: presentAdminUser(user),
    meta: { abilities: { change_role: actor.id !== user.id }, self: actor.id === user.id, two_factor_enabled: Boolean(user.two_factor_enabled_at) },
  };
}
