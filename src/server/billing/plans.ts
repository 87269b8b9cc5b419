// contract: owned by PLANS (a minimal version for LEDGER's branch; the merge keeps PLANS' file).
import type { Selectable } from 'kysely';
import type { PlansTable, SubscriptionsTable } from '../../../db/schema.ts';
import type { AppContext } from '../context.ts';

export type Plan = Selectable<PlansTable>;
export type Subscription = Selectable<SubscriptionsTable>;

export async function getPlan(ctx: AppContext, id: string): Promise<Plan | null> {
  return (await ctx.db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The user's subscription with status active or cancelled and ends_at in the future, with its plan. */
export async function activePlanFor(ctx: AppContext, userId: string): Promise<{ plan: Plan; subscription: Subscription } | null> {
  const now = ctx.clock.now().toISOString();
  const subscription = await ctx.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('status', '=', 'active'), eb.and([eb('status', '=', 'cancelled'), eb('ends_at', '>', now)])]))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!subscription) return null;
  const plan = await getPlan(ctx, subscription.plan_id);
  return plan ? { plan, subscription } : null;
}
