import { shareOfRoute } from '../../../../server/auth/principal.ts';
import { moveAs } from '../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** An editor moves items within the shared folder (`to_id` empty: the shared folder). */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => moveAs(ctx, await shareOfRoute(ctx, astro, 'write'), body),
});
