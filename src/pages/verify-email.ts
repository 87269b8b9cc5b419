import { verifyEmail } from '../server/auth/service.ts';
import { publicRoute } from '../server/http/endpoint.ts';
import { isAppError } from '../server/http/errors.ts';
import { setFlash } from '../server/http/forms.ts';

/** The link in the verification mail lands here, then on /successfully-verified. */
export const ALL = publicRoute({
  GET: async ({ ctx, query, astro }) => {
    try {
      await verifyEmail(ctx, query.get('token') ?? '');
      return astro.redirect('/successfully-verified', 303);
    } catch (error) {
      if (!isAppError(error)) throw error;
      setFlash(astro, { message: error.message });
      return astro.redirect('/sign-in', 303);
    }
  },
});
