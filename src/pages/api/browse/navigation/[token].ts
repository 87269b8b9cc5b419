import { shareOfRoute } from '../../../../server/auth/principal.ts';
import { navigationAs } from '../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** The shared folder's tree (the shared folder as the one root; none for a shared file). */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, query }) => {
    const principal = await shareOfRoute(ctx, astro, 'read');
    return principal.share.item.type === 'folder' ? navigationAs(ctx, principal, query) : { data: [] };
  },
});
