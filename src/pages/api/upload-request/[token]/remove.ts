import { requestOfRoute } from '../../../../server/auth/principal.ts';
import { removeAs } from '../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** The uploader removes what they uploaded (to the owner's trash). */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => removeAs(ctx, await requestOfRoute(ctx, astro, 'write'), body),
});
