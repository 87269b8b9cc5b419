import { setSessionCookie } from '../server/auth/cookies.ts';
import { RegisterInput } from '../server/auth/schemas.ts';
import { register } from '../server/auth/service.ts';
import { json, publicRoute } from '../server/http/endpoint.ts';
import { wantsJson } from '../server/http/forms.ts';
import { validate } from '../server/http/validate.ts';
import { presentUser } from '../server/users/presenter.ts';

export const ALL = publicRoute(
  {
    POST: async ({ ctx, body, ip, astro }) => {
      const { user, token, session } = await register(ctx, validate(RegisterInput, body), ip);
      setSessionCookie(ctx, astro.cookies, token, session);
      if (!wantsJson(astro.request)) return astro.redirect('/platform/files', 303);
      return json(presentUser(user), 201);
    },
  },
  { formErrorRedirect: () => '/sign-up' },
);
