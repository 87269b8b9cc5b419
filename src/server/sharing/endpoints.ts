import type { APIContext } from 'astro';
import type { AppContext } from '../context.ts';
import { openShare, type OpenedShare } from './service.ts';

/** Opens the share named by the route's `token` for an Astro endpoint (cookies from Astro). */
export function shareOfRoute(ctx: AppContext, astro: APIContext, need: 'read' | 'write'): Promise<OpenedShare> {
  return openShare(ctx, astro.params.token ?? '', (name) => astro.cookies.get(name)?.value, need);
}
