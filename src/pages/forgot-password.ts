import { ForgotPasswordInput } from '../server/auth/schemas.ts';
import { requestPasswordReset } from '../server/auth/service.ts';
import { publicRoute } from '../server/http/endpoint.ts';
import { setFlash, wantsJson } from '../server/http/forms.ts';
import { validate } from '../server/http/validate.ts';

const SENT = 'If that address has an account, a reset link is on its way.';

export const ALL = publicRoute(
  {
    POST: async ({ ctx, body, ip, astro }) => {
      await requestPasswordReset(ctx, validate(ForgotPasswordInput, body), ip);
      if (!wantsJson(astro.request)) {
        setFlash(astro, { notice: SENT });
        return astro.redirect('/forgotten-password', 303);
      }
      return { message: SENT };
    },
  },
  { formErrorRedirect: () => '/forgotten-password' },
);
