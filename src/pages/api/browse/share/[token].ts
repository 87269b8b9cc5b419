import { abilitiesOf, shareContext } from '../../../../server/files/abilities.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { scopedItemData } from '../../../../server/sharing/presenter.ts';
import { peekShare } from '../../../../server/sharing/service.ts';

/**
 * A share link as its holder sees it. A dead link is a 404. A protected link still locked in this
 * browser answers only that it is protected: nothing about the item.
 */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, params }) => {
    const { share, item, owner, actor, unlocked } = await peekShare(ctx, params.token ?? '', (name) => astro.cookies.get(name)?.value);
    const attributes = { token: share.token, protected: share.password_hash !== null, authenticated: unlocked };
    if (!unlocked) return { data: { id: share.token, type: 'shares', attributes } };
    const abilities = await abilitiesOf(ctx.db, actor, shareContext(owner, share.permission), [item]);
    return {
      data: {
        id: share.token,
        type: 'shares',
        attributes: { ...attributes, permission: share.permission, item_id: share.item_id, type: share.type, expires_at: share.expires_at, owner_name: owner.name },
        relationships: { item: { data: scopedItemData(item, share.token, item.id, 'share', abilities.get(item.id)) } },
      },
    };
  },
});
