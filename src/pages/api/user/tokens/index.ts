import { createAccessToken, listAccessTokens } from '../../../../server/auth/access-tokens.ts';
import { AccessTokenInput } from '../../../../server/auth/schemas.ts';
import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { json, route } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';

export const ALL = route({
  GET: async ({ ctx, user }) => ({ data: await listAccessTokens(ctx, user.id) }),
  POST: async ({ ctx, user, body, astro }) => {
    requireSessionAuth(astro.locals, 'Creating an access token');
    const { token, accessToken } = await createAccessToken(ctx, user.id, validate(AccessTokenInput, body).name);
    return json({ data: accessToken, meta: { token } }, 201);
  },
});
