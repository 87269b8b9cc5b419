import { deviceCookie, setChallengeCookie, setSignedInCookies } from '../server/auth/cookies.ts';
import { LoginInput } from '../server/auth/schemas.ts';
import { login } from '../server/auth/service.ts';
import { publicRoute } from '../server/http/endpoint.ts';
import { wantsJson } from '../server/http/forms.ts';
import { safeRedirectPath } from '../server/http/redirects.ts';
import { validate } from '../server/http/validate.ts';
import { userResource } from '../server/users/resource.ts';

/**
 * The password step. An account with two-factor authentication answers with a challenge instead of
 * a session: JSON clients get it in `meta.second_step` (and send it back as `challenge`), the HTML
 * form keeps it in a cookie and goes on to /sign-in/two-factor.
 */
export const ALL = publicRoute(
  {
    POST: async ({ ctx, body, ip, astro }) => {
      const outcome = await login(ctx, validate(LoginInput, body), ip, deviceCookie(astro.cookies));
      const redirect = safeRedirectPath(body.redirect);
      if (outcome.kind === 'second-step') {
        if (!wantsJson(astro.request)) {
          setChallengeCookie(ctx, astro.cookies, outcome.challenge);
          const target = safeRedirectPath(body.redirect, '');
          return astro.redirect(target ? `/sign-in/two-factor?redirect=${encodeURIComponent(target)}` : '/sign-in/two-factor', 303);
        }
        return { data: null, meta: { redirect, second_step: { challenge: outcome.challenge, factors: outcome.factors, expires_at: outcome.expires.toISOString() } } };
      }
      setSignedInCookies(ctx, astro.cookies, outcome);
      if (!wantsJson(astro.request)) return astro.redirect(redirect, 303);
      return { ...(await userResource(ctx, outcome.user)), meta: { redirect } };
    },
  },
  {
    formErrorRedirect: ({ body }) => {
      const target = typeof body.redirect === 'string' ? safeRedirectPath(body.redirect, '') : '';
      return target ? `/sign-in?redirect=${encodeURIComponent(target)}` : '/sign-in';
    },
  },
);
