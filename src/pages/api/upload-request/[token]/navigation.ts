import { requestContext, withTreeAbilities } from '../../../../server/files/abilities.ts';
import { navigationTree } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { openUploadRequest } from '../../../../server/upload-requests/service.ts';

/** The request folder's tree; each folder with `abilities`; empty once the request is filled or expired. */
export const ALL = publicRoute({
  GET: async ({ ctx, params }) => {
    const opened = await openUploadRequest(ctx, params.token ?? '');
    if (opened.status !== 'active') return { data: [] };
    const tree = await withTreeAbilities(ctx.db, opened.actor, requestContext(opened.owner), await navigationTree(ctx, opened.actor));
    return { data: tree.map((node) => ({ ...node, parent_id: null })) };
  },
});
