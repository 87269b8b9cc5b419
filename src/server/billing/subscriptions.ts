// contract: owned by PAY (a minimal version for LEDGER's branch; the merge keeps PAY's file).
import { randomUUID } from 'node:crypto';
import type { PaymentDriver } from '../../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { createNotification } from '../notifications/service.ts';
import { getPlan } from './plans.ts';

export async function startSubscription(
  ctx: AppContext,
  input: { userId: string; planId: string; driver: PaymentDriver | 'balance'; providerRef: string | null; periodStart: string; periodEnd: string },
): Promise<string> {
  const plan = await getPlan(ctx, input.planId);
  if (!plan) throw new Error(`no plan ${input.planId}`);
  const id = randomUUID();
  const at = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto('subscriptions')
    .values({
      id,
      user_id: input.userId,
      plan_id: plan.id,
      status: 'active',
      driver: input.driver,
      provider_ref: input.providerRef,
      amount_minor: plan.amount_minor,
      currency: plan.currency,
      interval: plan.interval,
      current_period_start: input.periodStart,
      current_period_end: input.periodEnd,
      ends_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await createNotification(ctx, { userId: input.userId, category: 'subscription-created', title: plan.name, description: plan.description, action: null });
  return id;
}

export async function endSubscription(ctx: AppContext, subscriptionId: string, at: string): Promise<void> {
  await ctx.db.updateTable('subscriptions').set({ status: 'completed', ends_at: at, updated_at: at }).where('id', '=', subscriptionId).execute();
}
