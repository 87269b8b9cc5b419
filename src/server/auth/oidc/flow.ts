import type { AstroCookies } from 'astro';
import * as oidc from 'openid-client';
import type { AppContext } from '../../context.ts';
import { AppError, isAppError, notFound, validationError } from '../../http/errors.ts';
import { safeRedirectPath } from '../../http/redirects.ts';
import { type ExternalIdentity, signInWithIdentity } from '../identities.ts';
import { hit } from '../rate-limit.ts';
import type { FirstStepOutcome } from '../second-step.ts';
import { callbackUrl, configurationFor } from './client.ts';
import { enabledIssuer, type IssuerRow, providerOf } from './issuers.ts';

/**
 * Sign-in through an OpenID Connect issuer: the authorization code flow with PKCE, state and
 * nonce. What the callback must check them against travels in a short-lived httpOnly cookie scoped
 * to that issuer's callback path, so no process keeps anything between the two requests.
 * openid-client checks the ID token (signature against the issuer's JWKS, issuer, audience,
 * expiry, nonce); the identity it names then goes through the linking rules of auth/identities.ts.
 */
const FLOW_COOKIE = 'oidc_flow';
const FLOW_LIFETIME_SECONDS = 10 * 60;
const DEFAULT_LANDING = '/platform/files';
/**
 * Callbacks per client IP: each one makes this server call the provider's token endpoint, so a
 * script replaying made-up codes is cut off before it turns us into its load generator.
 */
export const CALLBACKS_PER_IP = { max: 20, windowMs: 10 * 60_000 };

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  redirect: string;
  /** The sign-in form's "Keep me signed in", carried through the provider: a persistent session. */
  remember: boolean;
}

const unavailable = () => notFound('This sign-in provider is not available.');
const cookiePath = (issuerId: string) => `/api/oidc/${issuerId}/callback`;
const unreachable = (issuer: IssuerRow) => new AppError(502, `${issuer.label} could not be reached. Try again later.`);

/** The provider's authorization URL; the flow's secrets go into the cookie. */
export async function startOidcSignIn(ctx: AppContext, cookies: AstroCookies, issuerId: string | undefined, redirect: unknown, remember: string | null = null): Promise<string> {
  const issuer = await enabledIssuer(ctx, issuerId);
  if (!issuer) throw unavailable();
  if (remember !== null && remember !== '0' && remember !== '1') throw validationError({ remember: ['Remember is 1 or 0.'] });
  const config = await configurationFor(ctx, issuer).catch((error: unknown) => {
    ctx.logger.warn({ err: error, issuer: issuer.id }, 'OpenID Connect discovery failed');
    throw unreachable(issuer);
  });
  const flow: Flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), redirect: safeRedirectPath(redirect, DEFAULT_LANDING), remember: remember === '1' };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(ctx, issuer.id).href,
    scope: 'openid email profile',
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
  });
  // Lax, not strict: the provider sends the browser back with a top-level navigation from its site.
  cookies.set(FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
    path: cookiePath(issuer.id),
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.secureCookies,
    maxAge: FLOW_LIFETIME_SECONDS,
  });
  return url.href;
}

function readFlow(cookies: AstroCookies): Flow | null {
  const raw = cookies.get(FLOW_COOKIE)?.value;
  if (!raw) return null;
  try {
    const flow = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Flow>;
    if (typeof flow.state !== 'string' || typeof flow.nonce !== 'string' || typeof flow.verifier !== 'string') return null;
    return { state: flow.state, nonce: flow.nonce, verifier: flow.verifier, redirect: safeRedirectPath(flow.redirect, DEFAULT_LANDING), remember: flow.remember === true };
  } catch {
    return null;
  }
}

/**
 * The callback: the code is exchanged (once: the flow cookie goes whatever happens) and the ID
 * token checked, then its account signed in. Every refusal is an AppError with a message for the
 * sign-in page; the provider's own error details go to the log only.
 */
export async function finishOidcSignIn(
  ctx: AppContext,
  cookies: AstroCookies,
  issuerId: string | undefined,
  search: string,
  ip: string,
): Promise<{ outcome: FirstStepOutcome; redirect: string }> {
  const issuer = await enabledIssuer(ctx, issuerId);
  if (!issuer) throw unavailable();
  await hit(ctx, `oidc-callback:ip:${ip}`, CALLBACKS_PER_IP);
  const flow = readFlow(cookies);
  cookies.delete(FLOW_COOKIE, { path: cookiePath(issuer.id), httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });
  if (!flow) throw new AppError(400, `This sign-in with ${issuer.label} has expired or was started in another browser. Try again.`);
  const config = await configurationFor(ctx, issuer).catch((error: unknown) => {
    ctx.logger.warn({ err: error, issuer: issuer.id }, 'OpenID Connect discovery failed');
    throw unreachable(issuer);
  });
  const current = callbackUrl(ctx, issuer.id);
  current.search = search;
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
  } catch (error) {
    ctx.logger.warn({ err: error, issuer: issuer.id }, 'OpenID Connect sign-in refused');
    if (error instanceof oidc.AuthorizationResponseError) throw new AppError(401, `${issuer.label} did not sign you in. Try again.`);
    throw new AppError(401, `The sign-in with ${issuer.label} could not be verified. Try again.`);
  }
  const identity = await identityFrom(ctx, config, issuer, tokens);
  try {
    return { outcome: await signInWithIdentity(ctx, identity, { remember: flow.remember }), redirect: flow.redirect };
  } catch (error) {
    if (isAppError(error)) ctx.logger.info({ issuer: issuer.id, status: error.status }, 'OpenID Connect identity refused');
    throw error;
  }
}

type Tokens = Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;

/**
 * The ID token's account: `sub`, and email, email_verified and name from the ID token, or from
 * the userinfo endpoint when the provider keeps them there (userinfo must name the same `sub`).
 */
async function identityFrom(ctx: AppContext, config: oidc.Configuration, issuer: IssuerRow, tokens: Tokens): Promise<ExternalIdentity> {
  const claims = tokens.claims();
  if (!claims?.sub) throw new AppError(401, `The sign-in with ${issuer.label} could not be verified. Try again.`);
  let source: Record<string, unknown> = claims;
  if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
    try {
      source = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), sub: claims.sub };
    } catch (error) {
      ctx.logger.warn({ err: error, issuer: issuer.id }, 'OpenID Connect userinfo failed');
    }
  }
  const email = typeof source.email === 'string' && source.email.includes('@') && source.email.length <= 255 ? source.email.toLowerCase() : null;
  // Some providers send the flag as the string "true".
  const verified = source.email_verified === true || source.email_verified === 'true';
  const name = typeof source.name === 'string' ? source.name : null;
  return { provider: providerOf(issuer.id), subject: claims.sub, email, emailVerified: email !== null && verified, name };
}
