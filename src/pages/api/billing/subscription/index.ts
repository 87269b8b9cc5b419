import { cancelSubscription, changePlan, checkoutSubscription, subscriptionState } from '../../../../server/billing/subscriptions.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => subscriptionState(ctx, user),
  POST: ({ ctx, user, body }) => checkoutSubscription(ctx, user, body),
  PATCH: ({ ctx, user, body }) => changePlan(ctx, user, body),
  DELETE: ({ ctx, user }) => cancelSubscription(ctx, user),
});
