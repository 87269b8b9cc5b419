import { RenameInput } from '../../../../../server/files/schemas.ts';
import { renameItem } from '../../../../../server/files/service.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';
import { shareOfRoute } from '../../../../../server/sharing/endpoints.ts';
import { scopedItemData } from '../../../../../server/sharing/presenter.ts';

/** An editor renames an item inside the shared folder; sent as POST with `_method=patch`. */
export const ALL = publicRoute({
  PATCH: async ({ ctx, astro, params, body }) => {
    const { share, actor, item } = await shareOfRoute(ctx, astro, 'write');
    return { data: scopedItemData(await renameItem(ctx, actor, params.id ?? '', validate(RenameInput, body)), share.token, item.id) };
  },
});
