import { finishSocialSignIn } from '../../../../server/auth/social/flow.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** Where the provider sends the browser back; always answers with a redirect (flow.ts). */
export const ALL = publicRoute({
  GET: async ({ ctx, user, params, query, astro }) => finishSocialSignIn(ctx, astro, params.provider, query, user),
});
