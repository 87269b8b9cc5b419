import { requestOfRoute } from '../../../../server/auth/principal.ts';
import { navigationAs } from '../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** The request folder's tree; empty once the request is filled or expired. */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, query }) => {
    const principal = await requestOfRoute(ctx, astro, 'read');
    return principal.permissions.read ? navigationAs(ctx, principal, query) : { data: [] };
  },
});
