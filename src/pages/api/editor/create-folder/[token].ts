import { CreateFolderInput } from '../../../../server/files/schemas.ts';
import { createFolder } from '../../../../server/files/service.ts';
import { json, publicRoute } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { shareOfRoute } from '../../../../server/sharing/endpoints.ts';
import { scopedItemData } from '../../../../server/sharing/presenter.ts';

/** An editor creates a folder inside the shared folder (`parent_id` empty: the shared folder). */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => {
    const { share, actor, item } = await shareOfRoute(ctx, astro, 'write');
    const folder = await createFolder(ctx, actor, validate(CreateFolderInput, body));
    return json({ data: scopedItemData(folder, share.token, item.id) }, 201);
  },
});
