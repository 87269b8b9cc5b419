import { navigationTree } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { openUploadRequest } from '../../../../server/upload-requests/service.ts';

/** The request folder's tree; empty once the request is filled or expired. */
export const ALL = publicRoute({
  GET: async ({ ctx, params }) => {
    const opened = await openUploadRequest(ctx, params.token ?? '');
    if (opened.status !== 'active') return { data: [] };
    return { data: (await navigationTree(ctx, opened.actor)).map((node) => ({ ...node, parent_id: null })) };
  },
});
