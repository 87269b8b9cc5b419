import { startOidcSignIn } from '../../../../server/auth/oidc/flow.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { wantsJson } from '../../../../server/http/forms.ts';

/**
 * Starts a sign-in through an OpenID Connect issuer: `{ url }` for the SPA (as SPEC §7's social
 * redirect answers), or the redirect itself for a plain link on the sign-in page.
 */
export const ALL = publicRoute(
  {
    GET: async ({ ctx, astro, params, query }) => {
      const url = await startOidcSignIn(ctx, astro.cookies, params.issuer, query.get('redirect'), query.get('remember'));
      return wantsJson(astro.request) ? { url } : astro.redirect(url, 302);
    },
  },
  { formErrorRedirect: () => '/sign-in' },
);
