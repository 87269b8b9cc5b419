import { runFsck } from '../../../../../server/admin/settings/server.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  POST: ({ ctx, user }) => runFsck(ctx, user),
});
