import type { User } from '../auth/sessions.ts';
import { requireAdmin } from '../admin/guard.ts';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { keysetPage, pageRequest } from '../http/keyset.ts';
import { presentSubscription } from './plan-presenter.ts';
import { subscriptionRows } from './plan-queries.ts';
import { getPlan } from './plans.ts';

const STATES = ['active', 'cancelled', 'completed'] as const;
type State = (typeof STATES)[number];
const BAD_CURSOR = 'The cursor is not valid. Start again from the first page.';

/**
 * The admin's subscriptions (`/admin/subscriptions`, and a plan's subscribers tab): filters `plan`
 * (a plan id) and `status` (active, cancelled, completed), newest first, keyset-paged.
 */
export async function listSubscriptionsForAdmin(ctx: AppContext, user: User, query: URLSearchParams, fixedPlanId?: string) {
  requireAdmin(user);
  const planId = fixedPlanId ?? (query.get('plan') || null);
  if (planId && !(await getPlan(ctx, planId))) throw badRequest('The plan filter names no plan.');
  const status = (query.get('status') || null) as State | null;
  if (status && !STATES.includes(status)) throw badRequest(`The status must be one of ${STATES.join(', ')}.`);
  const page = pageRequest(query, 2);
  let after: [string, string] | null = null;
  if (page.after) {
    const [at, id] = page.after;
    if (typeof at !== 'string' || typeof id !== 'string') throw badRequest(BAD_CURSOR);
    after = [at, id];
  }
  const rows = await subscriptionRows(ctx.db, { planId, status, after, limit: page.limit });
  const params = new URLSearchParams({ ...(planId && !fixedPlanId ? { plan: planId } : {}), ...(status ? { status } : {}), limit: String(page.limit) });
  const path = fixedPlanId ? `/api/admin/plans/${fixedPlanId}/subscribers` : '/api/admin/subscriptions';
  return keysetPage(rows, page, (row) => [row.created_at, row.id], presentSubscription, { path, query: params });
}

/** One plan's subscribers tab; 404 for a plan that does not exist. */
export async function listPlanSubscribers(ctx: AppContext, user: User, id: string | undefined, query: URLSearchParams) {
  requireAdmin(user);
  const plan = id ? await getPlan(ctx, id) : null;
  if (!plan) throw notFound('This plan does not exist.');
  return listSubscriptionsForAdmin(ctx, user, query, plan.id);
}
