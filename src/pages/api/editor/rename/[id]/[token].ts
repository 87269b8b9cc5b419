import { shareOfRoute } from '../../../../../server/auth/principal.ts';
import { renameAs } from '../../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';

/** An editor renames an item inside the shared folder; sent as POST with `_method=patch`. */
export const ALL = publicRoute({
  PATCH: async ({ ctx, astro, params, body }) => renameAs(ctx, await shareOfRoute(ctx, astro, 'write'), params.id ?? '', body),
});
