import { MoveInput } from '../../../../server/files/schemas.ts';
import { moveItems } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { scopedItemData } from '../../../../server/sharing/presenter.ts';
import { openActiveRequest } from '../../../../server/upload-requests/service.ts';

/** The uploader moves what they uploaded, within the request's folder. */
export const ALL = publicRoute({
  POST: async ({ ctx, params, body }) => {
    const opened = await openActiveRequest(ctx, params.token ?? '');
    const input = validate(MoveInput, body);
    return { data: (await moveItems(ctx, opened.actor, input.to_id, input.items)).map((i) => scopedItemData(i, opened.request.token, opened.folder.id, 'request')) };
  },
});
