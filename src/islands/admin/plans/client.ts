import type { PlanData, SubscriptionData } from '../../../server/billing/plan-presenter.ts';
import type { Currency } from '../../../server/billing/geo.ts';
import { api } from '../../../stores/api.ts';

/** The admin plan API's shapes and calls (src/pages/api/admin/plans), typed for the screens. */

export type PlanType = 'fixed' | 'metered';
export type Plan = PlanData;
export type Subscription = SubscriptionData;
export type SubscriptionState = 'active' | 'cancelled' | 'completed';

export interface SubscriptionPage {
  data: Subscription[];
  meta: { next_cursor: string | null; per_page: number };
}

/** The fields a plan form sends: money as integers (minor units; unit prices in micros). */
export type PlanFields = Partial<{
  name: string;
  description: string;
  currency: string;
  interval: 'month' | 'year';
  amount_minor: number | null;
  storage_bytes: number | null;
  max_team_members: number | null;
  storage_gb_day_micros: number | null;
  bandwidth_gb_micros: number | null;
  member_day_micros: number | null;
  flat_fee_minor: number | null;
  status: 'active' | 'archived';
}>;

const path = (id: string) => `/api/admin/plans/${encodeURIComponent(id)}`;

export const listPlans = () => api.get<{ data: Plan[] }>('/api/admin/plans');
export const getPlan = (id: string) => api.get<{ data: Plan }>(path(id));
export const createPlan = (type: PlanType, fields: PlanFields) => api.post<{ data: Plan }>('/api/admin/plans', { type, ...fields });
export const updatePlan = (id: string, fields: PlanFields) => api.patch<{ data: Plan }>(path(id), fields);
export const deletePlan = (id: string) => api.delete<void>(path(id));
export const planFormOptions = () => api.get<{ data: { currencies: Currency[]; intervals: ('month' | 'year')[] } }>('/api/admin/plans/options');

export function listSubscriptions(query: { plan?: string | null; status?: SubscriptionState | null; cursor?: string | null }, planId?: string): Promise<SubscriptionPage> {
  const params = new URLSearchParams({ limit: '25' });
  if (query.plan) params.set('plan', query.plan);
  if (query.status) params.set('status', query.status);
  if (query.cursor) params.set('cursor', query.cursor);
  return api.get<SubscriptionPage>(planId ? `${path(planId)}/subscribers?${params}` : `/api/admin/subscriptions?${params}`);
}
