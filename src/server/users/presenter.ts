import type { User } from '../auth/sessions.ts';
import type { ItemData } from '../files/presenter.ts';
import type { NotificationData } from '../notifications/service.ts';
import type { TeamMemberLimit } from '../teams/limits.ts';
import { restrictionsFor } from './restrictions.ts';

export const AVATAR_SIZES = { xs: 64, sm: 128, md: 256 } as const;
export type AvatarSize = keyof typeof AVATAR_SIZES;

export function avatarUrls(user: Pick<User, 'id' | 'avatar_key'>): Record<AvatarSize, string> | null {
  if (!user.avatar_key) return null;
  const base = `/avatars/${user.id}/${user.avatar_key}`;
  return { xs: `${base}-xs.webp`, sm: `${base}-sm.webp`, md: `${base}-md.webp` };
}

/** SPEC §3 `failedPayments`: the user's unresolved failed payments (3 or more limit the account). */
export interface FailedPaymentData {
  id: string;
  type: 'failed-payment';
  attributes: { amount_minor: number; currency: string; driver: string; reason: string; created_at: string };
}

/** SPEC §3 `costEstimate`: a metered plan's period so far, in minor units; null without one. */
export type CostEstimate = { amount_minor: number; currency: string; period_start: string; period_end: string } | null;

/**
 * The user resource of SPEC §3, with the user's favourite folders (item resources), notifications
 * and billing state (`userResource` loads them all).
 */
export function presentUser(
  user: User,
  favourites: ItemData[] = [],
  notifications: { unread: NotificationData[]; read: NotificationData[] } = { unread: [], read: [] },
  maxTeamMembers: TeamMemberLimit = { total: null, use: 0, meta: { allowed_emails: [] } },
  billing: { failedPayments: FailedPaymentData[]; costEstimate: CostEstimate } = { failedPayments: [], costEstimate: null },
) {
  return {
    data: {
      id: user.id,
      type: 'user',
      attributes: {
        name: user.name,
        email: user.email,
        avatar: avatarUrls(user),
        color: user.color,
        role: user.role,
        two_factor_authentication: user.two_factor_enabled_at !== null,
        email_verified_at: user.email_verified_at,
        created_at: user.created_at,
      },
      meta: {
        restrictions: restrictionsFor(user),
        limitations: { max_team_members: maxTeamMembers },
        usages: { costEstimate: billing.costEstimate },
      },
      relationships: {
        settings: {
          data: {
            id: user.id,
            type: 'settings',
            attributes: { first_name: user.first_name ?? '', last_name: user.last_name ?? '', theme_mode: user.theme_mode, emoji_type: user.emoji_type, notification_sound: user.notification_sound !== 0 },
          },
        },
        favourites: { data: favourites },
        readNotifications: { data: notifications.read },
        unreadNotifications: { data: notifications.unread },
        failedPayments: { data: billing.failedPayments },
      },
    },
  };
}

export type UserResource = ReturnType<typeof presentUser>;
