import { revokeAccessToken } from '../../../../server/auth/access-tokens.ts';
import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  DELETE: async ({ ctx, user, params, astro }) => {
    requireSessionAuth(astro.locals, 'Revoking an access token');
    await revokeAccessToken(ctx, user.id, params.id ?? '');
  },
});
