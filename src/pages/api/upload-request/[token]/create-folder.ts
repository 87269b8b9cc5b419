import { requestOfRoute } from '../../../../server/auth/principal.ts';
import { createFolderAs } from '../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** The uploader creates a folder in the request's folder (`parent_id` empty: the request's folder). */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => createFolderAs(ctx, await requestOfRoute(ctx, astro, 'write'), body),
});
