import { getDashboard } from '../../../server/admin/dashboard.ts';
import { route } from '../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getDashboard(ctx, user),
});
