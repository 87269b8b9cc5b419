import { encodeCursor, folderParam, listOptions } from '../../../../../server/files/schemas.ts';
import { browseFolder } from '../../../../../server/files/service.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';
import { shareOfRoute } from '../../../../../server/sharing/endpoints.ts';
import { scopedItemData } from '../../../../../server/sharing/presenter.ts';

/** A folder inside a shared folder (`all`: the shared folder itself). */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, params, query }) => {
    const { share, actor, item: root } = await shareOfRoute(ctx, astro, 'read');
    const page = await browseFolder(ctx, actor, folderParam(params.id), listOptions(query, validate));
    const present = (i: Parameters<typeof scopedItemData>[0]) => scopedItemData(i, share.token, root.id);
    return { data: page.items.map(present), meta: { root: page.root && present(page.root), next_cursor: page.next && encodeCursor(page.next) } };
  },
});
