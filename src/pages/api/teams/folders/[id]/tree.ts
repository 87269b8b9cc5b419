import { route } from '../../../../../server/http/endpoint.ts';
import { teamTree } from '../../../../../server/teams/service.ts';

/** The navigation tree of a team folder, for its owner and its members. */
export const ALL = route({
  GET: async ({ ctx, user, params }) => ({ data: await teamTree(ctx, user, params.id ?? '') }),
});
