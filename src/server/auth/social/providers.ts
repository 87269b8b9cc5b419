import { createHmac } from 'node:crypto';
import type { ExternalIdentity } from '../identities.ts';

/**
 * The three social sign-in providers: their endpoints, scopes and how their profile becomes an
 * `ExternalIdentity`. Arctic's provider classes hard-code the endpoints, so the flow (flow.ts) uses
 * Arctic's generic OAuth2Client with the endpoints listed here; OAUTH_<PROVIDER>_BASE_URL replaces
 * their origin (keeping each path), which is how the tests reach a local fake provider.
 */
export const SOCIAL_PROVIDERS = ['google', 'github', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const isSocialProvider = (value: string | undefined): value is SocialProvider => (SOCIAL_PROVIDERS as readonly string[]).includes(value ?? '');

export const PROVIDER_NAMES: Record<SocialProvider, string> = { google: 'Google', github: 'GitHub', facebook: 'Facebook' };

export interface ProviderSpec {
  authorization: string;
  token: string;
  scopes: string[];
  /**
   * PKCE (S256). Google supports it, and so does GitHub (an unknown code_challenge would be ignored
   * anyway, so sending it costs nothing). Facebook's flow, like Arctic's Facebook class, goes without.
   */
  pkce: boolean;
  /**
   * How the client secret reaches the token endpoint: HTTP Basic (Arctic's OAuth2Client), or in the
   * form body, which is what Facebook accepts (Arctic's Facebook class does the same).
   */
  secretIn: 'basic' | 'body';
  /** Fetches the profile with the access token and says what the provider verified. */
  profile: (token: string, endpoints: (url: string) => string, clientSecret: string) => Promise<ExternalIdentity>;
}

const TIMEOUT_MS = 10_000;

/** A profile request failed or answered something unexpected; the callback turns it into a refusal. */
export class ProfileError extends Error {}

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json', 'User-Agent': 'cloud-drive', ...headers }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new ProfileError(`profile request failed: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProfileError(`profile request answered ${response.status}`);
  }
  try {
    return await response.json();
  } catch {
    throw new ProfileError('profile answer is not JSON');
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
/** Provider account ids are strings at Google and Facebook and numbers at GitHub. */
const subjectOf = (value: unknown): string => {
  const id = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : text(value);
  if (!id || id.length > 255) throw new ProfileError('the profile has no account id');
  return id;
};
const emailOf = (value: unknown): string | null => {
  const email = text(value);
  return email && email.length <= 255 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
};

export const PROVIDERS: Record<SocialProvider, ProviderSpec> = {
  google: {
    authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
    token: 'https://oauth2.googleapis.com/token',
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    secretIn: 'basic',
    // OpenID Connect userinfo: `email_verified` is Google's own statement about the address.
    profile: async (token, at) => {
      const me = (await getJson(at('https://openidconnect.googleapis.com/v1/userinfo'), { Authorization: `Bearer ${token}` })) as Record<string, unknown>;
      const email = emailOf(me.email);
      return { provider: 'google', subject: subjectOf(me.sub), email, emailVerified: email !== null && me.email_verified === true, name: text(me.name) };
    },
  },
  github: {
    authorization: 'https://github.com/login/oauth/authorize',
    token: 'https://github.com/login/oauth/access_token',
    scopes: ['read:user', 'user:email'],
    pkce: true,
    secretIn: 'basic',
    // /user's email is only the public one; /user/emails lists every address with GitHub's `verified`.
    profile: async (token, at) => {
      const headers = { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json' };
      const me = (await getJson(at('https://api.github.com/user'), headers)) as Record<string, unknown>;
      const emails = await getJson(at('https://api.github.com/user/emails'), headers);
      const list = Array.isArray(emails) ? (emails as Array<Record<string, unknown>>) : [];
      const primary = list.find((e) => e.primary === true && emailOf(e.email));
      const email = emailOf(primary?.email);
      return { provider: 'github', subject: subjectOf(me.id), email, emailVerified: email !== null && primary?.verified === true, name: text(me.name) ?? text(me.login) };
    },
  },
  facebook: {
    authorization: 'https://www.facebook.com/v19.0/dialog/oauth',
    token: 'https://graph.facebook.com/v19.0/oauth/access_token',
    scopes: ['email', 'public_profile'],
    pkce: false,
    secretIn: 'body',
    /**
     * Facebook's Graph API has no statement about the address: /me's `email` carries no verified
     * flag. So it never counts as verified here: a Facebook account signs in only once it is linked
     * from settings, and never makes an account or links itself by email (identities.ts).
     */
    profile: async (token, at, clientSecret) => {
      const url = new URL(at('https://graph.facebook.com/v19.0/me'));
      url.searchParams.set('fields', 'id,name,email');
      // Proves the token was used by this app's server (needed when the app requires it).
      url.searchParams.set('appsecret_proof', createHmac('sha256', clientSecret).update(token).digest('hex'));
      const me = (await getJson(url.href, { Authorization: `Bearer ${token}` })) as Record<string, unknown>;
      return { provider: 'facebook', subject: subjectOf(me.id), email: emailOf(me.email), emailVerified: false, name: text(me.name) };
    },
  },
};

/** `url` with its origin replaced by `base` (and `base`'s path put in front), or `url` itself when there is no base. */
export function rebase(url: string, base: string | null): string {
  if (!base) return url;
  const real = new URL(url);
  return `${base.replace(/\/+$/, '')}${real.pathname}${real.search}`;
}
