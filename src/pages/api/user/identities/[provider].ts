import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { unlinkIdentity } from '../../../../server/auth/social/linked.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  DELETE: async ({ ctx, user, params, astro }) => {
    requireSessionAuth(astro.locals, 'Unlinking a sign-in provider');
    await unlinkIdentity(ctx, user, params.provider);
  },
});
