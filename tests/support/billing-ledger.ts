import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { PlansTable } from '../../db/schema.ts';
import type { AppContext } from '../../src/server/context.ts';
import { newReference, recordFailedPayment, recordPayment } from '../../src/server/billing/ledger.ts';

/** A plan row written straight to the table (PLANS owns the admin API that makes them). */
export async function insertPlan(ctx: AppContext, plan: Partial<Insertable<PlansTable>> & Pick<PlansTable, 'type'>): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await ctx.db
    .insertInto('plans')
    .values({
      id,
      name: plan.type === 'metered' ? 'Pay as you go' : 'Basic',
      description: '',
      status: 'active',
      currency: 'EUR',
      interval: plan.type === 'fixed' ? 'month' : null,
      amount_minor: plan.type === 'fixed' ? 900 : null,
      storage_bytes: plan.type === 'fixed' ? 1024 ** 3 : null,
      max_team_members: null,
      storage_gb_day_micros: null,
      bandwidth_gb_micros: null,
      member_day_micros: null,
      flat_fee_minor: null,
      provider_refs: '{}',
      created_at: at,
      updated_at: at,
      ...plan,
    })
    .execute();
  return id;
}

/** The seeding context with its clock fixed at `iso` (the injectable clock the jobs read). */
export function at(ctx: AppContext, iso: string): AppContext {
  return { ...ctx, clock: { now: () => new Date(iso) } };
}

export const topUp = (ctx: AppContext, userId: string, amountMinor: number, currency = 'EUR') =>
  recordPayment(ctx, { userId, amountMinor, currency, driver: 'stripe', reference: newReference(), note: '', purpose: 'top-up' });

export const failPayments = async (ctx: AppContext, userId: string, n: number, currency = 'EUR') => {
  for (let i = 0; i < n; i += 1) {
    await recordFailedPayment(ctx, { userId, subscriptionId: null, amountMinor: 900, currency, driver: 'stripe', reason: 'card declined', reference: newReference() });
  }
};
