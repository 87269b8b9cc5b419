import { listAudit } from '../../../server/admin/audit.ts';
import { route } from '../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, query }) => listAudit(ctx, user, query),
});
