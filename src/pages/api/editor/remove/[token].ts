import { shareOfRoute } from '../../../../server/auth/principal.ts';
import { removeAs } from '../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** An editor moves items of the shared folder to the owner's trash (never deletes for good). */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => removeAs(ctx, await shareOfRoute(ctx, astro, 'write'), body),
});
