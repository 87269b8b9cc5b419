import { actorOf, shareOfRoute } from '../../../../server/auth/principal.ts';
import { navigationTree } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** The shared folder's tree (the shared folder as the one root). */
export const ALL = publicRoute({
  GET: async ({ ctx, astro }) => {
    const principal = await shareOfRoute(ctx, astro, 'read');
    if (principal.share.item.type !== 'folder') return { data: [] };
    const tree = await navigationTree(ctx, actorOf(principal));
    return { data: tree.map((node) => ({ ...node, parent_id: null })) };
  },
});
