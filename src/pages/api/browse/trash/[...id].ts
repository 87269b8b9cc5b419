import { abilitiesOf, ownerContext } from '../../../../server/files/abilities.ts';
import { encodeCursor, folderParam, listOptions } from '../../../../server/files/schemas.ts';
import { presentList } from '../../../../server/files/presenter.ts';
import { browseTrash } from '../../../../server/files/service.ts';
import { route } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';

/** The trash (`all` or no id: what was trashed directly), or a trashed folder's items. */
export const ALL = route({
  GET: async ({ ctx, user, params, query }) => {
    const page = await browseTrash(ctx, user, folderParam(params.id), listOptions(query, validate, { trash: true }));
    const abilities = await abilitiesOf(ctx.db, user, ownerContext(user), page.root ? [...page.items, page.root] : page.items);
    return presentList(page.items, { root: page.root, next_cursor: page.next && encodeCursor(page.next) }, abilities);
  },
});
