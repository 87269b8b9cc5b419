import { actorOf, requestOfRoute } from '../../../../../server/auth/principal.ts';
import { itemDataFor } from '../../../../../server/files/endpoints.ts';
import { folderParam, listOptions } from '../../../../../server/files/schemas.ts';
import { browseFolder } from '../../../../../server/files/service.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';

/** A folder of the request (`all`: the request's folder); empty once the request is filled or expired. */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, params, query }) => {
    const principal = await requestOfRoute(ctx, astro, 'read');
    const { status } = principal.request;
    const options = listOptions(query, validate);
    if (!principal.permissions.read) return { data: [], meta: { root: null, status } };
    const page = await browseFolder(ctx, actorOf(principal), folderParam(params.id), { sort: options.sort });
    const present = itemDataFor(principal);
    return { data: page.items.map(present), meta: { root: page.root && present(page.root), status } };
  },
});
