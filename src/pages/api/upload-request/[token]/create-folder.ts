import { CreateFolderInput } from '../../../../server/files/schemas.ts';
import { createFolder } from '../../../../server/files/service.ts';
import { json, publicRoute } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { scopedItemData } from '../../../../server/sharing/presenter.ts';
import { openActiveRequest, recordRequestItem } from '../../../../server/upload-requests/service.ts';

/** The uploader creates a folder in the request's folder (`parent_id` empty: the request's folder). */
export const ALL = publicRoute({
  POST: async ({ ctx, params, body }) => {
    const opened = await openActiveRequest(ctx, params.token ?? '');
    const folder = await createFolder(ctx, opened.actor, validate(CreateFolderInput, body));
    await recordRequestItem(ctx, opened, folder);
    return json({ data: scopedItemData(folder, opened.request.token, opened.folder.id, 'request') }, 201);
  },
});
