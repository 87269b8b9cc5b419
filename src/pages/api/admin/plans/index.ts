import { createPlan, listPlansForAdmin } from '../../../../server/billing/plans.ts';
import { json, route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, query }) => listPlansForAdmin(ctx, user, query),
  POST: async ({ ctx, user, body }) => json(await createPlan(ctx, user, body), 201),
});
