import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { tooManyRequests } from '../http/errors.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * Counts one hit against `key` in a fixed window, atomically in the database so several processes
 * share the count. Throws 429 with Retry-After once the window's budget is spent.
 */
export async function hit(ctx: AppContext, key: string, limit: Limit): Promise<void> {
  const row = await count(ctx, key, limit.windowMs);
  if (row.count > limit.max) {
    const seconds = Math.max(1, Math.ceil((Date.parse(row.reset_at) - ctx.clock.now().getTime()) / 1000));
    throw tooManyRequests(seconds);
  }
}

/** True for the first call under `key` in a window of `windowMs`: "tell someone once per window". */
export async function firstInWindow(ctx: AppContext, key: string, windowMs: number): Promise<boolean> {
  return (await count(ctx, key, windowMs)).count === 1;
}

async function count(ctx: AppContext, key: string, windowMs: number): Promise<{ count: number; reset_at: string }> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const resetAt = new Date(now.getTime() + windowMs).toISOString();
  return ctx.db
    .insertInto('rate_limits')
    .values({ key, count: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.reset_at <= ${nowIso} then 1 else rate_limits.count + 1 end`,
        reset_at: sql<string>`case when rate_limits.reset_at <= ${nowIso} then ${resetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
}

export async function clearHits(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Fixed windows for what is not a password guess; sign-in and share passwords back off (throttle.ts). */
export const LIMITS = {
  resetPerIp: { max: 10, windowMs: 60 * 60_000 },
  resetPerAccount: { max: 5, windowMs: 60 * 60_000 },
  registerPerIp: { max: 20, windowMs: 60 * 60_000 },
  verificationResendPerUser: { max: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, Limit>;
