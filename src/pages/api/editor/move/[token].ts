import { MoveInput } from '../../../../server/files/schemas.ts';
import { moveItems } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { shareOfRoute } from '../../../../server/sharing/endpoints.ts';
import { scopedItemData } from '../../../../server/sharing/presenter.ts';

/** An editor moves items within the shared folder (`to_id` empty: the shared folder). */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => {
    const { share, actor, item } = await shareOfRoute(ctx, astro, 'write');
    const input = validate(MoveInput, body);
    return { data: (await moveItems(ctx, actor, input.to_id, input.items)).map((i) => scopedItemData(i, share.token, item.id)) };
  },
});
