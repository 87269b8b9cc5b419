import type { AstroCookies } from 'astro';
import type { AppContext } from '../context.ts';
import { DEVICE_COOKIE } from './devices.ts';
import { SESSION_COOKIE, sessionCookieOptions, type Session } from './sessions.ts';

export function setSessionCookie(ctx: AppContext, cookies: AstroCookies, token: string, session: Session): void {
  cookies.set(SESSION_COOKIE, token, sessionCookieOptions(session, ctx.config.secureCookies, ctx.clock.now()));
}

export function clearSessionCookie(ctx: AppContext, cookies: AstroCookies): void {
  cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });
}

/** Only the sign-in endpoints read it, so its path keeps it off every other request. */
export function setDeviceCookie(ctx: AppContext, cookies: AstroCookies, device: { token: string; expires: Date }): void {
  cookies.set(DEVICE_COOKIE, device.token, { path: '/login', httpOnly: true, sameSite: 'strict', secure: ctx.config.secureCookies, expires: device.expires });
}

export function deviceCookie(cookies: AstroCookies): string | undefined {
  return cookies.get(DEVICE_COOKIE)?.value;
}
