import { timingSafeEqual } from 'node:crypto';
import type { APIContext, AstroCookies } from 'astro';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { type AppError, isAppError, notFound, unauthenticated } from '../../http/errors.ts';
import { setFlash } from '../../http/forms.ts';
import { safeRedirectPath } from '../../http/redirects.ts';
import { validate } from '../../http/validate.ts';
import { setChallengeCookie, setSignedInCookies } from '../cookies.ts';
import { type ExternalIdentity, linkIdentity, signInWithIdentity } from '../identities.ts';
import { requireSessionAuth } from '../session-only.ts';
import type { User } from '../sessions.ts';
import { socialApp } from './apps.ts';
import { authorizationUrl, exchangeCode, type App, type Endpoints } from './exchange.ts';
import { isSocialProvider, PROVIDER_NAMES, PROVIDERS, rebase, type SocialProvider } from './providers.ts';

/**
 * Social sign-in (SPEC §7): `start` answers the provider's authorization URL and remembers the
 * attempt in a short-lived httpOnly cookie (state, PKCE verifier, intent, and for a link the user's
 * id); `finish` is the callback the provider sends the browser back to. Nothing is kept in the
 * process, so any app process can answer the callback.
 *
 * The cookie is SameSite=Lax because the callback is a top-level navigation from the provider's
 * site, and its path keeps it off every other request. A link names the user who started it, and
 * the callback links only for that same signed-in session (the session cookie is Lax too), so a
 * cookie edited in the attacker's own browser cannot link to someone else's account.
 */
const STATE_COOKIE = 'social_sign_in';
const STATE_LIFETIME_S = 10 * 60;
/** Where a link from settings returns to, with `?social=<outcome>` for the card to show. */
export const LINK_RETURN = '/user/settings/password';

interface Attempt {
  provider: SocialProvider;
  state: string;
  verifier: string | null;
  intent: 'sign-in' | 'link';
  userId: string | null;
  redirect: string;
  /** The sign-in form's "Keep me signed in", carried through the provider: a persistent session. */
  remember?: boolean;
}

const StartQuery = z.object({
  intent: z.enum(['sign-in', 'link'], { error: 'The intent must be sign-in or link.' }).default('sign-in'),
  redirect: z.string({ error: 'The redirect must be a path.' }).max(2000, 'The redirect may not be greater than 2000 characters.').optional(),
  remember: z.enum(['0', '1'], { error: 'Remember is 1 or 0.' }).optional(),
});

const CallbackQuery = z.object({
  code: z.string().min(1).max(2048).optional(),
  state: z.string().min(1).max(512).optional(),
  error: z.string().max(512).optional(),
});

function providerOf(param: string | undefined): SocialProvider {
  if (!isSocialProvider(param)) throw notFound('There is no sign-in provider by that name.');
  return param;
}

function endpointsOf(ctx: AppContext, provider: SocialProvider): { endpoints: Endpoints; at: (url: string) => string } {
  const base = ctx.config.oauthBaseUrls[provider];
  const at = (url: string) => rebase(url, base);
  return { endpoints: { authorization: at(PROVIDERS[provider].authorization), token: at(PROVIDERS[provider].token) }, at };
}

const redirectUri = (ctx: AppContext, provider: SocialProvider) => new URL(`/api/socialite/${provider}/callback`, ctx.config.appUrl.origin).href;

/** GET /api/socialite/{provider}/redirect: `{ url }` to send the browser to. */
export async function startSocialSignIn(ctx: AppContext, astro: APIContext, providerParam: string | undefined, query: URLSearchParams, user: User | null): Promise<{ url: string }> {
  const provider = providerOf(providerParam);
  const input = validate(StartQuery, Object.fromEntries(query));
  if (input.intent === 'link') {
    if (!user) throw unauthenticated('Sign in first to link an account.');
    requireSessionAuth(astro.locals, 'Linking a sign-in provider');
  }
  const app = await socialApp(ctx, provider);
  const { url, state, verifier } = authorizationUrl(PROVIDERS[provider], endpointsOf(ctx, provider).endpoints, { ...app, redirectUri: redirectUri(ctx, provider) });
  const attempt: Attempt = { provider, state, verifier, intent: input.intent, userId: input.intent === 'link' ? user!.id : null, redirect: safeRedirectPath(input.redirect), remember: input.remember === '1' };
  astro.cookies.set(STATE_COOKIE, Buffer.from(JSON.stringify(attempt)).toString('base64url'), {
    path: '/api/socialite',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.secureCookies,
    maxAge: STATE_LIFETIME_S,
  });
  return { url: url.href };
}

function takeAttempt(ctx: AppContext, cookies: AstroCookies): Attempt | null {
  const raw = cookies.get(STATE_COOKIE)?.value;
  if (!raw) return null;
  // One callback per attempt: whatever happens next, the state is spent.
  cookies.delete(STATE_COOKIE, { path: '/api/socialite', httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Attempt;
    return typeof parsed.state === 'string' && isSocialProvider(parsed.provider) ? parsed : null;
  } catch {
    return null;
  }
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** What the settings card shows after a link: `?social=<outcome>&provider=<provider>`. */
type LinkOutcome = 'linked' | 'cancelled' | 'failed' | 'linked_elsewhere' | 'provider_taken' | 'session';

class Refusal extends Error {
  readonly outcome: LinkOutcome;
  constructor(outcome: LinkOutcome, message: string) {
    super(message);
    this.outcome = outcome;
  }
}

/**
 * GET /api/socialite/{provider}/callback. Always a redirect: into the app, to the second step, back
 * to settings after a link, or to /sign-in with a message. Never an error page: whatever went wrong
 * at the provider or here, the person lands somewhere that says so.
 */
export async function finishSocialSignIn(ctx: AppContext, astro: APIContext, providerParam: string | undefined, query: URLSearchParams, user: User | null): Promise<Response> {
  const attempt = takeAttempt(ctx, astro.cookies);
  const name = isSocialProvider(providerParam) ? PROVIDER_NAMES[providerParam] : 'the provider';
  try {
    const provider = providerOf(providerParam);
    const input = CallbackQuery.safeParse(Object.fromEntries(query));
    if (!input.success) throw new Refusal('failed', `The answer from ${name} could not be read. Try again.`);
    if (input.data.error) throw new Refusal('cancelled', `Signing in with ${name} was cancelled.`);
    const { code, state } = input.data;
    if (!attempt || attempt.provider !== provider || !state || !code || !sameSecret(attempt.state, state)) {
      throw new Refusal('failed', `This sign-in with ${name} has expired or was not started here. Try again.`);
    }
    const identity = await identityFrom(ctx, provider, code, attempt.verifier);
    if (attempt.intent === 'link') return await finishLink(ctx, astro, user, attempt, identity);
    const outcome = await signInWithIdentity(ctx, identity, { remember: attempt.remember === true });
    if (outcome.kind === 'second-step') {
      setChallengeCookie(ctx, astro.cookies, outcome.challenge);
      const target = safeRedirectPath(attempt.redirect, '');
      return astro.redirect(target && target !== '/platform/files' ? `/sign-in/two-factor?redirect=${encodeURIComponent(target)}` : '/sign-in/two-factor', 303);
    }
    setSignedInCookies(ctx, astro.cookies, outcome);
    return astro.redirect(safeRedirectPath(attempt.redirect), 303);
  } catch (error) {
    const message = error instanceof Refusal || isAppError(error) ? error.message : `Signing in with ${name} failed. Try again.`;
    if (!(error instanceof Refusal) && !isAppError(error)) ctx.logger.warn({ err: error, provider: providerParam }, 'social sign-in failed');
    if (attempt?.intent === 'link') {
      const outcome = error instanceof Refusal ? error.outcome : 'failed';
      return astro.redirect(`${LINK_RETURN}?social=${outcome}&provider=${attempt.provider}`, 303);
    }
    setFlash(astro, { message });
    return astro.redirect('/sign-in', 303);
  }
}

async function identityFrom(ctx: AppContext, provider: SocialProvider, code: string, verifier: string | null): Promise<ExternalIdentity> {
  const name = PROVIDER_NAMES[provider];
  const app: App = { ...(await socialApp(ctx, provider)), redirectUri: redirectUri(ctx, provider) };
  const { endpoints, at } = endpointsOf(ctx, provider);
  let token: string;
  try {
    token = (await exchangeCode(PROVIDERS[provider], endpoints, app, code, verifier, ctx.config.oauthTimeoutMs)).accessToken();
  } catch (error) {
    ctx.logger.warn({ err: error, provider }, 'social sign-in: the code exchange failed');
    throw new Refusal('failed', `${name} did not confirm this sign-in. Try again.`);
  }
  try {
    return await PROVIDERS[provider].profile(token, at, app.clientSecret);
  } catch (error) {
    ctx.logger.warn({ err: error, provider }, 'social sign-in: the profile could not be read');
    throw new Refusal('failed', `${name} did not share your profile. Try again.`);
  }
}

async function finishLink(ctx: AppContext, astro: APIContext, user: User | null, attempt: Attempt, identity: ExternalIdentity): Promise<Response> {
  if (!user || user.id !== attempt.userId) throw new Refusal('session', 'Sign in again to link an account.');
  try {
    await linkIdentity(ctx, user, identity);
  } catch (error) {
    if (!isAppError(error) || (error as AppError).status !== 409) throw error;
    const owner = await ctx.db.selectFrom('user_identities').select('user_id').where('provider', '=', identity.provider).where('subject', '=', identity.subject).executeTakeFirst();
    throw new Refusal(owner && owner.user_id !== user.id ? 'linked_elsewhere' : 'provider_taken', error.message);
  }
  return astro.redirect(`${LINK_RETURN}?social=linked&provider=${attempt.provider}`, 303);
}
