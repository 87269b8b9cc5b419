import { listSubscriptionsForAdmin } from '../../../server/billing/subscription-list.ts';
import { route } from '../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, query }) => listSubscriptionsForAdmin(ctx, user, query),
});
