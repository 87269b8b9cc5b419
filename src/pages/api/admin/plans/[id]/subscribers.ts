import { listPlanSubscribers } from '../../../../../server/billing/subscription-list.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params, query }) => listPlanSubscribers(ctx, user, params.id, query),
});
