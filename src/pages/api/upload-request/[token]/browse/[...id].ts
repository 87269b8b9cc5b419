import { abilitiesOf, requestContext } from '../../../../../server/files/abilities.ts';
import { folderParam, listOptions } from '../../../../../server/files/schemas.ts';
import { browseFolder } from '../../../../../server/files/service.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';
import { scopedItemData } from '../../../../../server/sharing/presenter.ts';
import { openUploadRequest } from '../../../../../server/upload-requests/service.ts';

/**
 * A folder of the request (`all`: the request's folder); empty once the request is filled or expired. Each item says in
 * `meta.abilities` what the holder may do: change only what it made, upload into any folder.
 */
export const ALL = publicRoute({
  GET: async ({ ctx, params, query }) => {
    const opened = await openUploadRequest(ctx, params.token ?? '');
    const options = listOptions(query, validate);
    if (opened.status !== 'active') return { data: [], meta: { root: null, status: opened.status } };
    const page = await browseFolder(ctx, opened.actor, folderParam(params.id), { sort: options.sort });
    const abilities = await abilitiesOf(ctx.db, opened.actor, requestContext(opened.owner), page.root ? [...page.items, page.root] : page.items);
    const present = (i: Parameters<typeof scopedItemData>[0]) => scopedItemData(i, opened.request.token, opened.folder.id, 'request', abilities.get(i.id));
    return { data: page.items.map(present), meta: { root: page.root && present(page.root), status: opened.status } };
  },
});
