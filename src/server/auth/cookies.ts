import type { AstroCookies } from 'astro';
import type { AppContext } from '../context.ts';
import { SESSION_COOKIE, sessionCookieOptions, type Session } from './sessions.ts';

export function setSessionCookie(ctx: AppContext, cookies: AstroCookies, token: string, session: Session): void {
  cookies.set(SESSION_COOKIE, token, sessionCookieOptions(session, ctx.config.secureCookies, ctx.clock.now()));
}

export function clearSessionCookie(ctx: AppContext, cookies: AstroCookies): void {
  cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });
}
