import { abilitiesOf, homeAbilities, ownerContext } from '../../../../server/files/abilities.ts';
import { encodeCursor, folderParam, listOptions } from '../../../../server/files/schemas.ts';
import { presentList } from '../../../../server/files/presenter.ts';
import { browseFolder } from '../../../../server/files/service.ts';
import { route } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { withShared } from '../../../../server/sharing/presenter.ts';
import { sharesOfItems } from '../../../../server/sharing/service.ts';

/**
 * A folder's items (`all` or no id: home), folders first; `sort`, `direction`, and `limit` + `cursor` for pages. Shared items carry their
 * link in `relationships.shared`; every item (and the root) what the user may do with it in `meta.abilities`, and `meta.abilities` those of the open folder (home too).
 */
export const ALL = route({
  GET: async ({ ctx, user, params, query }) => {
    const page = await browseFolder(ctx, user, folderParam(params.id), listOptions(query, validate));
    const principal = ownerContext(user);
    const abilities = await abilitiesOf(ctx.db, user, principal, page.root ? [...page.items, page.root] : page.items);
    // The open place's own abilities (the root's, or the home's), so the toolbar needs no root item to ask.
    const here = page.root ? abilities.get(page.root.id) : homeAbilities(principal);
    const list = presentList(page.items, { root: page.root, next_cursor: page.next && encodeCursor(page.next), abilities: here }, abilities);
    const shares = await sharesOfItems(ctx, user, page.items.map((i) => i.id));
    return { ...list, data: list.data.map((d) => withShared(ctx, d, shares)) };
  },
});
