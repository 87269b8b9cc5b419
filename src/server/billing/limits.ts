import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import type { Settings } from '../settings/service.ts';
import { storageCapacity } from '../users/quota.ts';
import { currentSubscriptionRow } from './plan-queries.ts';
import { plansSetLimits } from './subscription-type.ts';

/** The limits a fixed plan gives its subscriber (SPEC §1: "they come with storage limits"). */
export interface PlanLimits {
  storage_bytes: number | null;
  max_team_members: number | null;
}

/**
 * The limits of the user's current fixed plan, or null: when the instance is not on fixed plans
 * (no query is made then), or the user has no current subscription to a fixed plan.
 */
export async function planLimitsFor(ctx: AppContext, userId: string, settings: Pick<Settings, 'subscription_type'>): Promise<PlanLimits | null> {
  if (!plansSetLimits(settings)) return null;
  const row = await currentSubscriptionRow(ctx.db, userId, ctx.clock.now().toISOString());
  if (row?.plan_type !== 'fixed') return null;
  return {
    storage_bytes: row.plan_storage_bytes === null ? null : Number(row.plan_storage_bytes),
    max_team_members: row.plan_max_team_members === null ? null : Number(row.plan_max_team_members),
  };
}

/**
 * A user's storage capacity with their plan: an admin-set limit wins, then the fixed plan's
 * storage, then the instance default (users/quota.ts). 0 is no limit.
 */
export async function capacityFor(ctx: AppContext, user: Pick<User, 'id' | 'storage_limit_bytes'>, settings: Settings): Promise<number> {
  if (user.storage_limit_bytes !== null && user.storage_limit_bytes !== undefined) return storageCapacity(user, settings);
  return storageCapacity(user, settings, await planLimitsFor(ctx, user.id, settings));
}

/** The team-member limit (SPEC §5): the fixed plan's, else the instance setting; null (none) unless on fixed plans. */
export async function teamMemberTotal(ctx: AppContext, ownerId: string, settings: Settings): Promise<number | null> {
  if (!plansSetLimits(settings)) return null;
  const plan = await planLimitsFor(ctx, ownerId, settings);
  return plan?.max_team_members ?? settings.max_team_members;
}
