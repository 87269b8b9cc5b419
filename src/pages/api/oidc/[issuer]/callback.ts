import { setChallengeCookie, setSignedInCookies } from '../../../../server/auth/cookies.ts';
import { finishOidcSignIn } from '../../../../server/auth/oidc/flow.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { isAppError } from '../../../../server/http/errors.ts';
import { setFlash } from '../../../../server/http/forms.ts';

/**
 * Where the identity provider sends the browser back. It always answers with a redirect: into the
 * app, to the second step, or to the sign-in page with the reason in its flash message.
 */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, params, ip }) => {
    try {
      const { outcome, redirect } = await finishOidcSignIn(ctx, astro.cookies, params.issuer, astro.url.search, ip);
      if (outcome.kind === 'second-step') {
        setChallengeCookie(ctx, astro.cookies, outcome.challenge);
        return astro.redirect(`/sign-in/two-factor?redirect=${encodeURIComponent(redirect)}`, 303);
      }
      setSignedInCookies(ctx, astro.cookies, outcome);
      return astro.redirect(redirect, 303);
    } catch (error) {
      if (!isAppError(error)) ctx.logger.error({ err: error }, 'OpenID Connect callback failed');
      setFlash(astro, { message: isAppError(error) ? error.message : 'The sign-in could not be completed. Try again.' });
      return astro.redirect('/sign-in', 303);
    }
  },
});
