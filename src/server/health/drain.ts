import type { AppContext } from '../context.ts';

/**
 * Whether this process is shutting down (SIGTERM received, src/main.ts): from that moment /readyz
 * answers 503 so load balancers stop sending new work while the requests in flight finish.
 */
const draining = new WeakSet<AppContext>();

export function startDraining(ctx: AppContext): void {
  draining.add(ctx);
}

export function isDraining(ctx: AppContext): boolean {
  return draining.has(ctx);
}
