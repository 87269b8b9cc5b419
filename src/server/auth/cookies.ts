import type { AstroCookies } from 'astro';
import type { AppContext } from '../context.ts';
import { DEVICE_COOKIE } from './devices.ts';
import { CHALLENGE_COOKIE, CHALLENGE_LIFETIME_MS, type SignedIn } from './second-step.ts';
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

/** A finished sign-in: the session cookie, a fresh device cookie, and no half-done challenge left. */
export function setSignedInCookies(ctx: AppContext, cookies: AstroCookies, signedIn: SignedIn): void {
  setSessionCookie(ctx, cookies, signedIn.token, signedIn.session);
  setDeviceCookie(ctx, cookies, signedIn.device);
  clearChallengeCookie(ctx, cookies);
}

/** The HTML sign-in form's second step carries its challenge here; like the device cookie, only /login reads it. */
export function setChallengeCookie(ctx: AppContext, cookies: AstroCookies, token: string): void {
  cookies.set(CHALLENGE_COOKIE, token, { path: '/login', httpOnly: true, sameSite: 'strict', secure: ctx.config.secureCookies, maxAge: CHALLENGE_LIFETIME_MS / 1000 });
}

export function clearChallengeCookie(ctx: AppContext, cookies: AstroCookies): void {
  if (cookies.has(CHALLENGE_COOKIE)) cookies.delete(CHALLENGE_COOKIE, { path: '/login', httpOnly: true, sameSite: 'strict', secure: ctx.config.secureCookies });
}

/** The challenge token of a second-step request: the JSON body's `challenge`, else the form's cookie. */
export function challengeToken(cookies: AstroCookies, body: Record<string, unknown>): string | undefined {
  return typeof body.challenge === 'string' ? body.challenge : cookies.get(CHALLENGE_COOKIE)?.value;
}
