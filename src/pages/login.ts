import { deviceCookie, setDeviceCookie, setSessionCookie } from '../server/auth/cookies.ts';
import { LoginInput } from '../server/auth/schemas.ts';
import { login } from '../server/auth/service.ts';
import { publicRoute } from '../server/http/endpoint.ts';
import { wantsJson } from '../server/http/forms.ts';
import { safeRedirectPath } from '../server/http/redirects.ts';
import { validate } from '../server/http/validate.ts';
import { userResource } from '../server/users/resource.ts';

export const ALL = publicRoute(
  {
    POST: async ({ ctx, body, ip, astro }) => {
      const { user, token, session, device } = await login(ctx, validate(LoginInput, body), ip, deviceCookie(astro.cookies));
      setSessionCookie(ctx, astro.cookies, token, session);
      setDeviceCookie(ctx, astro.cookies, device);
      const redirect = safeRedirectPath(body.redirect);
      if (!wantsJson(astro.request)) return astro.redirect(redirect, 303);
      return { ...(await userResource(ctx, user)), meta: { redirect } };
    },
  },
  {
    formErrorRedirect: ({ body }) => {
      const target = typeof body.redirect === 'string' ? safeRedirectPath(body.redirect, '') : '';
      return target ? `/sign-in?redirect=${encodeURIComponent(target)}` : '/sign-in';
    },
  },
);
