/**
 * Where rate limits, hourly budgets and password back-off keep their counts: the database by
 * default (tables `rate_limits` and `throttles`, limits/db-store.ts), or Redis when REDIS_URL is
 * set (limits/redis-store.ts). Either way every app node shares them. auth/rate-limit.ts,
 * auth/throttle.ts and http/budget.ts hold the rules and speak only to this interface; times are
 * passed in (ms) from ctx.clock, so the rules stay testable with a later clock.
 */
export interface Backoff {
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

/** How long the next attempt after `count` attempts has to wait (0: none). */
export function delayAfter(limit: Backoff, count: number): number {
  if (count < limit.free) return 0;
  return Math.min(limit.maxMs, limit.baseMs * 2 ** Math.min(30, count - limit.free));
}

export interface RateLimitStore {
  readonly kind: 'database' | 'redis';
  /** Adds `n` to the key's fixed window, opening one of `windowMs` when none is open; answers the total and when the window closes (ms). */
  addToWindow(key: string, n: number, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  /** Takes `n` back out of the key's open window. */
  takeFromWindow(key: string, n: number): Promise<void>;
  clearWindow(key: string): Promise<void>;
  /** The latest time (ms) one of `keys` is closed until, 0 when none is. */
  closedUntil(keys: string[], now: number): Promise<number>;
  /**
   * Counts one attempt under `key`, atomically with closing it for `delayAfter(limit, count)`: a
   * forgotten key starts again at 1, a key closed meanwhile (a parallel attempt) is not counted and
   * answers `closed` with its time. The key is forgotten `forgetMs` after its last counted attempt.
   */
  countAttempt(key: string, limit: Backoff, now: number): Promise<{ count: number; blockedUntil: number; closed: boolean }>;
  forget(keys: string[]): Promise<void>;
  /** One counted attempt back (never below 0); a wait already set stays. */
  refund(keys: string[]): Promise<void>;
  /** Remembers a fact under `key` for `forMs`. */
  remember(key: string, forMs: number, now: number): Promise<void>;
  remembered(key: string, now: number): Promise<boolean>;
  /** Checks the store answers (readiness, boot). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
