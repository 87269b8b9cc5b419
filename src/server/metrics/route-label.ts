/**
 * The `route` label of the request metrics: the route's pattern, never the raw URL, so a series
 * exists per route and not per item id or share token (bounded cardinality).
 */
export type RouteSource =
  /** A data-plane route (src/server/host/data-routes.ts), by its name. */
  | { kind: 'data'; name: string }
  /** A page or endpoint Astro served, by the pattern its middleware saw (`/api/browse/folders/[id]`). */
  | { kind: 'astro'; pattern: string | undefined }
  /** A built asset served from dist/client. */
  | { kind: 'static' }
  /** Nothing of ours matched (a 404), or the request was refused before routing (a bad method, a body too large). */
  | { kind: 'unmatched' };

export const UNMATCHED = '(unmatched)';
export const STATIC = '(static)';

/** A pattern as Astro writes it: path segments of letters, digits and `._-`, with `[param]` or `[...rest]` in place of values. */
const PATTERN = /^\/(?:(?:[A-Za-z0-9._-]+|\[(?:\.\.\.)?[A-Za-z0-9_]+\])(?:\/(?:[A-Za-z0-9._-]+|\[(?:\.\.\.)?[A-Za-z0-9_]+\]))*)?$/;

export function routeLabel(source: RouteSource): string {
  switch (source.kind) {
    case 'data':
      return source.name;
    case 'astro':
      // Astro's own 404 and anything not shaped like a route pattern count as unmatched.
      return source.pattern && source.pattern !== '/404' && source.pattern.length <= 200 && PATTERN.test(source.pattern) ? source.pattern : UNMATCHED;
    case 'static':
      return STATIC;
    case 'unmatched':
      return UNMATCHED;
  }
}

/** `2xx`, `4xx`, ...; `aborted` when the client went before any answer was sent. */
export function statusClass(status: number | null): string {
  if (status === null || status < 100 || status > 599) return 'aborted';
  return `${Math.floor(status / 100)}xx`;
}
