import { resetUserTwoFactor } from '../../../../../server/admin/users/two-factor.ts';
import { route } from '../../../../../server/http/endpoint.ts';

/** An admin turns a user's two-factor authentication off (they lost their authenticator and recovery codes). */
export const ALL = route({
  DELETE: ({ ctx, user, params }) => resetUserTwoFactor(ctx, user, params.id),
});
