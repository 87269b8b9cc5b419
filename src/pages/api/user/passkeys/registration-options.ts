import { registrationOptions } from '../../../../server/auth/passkeys.ts';
import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { route } from '../../../../server/http/endpoint.ts';

/** The options for `startRegistration()`; their challenge answers one registration by this account. */
export const ALL = route({
  POST: async ({ ctx, user, astro }) => {
    requireSessionAuth(astro.locals, 'Adding a passkey');
    return { data: await registrationOptions(ctx, user) };
  },
});
