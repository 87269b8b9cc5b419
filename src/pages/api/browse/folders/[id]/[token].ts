import { actorOf, shareOfRoute } from '../../../../../server/auth/principal.ts';
import { itemDataFor } from '../../../../../server/files/endpoints.ts';
import { encodeCursor, folderParam, listOptions } from '../../../../../server/files/schemas.ts';
import { browseFolder } from '../../../../../server/files/service.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';

/** A folder inside a shared folder (`all`: the shared folder itself). */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, params, query }) => {
    const principal = await shareOfRoute(ctx, astro, 'read');
    const page = await browseFolder(ctx, actorOf(principal), folderParam(params.id), listOptions(query, validate));
    const present = itemDataFor(principal);
    return { data: page.items.map(present), meta: { root: page.root && present(page.root), next_cursor: page.next && encodeCursor(page.next) } };
  },
});
