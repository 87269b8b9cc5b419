import type { APIContext } from 'astro';
import { forbidden, notFound, unauthenticated } from '../http/errors.ts';
import { hit } from '../auth/rate-limit.ts';
import type { AppContext } from '../context.ts';
import { installationState } from './state.ts';
import { isValidSetupToken, SETUP_TOKEN_COOKIE, SETUP_TOKEN_HEADER } from './token.ts';

const TOKEN_ATTEMPTS = { max: 10, windowMs: 15 * 60_000 };

/** Every wizard call: 404 once installed (for ever), else the setup token from the header or the cookie. */
export async function requireSetupAccess(astro: APIContext, ip: string): Promise<void> {
  const ctx = astro.locals.ctx;
  if ((await installationState(ctx)) === 'installation-done') throw notFound();
  const candidate = astro.request.headers.get(SETUP_TOKEN_HEADER) ?? astro.cookies.get(SETUP_TOKEN_COOKIE)?.value;
  if (!candidate) throw unauthenticated('The setup token is required: it is printed in the server log at start.');
  await checkToken(ctx, candidate, ip);
}

/** Checks a typed-in token, counting wrong guesses per address. */
export async function checkToken(ctx: AppContext, candidate: string, ip: string): Promise<void> {
  if (await isValidSetupToken(ctx.config.dataDir, candidate)) return;
  await hit(ctx, `setup-token:ip:${ip}`, TOKEN_ATTEMPTS);
  throw forbidden('The setup token is not valid. Copy it from the server log.');
}

export const setupTokenCookie = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'strict' as const, secure, maxAge: 24 * 60 * 60 });

