import { encodeCursor, folderParam, listOptions } from '../../../../server/files/schemas.ts';
import { presentList } from '../../../../server/files/presenter.ts';
import { browseFolder } from '../../../../server/files/service.ts';
import { route } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';

/** A folder's items (`all` or no id: home), folders first; `sort`, `direction`, and `limit` + `cursor` for pages. */
export const ALL = route({
  GET: async ({ ctx, user, params, query }) => {
    const page = await browseFolder(ctx, user, folderParam(params.id), listOptions(query, validate));
    return presentList(page.items, { root: page.root, next_cursor: page.next && encodeCursor(page.next) });
  },
});
