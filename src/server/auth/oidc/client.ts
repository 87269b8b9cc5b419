import * as oidc from 'openid-client';
import type { AppContext } from '../../context.ts';
import { clientSecretOf, type IssuerRow } from './issuers.ts';

/**
 * openid-client configurations for the issuers. Discovery documents are kept for a few minutes per
 * issuer URL, to spare the identity provider a request per sign-in; nothing else is kept in the
 * process, so a sign-in started on one process finishes on any other.
 */
const DISCOVERY_TTL_MS = 5 * 60_000;
const TIMEOUT_SECONDS = 10;
const discovered = new Map<string, { metadata: oidc.ServerMetadata; expires: number }>();

/** Plain http is for an identity provider on this machine only (development, tests). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

const insecureAllowed = (issuerUrl: string) => {
  const url = new URL(issuerUrl);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
};

export const callbackUrl = (ctx: AppContext, issuerId: string) => new URL(`/api/oidc/${issuerId}/callback`, ctx.config.appUrl);

async function serverMetadata(ctx: AppContext, issuer: IssuerRow): Promise<oidc.ServerMetadata> {
  const now = ctx.clock.now().getTime();
  const cached = discovered.get(issuer.issuer_url);
  if (cached && cached.expires > now) return cached.metadata;
  const insecure = insecureAllowed(issuer.issuer_url);
  const config = await oidc.discovery(new URL(issuer.issuer_url), issuer.client_id, undefined, oidc.None(), {
    timeout: TIMEOUT_SECONDS,
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
  const metadata = { ...config.serverMetadata() } as oidc.ServerMetadata;
  discovered.set(issuer.issuer_url, { metadata, expires: now + DISCOVERY_TTL_MS });
  return metadata;
}

/**
 * The issuer's client configuration: its discovery document, the client id and secret, ID token
 * signatures checked, and the client authentication the provider supports (client_secret_basic, the standard's default, else
 * client_secret_post).
 */
export async function configurationFor(ctx: AppContext, issuer: IssuerRow): Promise<oidc.Configuration> {
  const metadata = await serverMetadata(ctx, issuer);
  const secret = await clientSecretOf(ctx, issuer);
  const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const auth = methods.includes('client_secret_basic') || !methods.includes('client_secret_post') ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret);
  const config = new oidc.Configuration(metadata, issuer.client_id, { client_secret: secret }, auth);
  config.timeout = TIMEOUT_SECONDS;
  // openid-client trusts an ID token from the token endpoint on TLS alone unless told otherwise; we
  // check its signature against the issuer's JWKS as well (and plain http on loopback has no TLS).
  oidc.enableNonRepudiationChecks(config);
  if (insecureAllowed(issuer.issuer_url)) oidc.allowInsecureRequests(config);
  return config;
}

/** An admin changed or removed an issuer: its next sign-in reads the discovery document again. */
export function forgetDiscovery(issuerUrl: string): void {
  discovered.delete(issuerUrl);
}
