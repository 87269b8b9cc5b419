import { revokeAccessToken } from '../../../../server/auth/access-tokens.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  DELETE: async ({ ctx, user, params }) => {
    await revokeAccessToken(ctx, user.id, params.id ?? '');
  },
});
