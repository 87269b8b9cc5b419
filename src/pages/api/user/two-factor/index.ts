import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { disableTwoFactor, twoFactorStatus } from '../../../../server/auth/two-factor/manage.ts';
import { route } from '../../../../server/http/endpoint.ts';

/** The signed-in user's two-factor authentication: its state, and off (setup, confirm and recovery-codes sit beside). */
export const ALL = route({
  GET: ({ ctx, user }) => twoFactorStatus(ctx, user),
  DELETE: async ({ ctx, user, body, astro }) => {
    requireSessionAuth(astro.locals, 'Turning two-factor authentication off');
    await disableTwoFactor(ctx, user, body);
  },
});
