import { randomUUID } from 'node:crypto';
import type { User } from '../auth/sessions.ts';
import { recordAudit } from '../admin/audit.ts';
import { changedFields } from '../admin/settings/changes.ts';
import { requireAdmin } from '../admin/guard.ts';
import type { AppContext } from '../context.ts';
import type { Body } from '../http/endpoint.ts';
import { AppError, badRequest, notFound } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { currencies } from './geo.ts';
import { getSettings, type Settings } from '../settings/service.ts';
import { CreateFixedPlan, CreateMeteredPlan, PlanType, UpdateFixedPlan, UpdateMeteredPlan } from './plan-schemas.ts';
import { presentPlan, presentPublicPlan } from './plan-presenter.ts';
import {
  activePlanRows,
  anySubscription,
  currentSubscriptionRow,
  deletePlanRow,
  findPlanRow,
  insertPlanRow,
  liveSubscriberCount,
  planRowsWithCounts,
  updatePlanRow,
  type Plan,
  type Subscription,
} from './plan-queries.ts';

export type { Plan, Subscription };

const ID_MAX = 64;
const planNotFound = () => notFound('This plan does not exist.');

// contract: owned by PLANS
export async function getPlan(ctx: AppContext, id: string): Promise<Plan | null> {
  if (!id || id.length > ID_MAX) return null;
  return (await findPlanRow(ctx.db, id)) ?? null;
}

// contract: owned by PLANS
/** The user's subscription that is active, or cancelled and not yet ended, with its plan. */
export async function activePlanFor(ctx: AppContext, userId: string): Promise<{ plan: Plan; subscription: Subscription } | null> {
  const row = await currentSubscriptionRow(ctx.db, userId, ctx.clock.now().toISOString());
  if (!row) return null;
  const { plan_type: _t, plan_storage_bytes: _s, plan_max_team_members: _m, ...subscription } = row;
  const plan = await findPlanRow(ctx.db, subscription.plan_id);
  return plan ? { plan, subscription } : null;
}

/** Refuses a new subscription to an archived plan (SPEC §4: it keeps its subscribers, takes no new ones). */
export function assertPlanTakesSubscribers(plan: Plan): void {
  if (plan.status !== 'active') throw new AppError(422, 'This plan is archived and takes no new subscribers.', { code: 'plan_archived' });
}

/** The admin's plan list: `type` (fixed, metered) and `status` (active, archived) filters; with subscriber counts. */
export async function listPlansForAdmin(ctx: AppContext, user: User, query: URLSearchParams) {
  requireAdmin(user);
  const type = (query.get('type') || undefined) as 'fixed' | 'metered' | undefined;
  if (type && type !== 'fixed' && type !== 'metered') throw badRequest('The type must be fixed or metered.');
  const status = (query.get('status') || undefined) as 'active' | 'archived' | undefined;
  if (status && status !== 'active' && status !== 'archived') throw badRequest('The status must be active or archived.');
  const rows = await planRowsWithCounts(ctx.db, { type, status });
  return { data: rows.map((row) => presentPlan(row, row.subscriber_count)) };
}

async function findTargetPlan(ctx: AppContext, id: string | undefined): Promise<Plan> {
  const plan = id ? await getPlan(ctx, id) : null;
  if (!plan) throw planNotFound();
  return plan;
}

export async function getPlanForAdmin(ctx: AppContext, user: User, id: string | undefined) {
  requireAdmin(user);
  const plan = await findTargetPlan(ctx, id);
  return { data: presentPlan(plan, await liveSubscriberCount(ctx.db, plan.id)) };
}

const FIXED_ONLY = { storage_gb_day_micros: null, bandwidth_gb_micros: null, member_day_micros: null, flat_fee_minor: null };
const METERED_ONLY = { interval: null, amount_minor: null, storage_bytes: null, max_team_members: null };

/** Creates a fixed or metered plan (`type` in the body); it starts active. */
export async function createPlan(ctx: AppContext, user: User, body: Body) {
  requireAdmin(user);
  const { type: rawType, ...fields } = body;
  const type = validate(PlanType, rawType);
  const input = type === 'fixed' ? { ...validate(CreateFixedPlan, fields), ...FIXED_ONLY } : { ...validate(CreateMeteredPlan, fields), ...METERED_ONLY };
  const at = ctx.clock.now().toISOString();
  const plan: Plan = { id: randomUUID(), type, status: 'active', provider_refs: '{}', created_at: at, updated_at: at, ...input };
  await ctx.db.transaction().execute(async (trx) => {
    await insertPlanRow(trx, plan);
    await recordAudit(ctx, trx, user, { action: 'plan.create', target_type: 'plan', target_id: plan.id, target_label: plan.name, after: auditView(plan) });
  });
  return { data: presentPlan(plan, 0) };
}

/** Fields whose change makes the provider's stored price stale (a new one is made for new subscribers). */
const PRICE_FIELDS = ['currency', 'interval', 'amount_minor', 'storage_gb_day_micros', 'bandwidth_gb_micros', 'member_day_micros', 'flat_fee_minor'] as const;

/**
 * Changes a plan's fields or archives it (`status`). Existing subscriptions keep the amount they
 * were sold at (their own amount_minor) until renewal; only new subscribers get the new price.
 */
export async function updatePlan(ctx: AppContext, user: User, id: string | undefined, body: Body) {
  requireAdmin(user);
  const plan = await findTargetPlan(ctx, id);
  const input = plan.type === 'fixed' ? validate(UpdateFixedPlan, body) : validate(UpdateMeteredPlan, body);
  const next: Plan = { ...plan };
  for (const [key, value] of Object.entries(input)) if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  const change = changedFields(auditView(plan), auditView(next));
  if (change) {
    if (PRICE_FIELDS.some((key) => key in change.after)) next.provider_refs = '{}';
    next.updated_at = ctx.clock.now().toISOString();
    const { id: _id, type: _type, created_at: _created, ...values } = next;
    await ctx.db.transaction().execute(async (trx) => {
      await updatePlanRow(trx, plan.id, values);
      await recordAudit(ctx, trx, user, { action: 'plan.update', target_type: 'plan', target_id: plan.id, target_label: next.name, ...change });
    });
  }
  return { data: presentPlan(next, await liveSubscriberCount(ctx.db, plan.id)) };
}

/** Deletes a plan nobody ever subscribed to; one with subscriptions is archived instead (they keep it). */
export async function deletePlan(ctx: AppContext, user: User, id: string | undefined): Promise<void> {
  requireAdmin(user);
  const plan = await findTargetPlan(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    if (await anySubscription(trx, plan.id)) {
      throw new AppError(422, 'This plan has subscribers and cannot be deleted. Archive it instead: it keeps its subscribers and takes no new ones.', { code: 'plan_has_subscribers' });
    }
    await deletePlanRow(trx, plan.id);
    await recordAudit(ctx, trx, user, { action: 'plan.delete', target_type: 'plan', target_id: plan.id, target_label: plan.name, before: auditView(plan) });
  });
}

/**
 * The active plans of the instance's subscription type, for visitors (the homepage pricing table)
 * and users (the billing page), cheapest first; none when the instance sells no subscriptions.
 */
export async function listPublicPlans(ctx: AppContext, settings?: Pick<Settings, 'subscription_type'>) {
  const { subscription_type: type } = settings ?? (await getSettings(ctx));
  if (type === 'none') return { data: [], meta: { subscription_type: type } };
  const rows = await activePlanRows(ctx.db, type);
  return { data: rows.map(presentPublicPlan), meta: { subscription_type: type } };
}

function auditView(plan: Plan): Record<string, unknown> {
  const { attributes } = presentPlan(plan);
  const { subscriber_count: _c, created_at: _a, updated_at: _u, ...view } = attributes;
  return view;
}

/** What the plan form offers: every ISO 4217 currency Intl knows, named in the admin's language. */
export function planFormOptions(user: User, locale: string) {
  requireAdmin(user);
  return { data: { currencies: currencies(locale).sort((a, b) => a.code.localeCompare(b.code)), intervals: ['month', 'year'] } };
}
