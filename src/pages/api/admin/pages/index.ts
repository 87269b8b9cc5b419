import { createPage, listPages } from '../../../../server/admin/pages.ts';
import { json, route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, query }) => listPages(ctx, user, query),
  POST: async ({ ctx, user, body }) => json(await createPage(ctx, user, body), 201),
});
