import { navigationTree } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { shareOfRoute } from '../../../../server/sharing/endpoints.ts';

/** The shared folder's tree (the shared folder as the one root). */
export const ALL = publicRoute({
  GET: async ({ ctx, astro }) => {
    const { actor, item } = await shareOfRoute(ctx, astro, 'read');
    if (item.type !== 'folder') return { data: [] };
    const tree = await navigationTree(ctx, actor);
    return { data: tree.map((node) => ({ ...node, parent_id: null })) };
  },
});
