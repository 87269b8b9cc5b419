import { resumeSubscription } from '../../../../server/billing/subscriptions.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  POST: ({ ctx, user }) => resumeSubscription(ctx, user),
});
