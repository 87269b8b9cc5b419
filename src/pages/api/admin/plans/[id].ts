import { deletePlan, getPlanForAdmin, updatePlan } from '../../../../server/billing/plans.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params }) => getPlanForAdmin(ctx, user, params.id),
  PATCH: ({ ctx, user, params, body }) => updatePlan(ctx, user, params.id, body),
  DELETE: ({ ctx, user, params }) => deletePlan(ctx, user, params.id),
});
