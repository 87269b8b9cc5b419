import { ResetPasswordInput } from '../server/auth/schemas.ts';
import { resetPassword } from '../server/auth/service.ts';
import { publicRoute } from '../server/http/endpoint.ts';
import { setFlash, wantsJson } from '../server/http/forms.ts';
import { validate } from '../server/http/validate.ts';

const DONE = 'Your password was changed. Sign in with the new one.';

export const ALL = publicRoute(
  {
    POST: async ({ ctx, body, ip, astro }) => {
      await resetPassword(ctx, validate(ResetPasswordInput, body), ip);
      if (!wantsJson(astro.request)) {
        setFlash(astro, { notice: DONE });
        return astro.redirect('/sign-in', 303);
      }
      return { message: DONE };
    },
  },
  {
    formErrorRedirect: ({ body }) => {
      const token = typeof body.token === 'string' ? body.token.slice(0, 200) : '';
      const email = typeof body.email === 'string' ? body.email.slice(0, 255) : '';
      return `/create-new-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;
    },
  },
);
