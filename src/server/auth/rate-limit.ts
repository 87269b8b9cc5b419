import type { AppContext } from '../context.ts';
import { tooManyRequests } from '../http/errors.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * Counts one hit against `key` in a fixed window, atomically in the database (or Redis:
 * limits/store.ts) so several processes share the count. Throws 429 with Retry-After once the window's budget is spent.
 */
export async function hit(ctx: AppContext, key: string, limit: Limit): Promise<void> {
  const now = ctx.clock.now().getTime();
  const row = await ctx.rateLimits.addToWindow(key, 1, limit.windowMs, now);
  if (row.count > limit.max) throw tooManyRequests(Math.max(1, Math.ceil((row.resetAt - now) / 1000)));
}

/** True for the first call under `key` in a window of `windowMs`: "tell someone once per window". */
export async function firstInWindow(ctx: AppContext, key: string, windowMs: number): Promise<boolean> {
  return (await ctx.rateLimits.addToWindow(key, 1, windowMs, ctx.clock.now().getTime())).count === 1;
}

export async function clearHits(ctx: AppContext, key: string): Promise<void> {
  await ctx.rateLimits.clearWindow(key);
}

/** Fixed windows for what is not a password guess; sign-in and share passwords back off (throttle.ts). */
export const LIMITS = {
  resetPerIp: { max: 10, windowMs: 60 * 60_000 },
  resetPerAccount: { max: 5, windowMs: 60 * 60_000 },
  registerPerIp: { max: 20, windowMs: 60 * 60_000 },
  verificationResendPerUser: { max: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, Limit>;
