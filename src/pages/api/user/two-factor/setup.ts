import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { startSetup } from '../../../../server/auth/two-factor/manage.ts';
import { route } from '../../../../server/http/endpoint.ts';

/** A new pending key: `{ data: { key, uri } }`, shown once. */
export const ALL = route({
  POST: ({ ctx, user, astro }) => {
    requireSessionAuth(astro.locals, 'Setting up two-factor authentication');
    return startSetup(ctx, user);
  },
});
