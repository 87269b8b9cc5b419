import { listOptions } from '../../../../../server/files/schemas.ts';
import { route } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';
import { presentTeamPage } from '../../../../../server/teams/endpoints.ts';
import { browseSharedWithMe, leaveTeam } from '../../../../../server/teams/service.ts';

/** A folder at or below a team folder I am a member of (GET); leaving that team (DELETE, the team folder's id). */
export const ALL = route({
  GET: async ({ ctx, user, params, query }) => presentTeamPage(await browseSharedWithMe(ctx, user, params.id ?? '', listOptions(query, validate))),
  DELETE: async ({ ctx, user, params }) => {
    await leaveTeam(ctx, user, params.id ?? '');
  },
});
