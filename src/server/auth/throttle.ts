import type { AppContext } from '../context.ts';
import { tooManyRequests } from '../http/errors.ts';
import type { Backoff } from '../limits/store.ts';

export type { Backoff };
export { delayAfter } from '../limits/store.ts';

/**
 * Exponential back-off for password guessing, kept in the database (or Redis: limits/store.ts) so every app process shares it.
 * A key's first `free` attempts pass at once; from then on each attempt closes the key for
 * `baseMs`, doubling per attempt up to `maxMs`. Attempts are counted before the password is checked
 * (so a burst of parallel guesses cannot all slip past the check), and an attempt made while a
 * key is closed is refused with 429 and Retry-After without being counted. A key is forgotten
 * `forgetMs` after its last counted attempt.
 */
export interface Throttle {
  key: string;
  limit: Backoff;
}

export interface Taken {
  key: string;
  /** Attempts counted under this key, this one included. */
  count: number;
  /** This attempt used up the key's free attempts: the caller may tell someone. */
  backingOff: boolean;
}

/**
 * Checks every key first (a refusal counts nowhere), then counts the attempt under each. Throws 429
 * with the longest wait when any key is closed.
 */
export async function takeAttempt(ctx: AppContext, throttles: Throttle[]): Promise<Taken[]> {
  const now = ctx.clock.now().getTime();
  const closed = await ctx.rateLimits.closedUntil(
    throttles.map((t) => t.key),
    now,
  );
  if (closed > 0) throw refusal(now, closed);
  const taken: Taken[] = [];
  for (const { key, limit } of throttles) {
    const row = await ctx.rateLimits.countAttempt(key, limit, now);
    // Closed by a parallel attempt since the check above.
    if (row.closed) throw refusal(now, row.blockedUntil);
    taken.push({ key, count: row.count, backingOff: row.blockedUntil > 0 });
  }
  return taken;
}

/** Forgets a key, after a successful sign-in for the keys that name the one who succeeded. */
export async function forgetAttempts(ctx: AppContext, keys: string[]): Promise<void> {
  await ctx.rateLimits.forget(keys);
}

/** Gives one counted attempt back (a success under a shared key such as an IP); a wait already set stays. */
export async function refundAttempt(ctx: AppContext, keys: string[]): Promise<void> {
  await ctx.rateLimits.refund(keys);
}

function refusal(now: number, until: number) {
  return tooManyRequests(Math.max(1, Math.ceil((until - now) / 1000)));
}

/** Remembers a fact under `key` for `forMs` (e.g. "this IP unlocked this link before"). */
export async function remember(ctx: AppContext, key: string, forMs: number): Promise<void> {
  await ctx.rateLimits.remember(key, forMs, ctx.clock.now().getTime());
}

export async function remembered(ctx: AppContext, key: string): Promise<boolean> {
  return ctx.rateLimits.remembered(key, ctx.clock.now().getTime());
}
