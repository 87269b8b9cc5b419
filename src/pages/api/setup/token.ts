import { publicRoute } from '../../../server/http/endpoint.ts';
import { notFound } from '../../../server/http/errors.ts';
import { validate } from '../../../server/http/validate.ts';
import { checkToken, setupTokenCookie } from '../../../server/setup/access.ts';
import { SetupTokenInput } from '../../../server/setup/schemas.ts';
import { installationState } from '../../../server/setup/state.ts';
import { SETUP_TOKEN_COOKIE } from '../../../server/setup/token.ts';

/** Exchanges the setup token from the server log for an HttpOnly cookie the wizard's calls carry. */
export const ALL = publicRoute({
  POST: async ({ ctx, body, ip, astro }) => {
    if ((await installationState(ctx)) === 'installation-done') throw notFound();
    const { token } = validate(SetupTokenInput, body);
    await checkToken(ctx, token, ip);
    astro.cookies.set(SETUP_TOKEN_COOKIE, token, setupTokenCookie(ctx.config.secureCookies));
    return { message: 'Setup token accepted.' };
  },
});
