import { TreeQuery } from '../../../../../server/files/schemas.ts';
import { route } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';
import { teamTree } from '../../../../../server/teams/service.ts';

/** The navigation tree of a team folder, for its owner and its members: the team folder with its subfolders, or `parent_id`'s, or the branches down to `open`. */
export const ALL = route({
  GET: async ({ ctx, user, params, query }) => ({ data: await teamTree(ctx, user, params.id ?? '', validate(TreeQuery, Object.fromEntries(query))) }),
});
