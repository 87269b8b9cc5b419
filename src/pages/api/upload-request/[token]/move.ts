import { requestOfRoute } from '../../../../server/auth/principal.ts';
import { moveAs } from '../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** The uploader moves what they uploaded, within the request's folder. */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => moveAs(ctx, await requestOfRoute(ctx, astro, 'write'), body),
});
