import { setSessionCookie } from '../../../server/auth/cookies.ts';
import { json, publicRoute } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';
import { requireSetupAccess } from '../../../server/setup/access.ts';
import { AdminSetupInput } from '../../../server/setup/schemas.ts';
import { finishInstallation } from '../../../server/setup/service.ts';
import { SETUP_TOKEN_COOKIE } from '../../../server/setup/token.ts';
import { presentUser } from '../../../server/users/presenter.ts';

/** The last step: creates the admin, finishes the installation and signs the admin in. */
export const ALL = publicRoute({
  POST: async ({ ctx, body, astro, ip }) => {
    await requireSetupAccess(astro, ip);
    const { user, token, session } = await finishInstallation(ctx, validate(AdminSetupInput, body));
    setSessionCookie(ctx, astro.cookies, token, session);
    astro.cookies.delete(SETUP_TOKEN_COOKIE, { path: '/' });
    return json({ ...presentUser(user), meta: { redirect: '/admin/dashboard' } }, 201);
  },
});
