import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { clientIp } from '../http/ip.ts';
import { findUserByEmail } from '../users/queries.ts';
import { userForAccessToken } from '../auth/access-tokens.ts';
import { verifyAgainstDummy, verifyPassword } from '../auth/passwords.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import { signInFailed, signInSucceeded, takeSignInAttempt } from '../auth/sign-in-throttle.ts';

export const DAV_REALM = 'Cloud Drive';

const challenge = (message: string) => new AppError(401, message, { code: 'unauthenticated', headers: { 'WWW-Authenticate': `Basic realm="${DAV_REALM}", charset="UTF-8"` } });

/** The email and secret of an `Authorization: Basic` header, or null. */
export function basicCredentials(header: string | undefined): { email: string; secret: string } | null {
  const encoded = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i)?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || decoded.length > 1024) return null;
  return { email: decoded.slice(0, colon).trim(), secret: decoded.slice(colon + 1) };
}

/**
 * Who a WebDAV request acts as: HTTP Basic with the account's email and an app password (a
 * personal access token, auth/access-tokens.ts), or the account password itself when the account
 * has no second factor. Password attempts go through the sign-in throttles (429 with Retry-After);
 * a token is 160 random bits, so its attempts are not counted. Anything else: 401 with the Basic
 * challenge. No cookie is read. A browser that cached Basic credentials for this origin could
 * send them cross-site, but POST is not served here and every other write method (PUT, DELETE,
 * MKCOL, MOVE, COPY) needs a CORS preflight, which is never granted (no Access-Control headers).
 */
export async function davPrincipal(ctx: AppContext, req: IncomingMessage): Promise<UserPrincipal> {
  const credentials = basicCredentials(req.headers.authorization);
  if (!credentials) throw challenge('Sign in with your email and an app password (Settings → Access tokens).');
  const { email, secret } = credentials;
  if (secret.startsWith('cd_')) {
    const user = await userForAccessToken(ctx, secret);
    if (!user || user.email.toLowerCase() !== email.toLowerCase()) throw challenge('The email or app password is wrong, or the app password was revoked.');
    return { kind: 'user', user, permissions: { read: true, write: true }, method: 'token', session: null };
  }
  const headers = new Headers();
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') headers.set('x-forwarded-for', forwarded);
  const ip = clientIp(headers, req.socket.remoteAddress ?? 'unknown', ctx.config.trustProxy);
  const attempt = await takeSignInAttempt(ctx, email, ip, null);
  const user = await findUserByEmail(ctx, email);
  const ok = user ? await verifyPassword(user.password_hash, secret) : await verifyAgainstDummy(secret);
  if (!user || !ok || user.deletion_started_at) {
    await signInFailed(ctx, attempt, user);
    throw challenge('The email or password is wrong.');
  }
  await signInSucceeded(ctx, attempt);
  if (user.two_factor_enabled_at) throw challenge('This account has two-factor authentication on: use an app password (Settings → Access tokens), not the account password.');
  return { kind: 'user', user, permissions: { read: true, write: true }, method: 'token', session: null };
}
