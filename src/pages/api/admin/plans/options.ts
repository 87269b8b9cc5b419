import { planFormOptions } from '../../../../server/billing/plans.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ user, astro }) => planFormOptions(user, astro.locals.locale),
});
