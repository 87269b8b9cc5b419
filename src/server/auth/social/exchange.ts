import { ArcticFetchError, CodeChallengeMethod, OAuth2Client, OAuth2RequestError, OAuth2Tokens, generateCodeVerifier, generateState } from 'arctic';
import type { ProviderSpec } from './providers.ts';

/**
 * The OAuth 2.0 authorization code flow through Arctic's generic client, so the endpoints can be
 * the real ones or a test fake's (providers.ts `rebase`).
 */
export interface Endpoints {
  authorization: string;
  token: string;
}

export interface App {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export function authorizationUrl(spec: ProviderSpec, endpoints: Endpoints, app: App): { url: URL; state: string; verifier: string | null } {
  const client = new OAuth2Client(app.clientId, app.clientSecret, app.redirectUri);
  const state = generateState();
  if (!spec.pkce) return { url: client.createAuthorizationURL(endpoints.authorization, state, spec.scopes), state, verifier: null };
  const verifier = generateCodeVerifier();
  return { url: client.createAuthorizationURLWithPKCE(endpoints.authorization, state, CodeChallengeMethod.S256, verifier, spec.scopes), state, verifier };
}

/**
 * Trades the code for tokens, waiting `timeoutMs` at most (OAUTH_TIMEOUT_MS); Arctic's errors
 * (OAuth2RequestError, ArcticFetchError, …) pass through, and a provider that does not answer in
 * time is an ArcticFetchError too.
 */
export async function exchangeCode(spec: ProviderSpec, endpoints: Endpoints, app: App, code: string, verifier: string | null, timeoutMs: number): Promise<OAuth2Tokens> {
  if (spec.secretIn === 'basic') return answeredWithin(new OAuth2Client(app.clientId, app.clientSecret, app.redirectUri).validateAuthorizationCode(endpoints.token, code, verifier), timeoutMs);
  return exchangeWithSecretInBody(endpoints.token, app, code, timeoutMs);
}

/** Arctic's client takes no AbortSignal: its request is given up on (left to finish unheard) after `ms`. */
function answeredWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ArcticFetchError(new Error(`the token endpoint did not answer within ${ms} ms`))), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Facebook wants the client secret in the form body, which Arctic's generic client does not do (its
 * Facebook class does, with fixed endpoints). The same request as that class, answered with
 * Arctic's own token and error types.
 */
async function exchangeWithSecretInBody(endpoint: string, app: App, code: string, timeoutMs: number): Promise<OAuth2Tokens> {
  const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.clientSecret });
  const response = await fetch(endpoint, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', 'User-Agent': 'cloud-drive' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const data: unknown = await response.json().catch(() => null);
  if (typeof data !== 'object' || data === null) throw new Error(`token endpoint answered ${response.status} without JSON`);
  const record = data as Record<string, unknown>;
  if (typeof record.error === 'string' || !response.ok) {
    const detail = typeof record.error === 'object' && record.error !== null ? (record.error as Record<string, unknown>) : {};
    const description = typeof record.error_description === 'string' ? record.error_description : typeof detail.message === 'string' ? detail.message : null;
    throw new OAuth2RequestError(typeof record.error === 'string' ? record.error : 'invalid_grant', description, null, null);
  }
  return new OAuth2Tokens(record);
}
