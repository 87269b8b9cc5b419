import { json, route } from '../../../../server/http/endpoint.ts';
import { pageRequest } from '../../../../server/http/keyset.ts';
import { validate } from '../../../../server/http/validate.ts';
import { presentTeamFolder, presentOwnTeamRoots } from '../../../../server/teams/endpoints.ts';
import { CreateTeamInput } from '../../../../server/teams/schemas.ts';
import { createTeamFolder, listOwnTeams } from '../../../../server/teams/service.ts';

/** The team folders I own (GET), or a new one (POST `{ name, emoji?, parent_id?, invitations? }`). */
export const ALL = route({
  GET: async ({ ctx, user, query }) => {
    const { items, teams, next } = await listOwnTeams(ctx, user, pageRequest(query, 2));
    return { data: await presentOwnTeamRoots(ctx, user, items), meta: { teams: Object.fromEntries(teams.map((t) => [t.folder_id, t])), next_cursor: next } };
  },
  POST: async ({ ctx, user, body }) => json(presentTeamFolder(await createTeamFolder(ctx, user, validate(CreateTeamInput, body))), 201),
});
