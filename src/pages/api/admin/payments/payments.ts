import { getPaymentSettings, putPaymentSettings } from '../../../../server/billing/payment-settings.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getPaymentSettings(ctx, user),
  PUT: ({ ctx, user, body }) => putPaymentSettings(ctx, user, body),
});
