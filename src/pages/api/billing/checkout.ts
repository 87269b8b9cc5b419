import { startCheckout } from '../../../server/billing/checkout.ts';
import { route } from '../../../server/http/endpoint.ts';

export const ALL = route({
  POST: ({ ctx, user, body }) => startCheckout(ctx, user, body),
});
