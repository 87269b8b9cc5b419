import { listPublicPlans } from '../../../server/billing/plans.ts';
import { publicRoute } from '../../../server/http/endpoint.ts';

export const ALL = publicRoute({
  GET: ({ ctx }) => listPublicPlans(ctx),
});
