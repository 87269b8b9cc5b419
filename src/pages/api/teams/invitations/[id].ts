import { publicRoute } from '../../../../server/http/endpoint.ts';
import { unauthenticated } from '../../../../server/http/errors.ts';
import { acceptInvitation, declineInvitation, describeInvitation } from '../../../../server/teams/invitations.ts';

/**
 * An invitation: what the public invitation page shows (GET, open to visitors with the link);
 * accepted (PUT) or declined (DELETE) by the signed-in account of the invited address.
 */
export const ALL = publicRoute({
  GET: async ({ ctx, user, params }) => ({ data: await describeInvitation(ctx, params.id ?? '', user) }),
  PUT: async ({ ctx, user, params }) => {
    if (!user) throw unauthenticated();
    return { data: await acceptInvitation(ctx, user, params.id ?? '') };
  },
  DELETE: async ({ ctx, user, params }) => {
    if (!user) throw unauthenticated();
    await declineInvitation(ctx, user, params.id ?? '');
  },
});
