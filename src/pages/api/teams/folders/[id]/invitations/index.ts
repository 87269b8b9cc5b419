import { json, route } from '../../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../../server/http/validate.ts';
import { inviteMember } from '../../../../../../server/teams/invitations.ts';
import { InvitationInput } from '../../../../../../server/teams/schemas.ts';

/** Invites an address to my team folder: `{ email, permission }`. */
export const ALL = route({
  POST: async ({ ctx, user, params, body }) => json({ data: await inviteMember(ctx, user, params.id ?? '', validate(InvitationInput, body)) }, 201),
});
