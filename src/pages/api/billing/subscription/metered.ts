import { subscribeMetered } from '../../../../server/billing/metered.ts';
import { json, route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  POST: async ({ ctx, user, body }) => json(await subscribeMetered(ctx, user, body), 201),
});
