import type { AppContext } from '../context.ts';
import type { CostEstimate, FailedPaymentData } from '../users/presenter.ts';
import { costEstimate } from './metered.ts';
import { openFailedPayments } from './restriction.ts';

/** The user resource's billing part: unresolved failed payments and the metered month so far. */
export async function userBilling(ctx: AppContext, userId: string): Promise<{ failedPayments: FailedPaymentData[]; costEstimate: CostEstimate }> {
  const [failed, estimate] = await Promise.all([openFailedPayments(ctx.db, userId), costEstimate(ctx, userId)]);
  return {
    failedPayments: failed.map((f) => ({
      id: f.id,
      type: 'failed-payment' as const,
      attributes: { amount_minor: Number(f.amount_minor), currency: f.currency, driver: f.driver, reason: f.reason, created_at: f.created_at },
    })),
    costEstimate: estimate,
  };
}
