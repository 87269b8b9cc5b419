import { route } from '../../../../server/http/endpoint.ts';
import { pageRequest } from '../../../../server/http/keyset.ts';
import { presentMemberTeamRoots } from '../../../../server/teams/endpoints.ts';
import { listSharedWithMe } from '../../../../server/teams/service.ts';

/** The team folders I am a member of, each with its owner and my permission in `meta.teams[folder_id]`. */
export const ALL = route({
  GET: async ({ ctx, user, query }) => {
    const { items, teams, next } = await listSharedWithMe(ctx, user, pageRequest(query, 2));
    return { data: await presentMemberTeamRoots(ctx, user, items), meta: { teams, next_cursor: next } };
  },
});
