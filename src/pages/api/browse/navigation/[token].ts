import { shareContext, withTreeAbilities } from '../../../../server/files/abilities.ts';
import { navigationTree } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { shareOfRoute } from '../../../../server/sharing/endpoints.ts';

/** The shared folder's tree (the shared folder as the one root), each folder with `abilities`. */
export const ALL = publicRoute({
  GET: async ({ ctx, astro }) => {
    const { actor, item, owner, share } = await shareOfRoute(ctx, astro, 'read');
    if (item.type !== 'folder') return { data: [] };
    const tree = await withTreeAbilities(ctx.db, actor, shareContext(owner, share.permission), await navigationTree(ctx, actor));
    return { data: tree.map((node) => ({ ...node, parent_id: null })) };
  },
});
