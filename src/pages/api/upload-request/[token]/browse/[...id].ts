import { requestOfRoute } from '../../../../../server/auth/principal.ts';
import { browseAs } from '../../../../../server/files/endpoints.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';

/** A folder of the request (`all`: the request's folder); empty once the request is filled or expired. */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, params, query }) => {
    const principal = await requestOfRoute(ctx, astro, 'read');
    const { status } = principal.request;
    if (!principal.permissions.read) return { data: [], meta: { root: null, status } };
    const page = await browseAs(ctx, principal, params.id, query, { paged: false });
    return { data: page.data, meta: { root: page.meta.root, abilities: page.meta.abilities, status } };
  },
});
