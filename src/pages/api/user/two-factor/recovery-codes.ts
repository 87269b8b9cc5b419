import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { regenerateRecoveryCodes } from '../../../../server/auth/two-factor/manage.ts';
import { route } from '../../../../server/http/endpoint.ts';

/** Ten new recovery codes (the old ones stop working), with the password or a current code. */
export const ALL = route({
  POST: ({ ctx, user, body, astro }) => {
    requireSessionAuth(astro.locals, 'Making new recovery codes');
    return regenerateRecoveryCodes(ctx, user, body);
  },
});
