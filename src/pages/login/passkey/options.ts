import { signInOptions } from '../../../server/auth/passkey-sign-in.ts';
import { publicRoute } from '../../../server/http/endpoint.ts';

/** The options for `startAuthentication()` when signing in with a passkey alone (POST /login/passkey answers them). */
export const ALL = publicRoute({
  POST: async ({ ctx, ip }) => ({ data: await signInOptions(ctx, ip) }),
});
