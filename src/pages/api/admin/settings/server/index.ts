import { getServerReport } from '../../../../../server/admin/settings/server.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getServerReport(ctx, user),
});
