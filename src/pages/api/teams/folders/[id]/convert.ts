import { json, route } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';
import { presentTeamFolder } from '../../../../../server/teams/endpoints.ts';
import { ConvertTeamInput } from '../../../../../server/teams/schemas.ts';
import { convertToTeamFolder } from '../../../../../server/teams/service.ts';

/** Makes one of my folders a team folder, inviting `invitations` at once. */
export const ALL = route({
  POST: async ({ ctx, user, params, body }) => json(presentTeamFolder(await convertToTeamFolder(ctx, user, params.id ?? '', validate(ConvertTeamInput, body))), 201),
});
