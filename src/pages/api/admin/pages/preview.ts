import { previewPage } from '../../../../server/admin/pages.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  POST: ({ ctx, user, body }) => previewPage(ctx, user, body),
});
