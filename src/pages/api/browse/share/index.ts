import { abilitiesOf, ownerContext } from '../../../../server/files/abilities.ts';
import { itemData } from '../../../../server/files/presenter.ts';
import { route } from '../../../../server/http/endpoint.ts';
import { shareData } from '../../../../server/sharing/presenter.ts';
import { mySharedItems } from '../../../../server/sharing/service.ts';

/** My shared items: each item with its link in `relationships.shared`. */
export const ALL = route({
  GET: async ({ ctx, user }) => {
    const shared = await mySharedItems(ctx, user);
    const abilities = await abilitiesOf(ctx.db, user, ownerContext(user), shared.map((s) => s.item));
    const data = shared.map(({ share, item }) => {
      const d = itemData(item, abilities.get(item.id));
      return { ...d, relationships: { ...d.relationships, shared: { data: shareData(ctx, share) } } };
    });
    return { data, meta: { root: null } };
  },
});
