import { signedInOf } from '../../../../server/auth/principal.ts';
import { browseAs } from '../../../../server/files/endpoints.ts';
import { route } from '../../../../server/http/endpoint.ts';

/** A folder's items (`all` or no id: home), folders first; `sort`, `direction`, and `limit` + `cursor` for pages. Shared items carry their link in `relationships.shared`. */
export const ALL = route({
  GET: ({ ctx, astro, params, query }) => browseAs(ctx, signedInOf(astro), params.id, query),
});
