import { linkedAccounts } from '../../../../server/auth/social/linked.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: async ({ ctx, user }) => linkedAccounts(ctx, user),
});
