import { publicRoute } from '../../../../server/http/endpoint.ts';
import { uploadRequestData } from '../../../../server/upload-requests/presenter.ts';
import { closeUploadRequest, openUploadRequest } from '../../../../server/upload-requests/service.ts';

/** GET: the request as its holder sees it. DELETE: close it (filled); answers the updated request. */
export const ALL = publicRoute({
  GET: async ({ ctx, params }) => {
    const { request, folder, owner } = await openUploadRequest(ctx, params.token ?? '');
    return { data: uploadRequestData(ctx, request, folder, 'holder', owner.name) };
  },
  DELETE: async ({ ctx, params }) => {
    const { request, folder, owner } = await closeUploadRequest(ctx, params.token ?? '');
    return { data: uploadRequestData(ctx, request, folder, 'holder', owner.name) };
  },
});
