import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/index.ts';
import type { PlansTable, SubscriptionsTable } from '../../../db/schema.ts';

export type Plan = Selectable<PlansTable>;
export type Subscription = Selectable<SubscriptionsTable>;
type Db = Kysely<Database>;

/** Subscription states that hold a plan's place: an active one, or a cancelled one until it ends. */
const LIVE = ['active', 'cancelled'] as const;

export function findPlanRow(db: Db, id: string): Promise<Plan | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertPlanRow(db: Db, plan: Plan): Promise<void> {
  await db.insertInto('plans').values(plan).execute();
}

export async function updatePlanRow(db: Db, id: string, values: Omit<Plan, 'id' | 'type' | 'created_at'>): Promise<void> {
  await db.updateTable('plans').set(values).where('id', '=', id).execute();
}

export async function deletePlanRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('plans').where('id', '=', id).execute();
}

/** The active plans of one type, cheapest first (fixed by price, metered by flat fee), then by name. */
export function activePlanRows(db: Db, type: 'fixed' | 'metered'): Promise<Plan[]> {
  return db.selectFrom('plans').selectAll().where('status', '=', 'active').where('type', '=', type).orderBy('amount_minor').orderBy('flat_fee_minor').orderBy('name').execute();
}

/** Every plan with how many active or cancelled subscriptions it has, newest first. */
export async function planRowsWithCounts(db: Db, filter: { type?: 'fixed' | 'metered'; status?: 'active' | 'archived' }) {
  let query = db
    .selectFrom('plans')
    .selectAll('plans')
    .select((eb) =>
      eb
        .selectFrom('subscriptions')
        .select(eb.fn.countAll<string | number>().as('n'))
        .whereRef('subscriptions.plan_id', '=', 'plans.id')
        .where('subscriptions.status', 'in', LIVE)
        .as('subscriber_count'),
    )
    .orderBy('plans.created_at', 'desc')
    .orderBy('plans.id', 'desc');
  if (filter.type) query = query.where('plans.type', '=', filter.type);
  if (filter.status) query = query.where('plans.status', '=', filter.status);
  return query.execute();
}

export async function liveSubscriberCount(db: Db, planId: string): Promise<number> {
  const row = await db.selectFrom('subscriptions').select((eb) => eb.fn.countAll<string | number>().as('n')).where('plan_id', '=', planId).where('status', 'in', LIVE).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function anySubscription(db: Db, planId: string): Promise<boolean> {
  return !!(await db.selectFrom('subscriptions').select('id').where('plan_id', '=', planId).limit(1).executeTakeFirst());
}

/**
 * The user's current subscription with its plan: an active one, or a cancelled one whose end is
 * still ahead (SPEC §4); the newest when there are several.
 */
export function currentSubscriptionRow(db: Db, userId: string, now: string) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .selectAll('subscriptions')
    .select(['plans.type as plan_type', 'plans.storage_bytes as plan_storage_bytes', 'plans.max_team_members as plan_max_team_members'])
    .where('subscriptions.user_id', '=', userId)
    .where((eb) => eb.or([eb('subscriptions.status', '=', 'active'), eb.and([eb('subscriptions.status', '=', 'cancelled'), eb('subscriptions.ends_at', '>', now)])]))
    .orderBy('subscriptions.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export interface SubscriptionFilter {
  planId?: string | null;
  status?: 'active' | 'cancelled' | 'completed' | null;
  after: [string, string] | null;
  limit: number;
}

/** Subscriptions with their user and plan, newest first, keyset-paged by (created_at, id). */
export function subscriptionRows(db: Db, filter: SubscriptionFilter) {
  let query = db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .selectAll('subscriptions')
    .select(['users.name as user_name', 'users.email as user_email', 'plans.name as plan_name', 'plans.type as plan_type'])
    .orderBy('subscriptions.created_at', 'desc')
    .orderBy('subscriptions.id', 'desc')
    .limit(filter.limit + 1);
  if (filter.planId) query = query.where('subscriptions.plan_id', '=', filter.planId);
  if (filter.status) query = query.where('subscriptions.status', '=', filter.status);
  if (filter.after) {
    const [at, id] = filter.after;
    query = query.where((eb) => eb.or([eb('subscriptions.created_at', '<', at), eb.and([eb('subscriptions.created_at', '=', at), eb('subscriptions.id', '<', id)])]));
  }
  return query.execute();
}

export type SubscriptionListRow = Awaited<ReturnType<typeof subscriptionRows>>[number];

