import { RegisterInput } from '../server/auth/schemas.ts';
import { register, SIGN_UP_ANSWER } from '../server/auth/service.ts';
import { json, publicRoute } from '../server/http/endpoint.ts';
import { setFlash, wantsJson } from '../server/http/forms.ts';
import { safeRedirectPath } from '../server/http/redirects.ts';
import { validate } from '../server/http/validate.ts';

/** Where the sign-up form was asked to lead afterwards (a same-origin path only), or ''. */
const returnTo = (body: Record<string, unknown>) => (typeof body.redirect === 'string' ? safeRedirectPath(body.redirect, '') : '');

/** Answers a new address and one with an account alike (202, no session): see `register`. */
export const ALL = publicRoute(
  {
    POST: async ({ ctx, body, ip, astro }) => {
      const input = validate(RegisterInput, body);
      await register(ctx, input, ip);
      if (!wantsJson(astro.request)) {
        setFlash(astro, { notice: SIGN_UP_ANSWER });
        // From a team invitation: sign-in carries on to it, the address already filled in.
        const target = returnTo(body);
        return astro.redirect(target ? `/sign-in?${new URLSearchParams({ redirect: target, email: input.email })}` : '/sign-in', 303);
      }
      return json({ message: SIGN_UP_ANSWER }, 202);
    },
  },
  {
    formErrorRedirect: ({ body }) => {
      const target = returnTo(body);
      return target ? `/sign-up?${new URLSearchParams({ redirect: target })}` : '/sign-up';
    },
  },
);
