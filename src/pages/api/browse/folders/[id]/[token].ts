import { abilitiesOf, shareContext } from '../../../../../server/files/abilities.ts';
import { encodeCursor, folderParam, listOptions } from '../../../../../server/files/schemas.ts';
import { browseFolder } from '../../../../../server/files/service.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';
import { shareOfRoute } from '../../../../../server/sharing/endpoints.ts';
import { scopedItemData } from '../../../../../server/sharing/presenter.ts';

/** A folder inside a shared folder (`all`: the shared folder itself); each item with what the link's holder may do in `meta.abilities`. */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, params, query }) => {
    const { share, actor, owner, item: root } = await shareOfRoute(ctx, astro, 'read');
    const page = await browseFolder(ctx, actor, folderParam(params.id), listOptions(query, validate));
    const abilities = await abilitiesOf(ctx.db, actor, shareContext(owner, share.permission), page.root ? [...page.items, page.root] : page.items);
    const present = (i: Parameters<typeof scopedItemData>[0]) => scopedItemData(i, share.token, root.id, 'share', abilities.get(i.id));
    return { data: page.items.map(present), meta: { root: page.root && present(page.root), next_cursor: page.next && encodeCursor(page.next) } };
  },
});
