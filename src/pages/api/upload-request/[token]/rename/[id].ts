import { RenameInput } from '../../../../../server/files/schemas.ts';
import { renameItem } from '../../../../../server/files/service.ts';
import { publicRoute } from '../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../server/http/validate.ts';
import { scopedItemData } from '../../../../../server/sharing/presenter.ts';
import { openActiveRequest } from '../../../../../server/upload-requests/service.ts';

/** The uploader renames what they uploaded; POST with `_method=patch`. */
export const ALL = publicRoute({
  PATCH: async ({ ctx, params, body }) => {
    const opened = await openActiveRequest(ctx, params.token ?? '');
    return { data: scopedItemData(await renameItem(ctx, opened.actor, params.id ?? '', validate(RenameInput, body)), opened.request.token, opened.folder.id, 'request') };
  },
});
