import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { confirmSetup } from '../../../../server/auth/two-factor/manage.ts';
import { route } from '../../../../server/http/endpoint.ts';

/** The first code from the app turns two-factor authentication on and answers the recovery codes, once. */
export const ALL = route({
  POST: ({ ctx, user, body, astro }) => {
    requireSessionAuth(astro.locals, 'Setting up two-factor authentication');
    return confirmSetup(ctx, user, body);
  },
});
