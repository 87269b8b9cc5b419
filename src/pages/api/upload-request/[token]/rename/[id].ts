import { requestOfRoute } from '../../../../../server/auth/principal.ts';
import { renameAs } from '../../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';

/** The uploader renames what they uploaded; POST with `_method=patch`. */
export const ALL = publicRoute({
  PATCH: async ({ ctx, astro, params, body }) => renameAs(ctx, await requestOfRoute(ctx, astro, 'write'), params.id ?? '', body),
});
