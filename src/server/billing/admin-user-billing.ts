import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireAdmin } from '../admin/guard.ts';
import { notFound } from '../http/errors.ts';
import { outstandingFor } from './ledger.ts';
import { openFailedPayments } from './restriction.ts';
import { billingLimited } from '../users/restrictions.ts';

/**
 * The Subscription tab of the admin's user screen (GET /api/admin/users/{id}/billing): the user's
 * latest subscription with its plan and state, their balance, what they owe and their open failed
 * payments. Reading only; the gift form on the same tab posts to /credit (gift.ts).
 */
export async function adminUserBilling(ctx: AppContext, actor: User, id: string | undefined) {
  requireAdmin(actor);
  const target = id && id.length <= 100 ? await ctx.db.selectFrom('users').select(['id', 'restrictions', 'deletion_started_at']).where('id', '=', id).executeTakeFirst() : undefined;
  if (!target || target.deletion_started_at) throw notFound('The user was not found.');
  const [subscription, account, failed, outstanding] = await Promise.all([
    ctx.db
      .selectFrom('subscriptions')
      .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
      .select([
        'subscriptions.id',
        'subscriptions.plan_id',
        'plans.name as plan_name',
        'plans.type as plan_type',
        'subscriptions.status',
        'subscriptions.driver',
        'subscriptions.amount_minor',
        'subscriptions.currency',
        'subscriptions.interval',
        'subscriptions.current_period_end',
        'subscriptions.ends_at',
      ])
      .where('subscriptions.user_id', '=', target.id)
      .orderBy('subscriptions.created_at', 'desc')
      .orderBy('subscriptions.id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    ctx.db.selectFrom('billing_accounts').select(['balance_minor', 'currency']).where('user_id', '=', target.id).executeTakeFirst(),
    openFailedPayments(ctx.db, target.id),
    outstandingFor(ctx, target.id),
  ]);
  return {
    data: {
      id: target.id,
      type: 'user-billing',
      attributes: {
        subscription: subscription ? { ...subscription, amount_minor: subscription.amount_minor === null ? null : Number(subscription.amount_minor) } : null,
        balance: account ? { amount_minor: Number(account.balance_minor), currency: account.currency } : null,
        outstanding: outstanding ? { amount_minor: outstanding.amountMinor, currency: outstanding.currency } : null,
        limited: billingLimited(target),
        failed_payments: failed.map((f) => ({ id: f.id, amount_minor: Number(f.amount_minor), currency: f.currency, driver: f.driver, reason: f.reason, created_at: f.created_at })),
      },
    },
  };
}
