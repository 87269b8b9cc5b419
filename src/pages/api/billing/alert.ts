import { setBillingAlert } from '../../../server/billing/metered.ts';
import { route } from '../../../server/http/endpoint.ts';

export const ALL = route({
  PATCH: ({ ctx, user, body }) => setBillingAlert(ctx, user, body),
});
