import { challengeToken, setSignedInCookies } from '../../server/auth/cookies.ts';
import { challengeFactors } from '../../server/auth/second-step.ts';
import { answerWithCode } from '../../server/auth/two-factor/sign-in.ts';
import { publicRoute } from '../../server/http/endpoint.ts';
import { wantsJson } from '../../server/http/forms.ts';
import { safeRedirectPath } from '../../server/http/redirects.ts';
import { userResource } from '../../server/users/resource.ts';

/**
 * The second step with a code: `code` (from the app) or `recovery_code`, for the challenge that
 * /login answered (JSON: `challenge` in the body; the HTML form: its cookie). Answers like /login
 * once signed in. GET says which factors the challenge takes (the page offers a passkey only when
 * the account has one), without counting a try.
 */
export const ALL = publicRoute(
  {
    GET: async ({ ctx, astro }) => ({ data: await challengeFactors(ctx, challengeToken(astro.cookies, {})) }),
    POST: async ({ ctx, body, astro }) => {
      const signedIn = await answerWithCode(ctx, challengeToken(astro.cookies, body), body);
      setSignedInCookies(ctx, astro.cookies, signedIn);
      const redirect = safeRedirectPath(body.redirect);
      if (!wantsJson(astro.request)) return astro.redirect(redirect, 303);
      return { ...(await userResource(ctx, signedIn.user)), meta: { redirect } };
    },
  },
  {
    formErrorRedirect: ({ body }) => {
      const params = new URLSearchParams();
      const target = typeof body.redirect === 'string' ? safeRedirectPath(body.redirect, '') : '';
      if (target) params.set('redirect', target);
      if (typeof body.recovery_code === 'string') params.set('recovery', '1');
      const query = params.toString();
      return query ? `/sign-in/two-factor?${query}` : '/sign-in/two-factor';
    },
  },
);
