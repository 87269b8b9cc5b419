import { getHomepage, updateHomepage } from '../../../../server/admin/settings/homepage.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getHomepage(ctx, user),
  PUT: ({ ctx, user, body }) => updateHomepage(ctx, user, body),
});
