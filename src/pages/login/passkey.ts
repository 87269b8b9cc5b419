import { z } from 'zod';
import { setSignedInCookies } from '../../server/auth/cookies.ts';
import { signInWithPasskey } from '../../server/auth/passkey-sign-in.ts';
import { PasskeyAssertionInput } from '../../server/auth/passkey-schemas.ts';
import { publicRoute } from '../../server/http/endpoint.ts';
import { safeRedirectPath } from '../../server/http/redirects.ts';
import { validate } from '../../server/http/validate.ts';
import { userResource } from '../../server/users/resource.ts';

const PasskeySignInInput = PasskeyAssertionInput.extend({ remember: z.boolean({ error: 'The remember field must be true or false.' }).optional().default(false) });

/**
 * Sign-in with a passkey alone: answers like /login's signed-in outcome (the session and device
 * cookies, the user resource, `meta.redirect`). The sign-in page calls it with fetch and then
 * goes to the redirect.
 */
export const ALL = publicRoute({
  POST: async ({ ctx, body, astro }) => {
    const input = validate(PasskeySignInInput, body);
    const signedIn = await signInWithPasskey(ctx, input.credential, input.remember);
    setSignedInCookies(ctx, astro.cookies, signedIn);
    return { ...(await userResource(ctx, signedIn.user)), meta: { redirect: safeRedirectPath(body.redirect) } };
  },
});
