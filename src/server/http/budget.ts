import { sql } from 'kysely';
import type { AppContext } from '../context.ts';

/**
 * Hourly budgets counted in the database (the `rate_limits` table, shared by every app process):
 * `n` units are taken at once, and given back when that would go over, so a refused call spends
 * nothing. Auth's per-attempt limits (src/server/auth/rate-limit.ts) use the same table.
 */
const HOUR_MS = 3600_000;

export type Taken = { ok: true } | { ok: false; retryAfter: number };

export async function takeHourly(ctx: AppContext, key: string, n: number, max: number): Promise<Taken> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const resetAt = new Date(now.getTime() + HOUR_MS).toISOString();
  const row = await ctx.db
    .insertInto('rate_limits')
    .values({ key, count: n, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.reset_at <= ${nowIso} then ${n} else rate_limits.count + ${n} end`,
        reset_at: sql<string>`case when rate_limits.reset_at <= ${nowIso} then ${resetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
  if (Number(row.count) <= max) return { ok: true };
  await giveBack(ctx, key, n);
  return { ok: false, retryAfter: Math.max(1, Math.ceil((Date.parse(row.reset_at) - now.getTime()) / 1000)) };
}

export async function giveBack(ctx: AppContext, key: string, n: number): Promise<void> {
  await ctx.db.updateTable('rate_limits').set({ count: sql<number>`count - ${n}` }).where('key', '=', key).execute();
}
