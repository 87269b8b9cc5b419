import { clearSessionCookie } from '../server/auth/cookies.ts';
import { invalidateSession } from '../server/auth/sessions.ts';
import { publicRoute } from '../server/http/endpoint.ts';
import { wantsJson } from '../server/http/forms.ts';

/** Ends this browser's session; signed-out callers get the same answer. */
export const ALL = publicRoute({
  POST: async ({ ctx, astro }) => {
    if (astro.locals.session) await invalidateSession(ctx, astro.locals.session.id);
    clearSessionCookie(ctx, astro.cookies);
    if (!wantsJson(astro.request)) return astro.redirect('/', 303);
    return undefined;
  },
});
