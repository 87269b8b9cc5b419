import { itemData } from '../../../../server/files/presenter.ts';
import { json, route } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { presentTeamFolder } from '../../../../server/teams/endpoints.ts';
import { CreateTeamInput } from '../../../../server/teams/schemas.ts';
import { createTeamFolder, listOwnTeams } from '../../../../server/teams/service.ts';

/** The team folders I own (GET), or a new one (POST `{ name, emoji?, parent_id?, invitations? }`). */
export const ALL = route({
  GET: async ({ ctx, user }) => {
    const { items, teams } = await listOwnTeams(ctx, user);
    return { data: items.map(itemData), meta: { teams: Object.fromEntries(teams.map((t) => [t.folder_id, t])) } };
  },
  POST: async ({ ctx, user, body }) => json(presentTeamFolder(await createTeamFolder(ctx, user, validate(CreateTeamInput, body))), 201),
});
