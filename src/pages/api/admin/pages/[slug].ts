import { deletePage, getPage, updatePage } from '../../../../server/admin/pages.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params }) => getPage(ctx, user, params.slug),
  PATCH: ({ ctx, user, params, body }) => updatePage(ctx, user, params.slug, body),
  DELETE: ({ ctx, user, params }) => deletePage(ctx, user, params.slug),
});
