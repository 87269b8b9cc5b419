import { sql } from 'kysely';
import type { AppContext } from '../context.ts';

/**
 * Readiness (GET /readyz): may this process take traffic? It must reach the database and the blob
 * store, and must not be shutting down. Each check is cheap (one trivial query, one stat of a key
 * that need not exist) and bounded by a timeout, so a hung dependency fails the probe instead of
 * hanging it.
 */
export type Check = () => Promise<unknown>;

export interface CheckResult {
  status: 'ok' | 'failed';
  ms: number;
  /** Why it failed, in words safe to show anyone (the error itself goes to the log). */
  reason?: 'timed out' | 'error';
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
  /** The first failed check's name. */
  failed: string | null;
}

export const CHECK_TIMEOUT_MS = 3_000;

/** A key the probe stats; it never exists (no blob is written under `health/`). */
export const PROBE_KEY = 'health/probe';

export function readinessChecks(ctx: AppContext): Record<string, Check> {
  return {
    database: () => sql`select 1`.execute(ctx.db),
    storage: () => ctx.blobs.stat(PROBE_KEY),
    // Redis, when rate limits live there (REDIS_URL): without it sign-ins and shares answer 503.
    ...(ctx.rateLimits.kind === 'redis' ? { redis: () => ctx.rateLimits.ping() } : {}),
  };
}

/** Runs every check at once; ready when all pass within `timeoutMs`. Failures are logged with their error. */
export async function runChecks(checks: Record<string, Check>, options: { timeoutMs?: number; onError?: (name: string, error: unknown) => void } = {}): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, CheckResult]> => {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timed out'>((resolve) => {
        timer = setTimeout(() => resolve('timed out'), timeoutMs);
      });
      try {
        const outcome = await Promise.race([check().then(() => 'ok' as const), timeout]);
        if (outcome === 'ok') return [name, { status: 'ok', ms: elapsed() }];
        options.onError?.(name, new Error(`the ${name} check took longer than ${timeoutMs} ms`));
        return [name, { status: 'failed', ms: elapsed(), reason: 'timed out' }];
      } catch (error) {
        options.onError?.(name, error);
        return [name, { status: 'failed', ms: elapsed(), reason: 'error' }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const failed = entries.find(([, result]) => result.status === 'failed')?.[0] ?? null;
  return { ready: failed === null, checks: Object.fromEntries(entries), failed };
}

// Probes arrive from every load balancer and monitor at once: concurrent ones share one run.
const inFlight = new WeakMap<AppContext, Promise<Readiness>>();

export function checkReadiness(ctx: AppContext): Promise<Readiness> {
  let run = inFlight.get(ctx);
  if (!run) {
    run = runChecks(readinessChecks(ctx), { onError: (check, error) => ctx.logger.warn({ err: error, check }, 'readiness check failed') }).finally(() => inFlight.delete(ctx));
    inFlight.set(ctx, run);
  }
  return run;
}
