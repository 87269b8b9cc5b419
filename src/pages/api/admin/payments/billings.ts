import { getBillingDetails, putBillingDetails } from '../../../../server/billing/payment-settings.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getBillingDetails(ctx, user),
  PUT: ({ ctx, user, body }) => putBillingDetails(ctx, user, body),
});
