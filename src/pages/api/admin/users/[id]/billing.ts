import { adminUserBilling } from '../../../../../server/billing/admin-user-billing.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params }) => adminUserBilling(ctx, user, params.id),
});
