import { route } from '../../../../../../server/http/endpoint.ts';
import { revokeInvitation } from '../../../../../../server/teams/invitations.ts';

/** Withdraws an open invitation of my team folder. */
export const ALL = route({
  DELETE: async ({ ctx, user, params }) => {
    await revokeInvitation(ctx, user, params.id ?? '', params.invitationId ?? '');
  },
});
