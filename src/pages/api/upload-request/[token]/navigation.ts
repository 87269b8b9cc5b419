import { actorOf, requestOfRoute } from '../../../../server/auth/principal.ts';
import { navigationTree } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** The request folder's tree; empty once the request is filled or expired. */
export const ALL = publicRoute({
  GET: async ({ ctx, astro }) => {
    const principal = await requestOfRoute(ctx, astro, 'read');
    if (!principal.permissions.read) return { data: [] };
    return { data: (await navigationTree(ctx, actorOf(principal))).map((node) => ({ ...node, parent_id: null })) };
  },
});
