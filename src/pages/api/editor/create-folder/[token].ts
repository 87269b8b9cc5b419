import { shareOfRoute } from '../../../../server/auth/principal.ts';
import { createFolderAs } from '../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** An editor creates a folder inside the shared folder (`parent_id` empty: the shared folder). */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => createFolderAs(ctx, await shareOfRoute(ctx, astro, 'write'), body),
});
