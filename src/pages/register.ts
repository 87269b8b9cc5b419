import { RegisterInput } from '../server/auth/schemas.ts';
import { register, SIGN_UP_ANSWER } from '../server/auth/service.ts';
import { json, publicRoute } from '../server/http/endpoint.ts';
import { setFlash, wantsJson } from '../server/http/forms.ts';
import { validate } from '../server/http/validate.ts';

/** Answers a new address and one with an account alike (202, no session): see `register`. */
export const ALL = publicRoute(
  {
    POST: async ({ ctx, body, ip, astro }) => {
      await register(ctx, validate(RegisterInput, body), ip);
      if (!wantsJson(astro.request)) {
        setFlash(astro, { notice: SIGN_UP_ANSWER });
        return astro.redirect('/sign-in', 303);
      }
      return json({ message: SIGN_UP_ANSWER }, 202);
    },
  },
  { formErrorRedirect: () => '/sign-up' },
);
