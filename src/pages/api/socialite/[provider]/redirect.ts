import { startSocialSignIn } from '../../../../server/auth/social/flow.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** SPEC §7: `{ url }`, the provider's sign-in page to send the browser to (`?intent=link` from settings). */
export const ALL = publicRoute({
  GET: async ({ ctx, user, params, query, astro }) => startSocialSignIn(ctx, astro, params.provider, query, user),
});
