import { shareOfRoute } from '../../../../../server/auth/principal.ts';
import { browseAs } from '../../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';

/** A folder inside a shared folder (`all`: the shared folder itself). */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, params, query }) => browseAs(ctx, await shareOfRoute(ctx, astro, 'read'), params.id, query),
});
