import type { AppContext } from '../context.ts';

/**
 * Hourly budgets counted in the database (the `rate_limits` table) or Redis (limits/store.ts), shared by every app process:
 * `n` units are taken at once, and given back when that would go over, so a refused call spends
 * nothing. Auth's per-attempt limits (src/server/auth/rate-limit.ts) use the same table.
 */
const HOUR_MS = 3600_000;

export type Taken = { ok: true } | { ok: false; retryAfter: number };

export async function takeHourly(ctx: AppContext, key: string, n: number, max: number): Promise<Taken> {
  const now = ctx.clock.now().getTime();
  const row = await ctx.rateLimits.addToWindow(key, n, HOUR_MS, now);
  if (row.count <= max) return { ok: true };
  await giveBack(ctx, key, n);
  return { ok: false, retryAfter: Math.max(1, Math.ceil((row.resetAt - now) / 1000)) };
}

export async function giveBack(ctx: AppContext, key: string, n: number): Promise<void> {
  await ctx.rateLimits.takeFromWindow(key, n);
}
