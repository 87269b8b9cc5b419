import { publicRoute } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { AuthenticateInput } from '../../../../server/sharing/schemas.ts';
import { authenticateShare, shareCookieName } from '../../../../server/sharing/service.ts';

/** Unlocks a protected link for this browser (an HttpOnly cookie); attempts are rate-limited. */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, params, body, ip }) => {
    const { password } = validate(AuthenticateInput, body);
    const { opened, secret, expires } = await authenticateShare(ctx, params.token ?? '', password, ip);
    if (secret && expires) {
      astro.cookies.set(shareCookieName(opened.share), secret, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies, expires });
    }
    return { data: { id: opened.share.token, type: 'shares', attributes: { token: opened.share.token, protected: opened.share.password_hash !== null, authenticated: true, type: opened.share.type } } };
  },
});
