import type { Plan, SubscriptionListRow } from './plan-queries.ts';

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** A plan as the admin sees it: every field, money as integer minor units (unit prices as micros). */
export function presentPlan(plan: Plan, subscriberCount?: number | string | null) {
  return {
    id: plan.id,
    type: 'plan' as const,
    attributes: {
      plan_type: plan.type,
      name: plan.name,
      description: plan.description,
      status: plan.status,
      currency: plan.currency,
      interval: plan.interval,
      amount_minor: num(plan.amount_minor),
      storage_bytes: num(plan.storage_bytes),
      max_team_members: num(plan.max_team_members),
      storage_gb_day_micros: num(plan.storage_gb_day_micros),
      bandwidth_gb_micros: num(plan.bandwidth_gb_micros),
      member_day_micros: num(plan.member_day_micros),
      flat_fee_minor: num(plan.flat_fee_minor),
      subscriber_count: subscriberCount === undefined || subscriberCount === null ? 0 : Number(subscriberCount),
      created_at: plan.created_at,
      updated_at: plan.updated_at,
    },
  };
}

export type PlanData = ReturnType<typeof presentPlan>;

/** What a visitor may see of an active plan (the homepage pricing table, the billing page). */
export function presentPublicPlan(plan: Plan) {
  const { attributes } = presentPlan(plan);
  const { subscriber_count: _count, status: _status, created_at: _created, updated_at: _updated, ...shown } = attributes;
  return { id: plan.id, type: 'plan' as const, attributes: shown };
}

export type PublicPlanData = ReturnType<typeof presentPublicPlan>;

export function presentSubscription(row: SubscriptionListRow) {
  return {
    id: row.id,
    type: 'subscription' as const,
    attributes: {
      status: row.status,
      driver: row.driver,
      amount_minor: num(row.amount_minor),
      currency: row.currency,
      interval: row.interval,
      current_period_start: row.current_period_start,
      current_period_end: row.current_period_end,
      ends_at: row.ends_at,
      created_at: row.created_at,
    },
    relationships: {
      user: { id: row.user_id, name: row.user_name, email: row.user_email },
      plan: { id: row.plan_id, name: row.plan_name, plan_type: row.plan_type },
    },
  };
}

export type SubscriptionData = ReturnType<typeof presentSubscription>;
