import { challengeToken, setSignedInCookies } from '../../../server/auth/cookies.ts';
import { passSecondStepWithPasskey } from '../../../server/auth/passkey-sign-in.ts';
import { PasskeyAssertionInput } from '../../../server/auth/passkey-schemas.ts';
import { publicRoute } from '../../../server/http/endpoint.ts';
import { safeRedirectPath } from '../../../server/http/redirects.ts';
import { validate } from '../../../server/http/validate.ts';
import { userResource } from '../../../server/users/resource.ts';

/** The second step answered with a passkey; a signed-in answer like /login's. */
export const ALL = publicRoute({
  POST: async ({ ctx, body, astro }) => {
    const { credential } = validate(PasskeyAssertionInput, body);
    const signedIn = await passSecondStepWithPasskey(ctx, challengeToken(astro.cookies, body), credential);
    setSignedInCookies(ctx, astro.cookies, signedIn);
    return { ...(await userResource(ctx, signedIn.user)), meta: { redirect: safeRedirectPath(body.redirect) } };
  },
});
