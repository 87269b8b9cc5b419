import { getSignInSettings, putSignInSettings } from '../../../../server/admin/settings/sign-in.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getSignInSettings(ctx, user),
  PUT: ({ ctx, user, body }) => putSignInSettings(ctx, user, body),
});
