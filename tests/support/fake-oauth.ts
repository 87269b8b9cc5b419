import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Google, GitHub and Facebook's OAuth 2.0 endpoints, for tests only. Each
 * provider lives under its own prefix (`${url}/google`, …: the product's OAUTH_*_BASE_URL) at the
 * real endpoints' paths. The authorization endpoint approves at once, as the identity set with
 * `signInAs`; the token endpoint checks the client's credentials, the redirect URI, that a code is
 * used once, and the PKCE verifier; the profile endpoints answer each provider's shape.
 */
export type FakeProvider = 'google' | 'github' | 'facebook';

export interface FakeIdentity {
  id: string;
  email: string | null;
  /** Google's `email_verified`, GitHub's `verified` on the primary address (Facebook has no such flag). */
  emailVerified: boolean;
  name: string;
}

interface Code {
  provider: FakeProvider;
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  identity: FakeIdentity;
  used: boolean;
}

export interface FakeOAuth {
  url: string;
  baseUrl(provider: FakeProvider): string;
  /** The env a server needs to use this fake for all three providers. */
  env: Record<string, string>;
  clients: Record<FakeProvider, { id: string; secret: string }>;
  signInAs(provider: FakeProvider, identity: FakeIdentity): void;
  /** The next authorization is refused by the person (`error=access_denied`). */
  denyNext(provider: FakeProvider): void;
  /** The next profile request of this provider answers 500 (the provider has an outage). */
  failProfileNext(provider: FakeProvider): void;
  /** The next token request of this provider is answered only after `ms` (a provider that hangs). */
  delayTokenNext(provider: FakeProvider, ms: number): void;
  /** Token requests the fake refused, with why (for assertions on what the product sent). */
  refusals: string[];
  /** The last authorization request's query, per provider. */
  lastAuthorization: Partial<Record<FakeProvider, URLSearchParams>>;
  close(): Promise<void>;
}

const PATHS: Record<FakeProvider, { authorize: string; token: string }> = {
  google: { authorize: '/o/oauth2/v2/auth', token: '/token' },
  github: { authorize: '/login/oauth/authorize', token: '/login/oauth/access_token' },
  facebook: { authorize: '/v19.0/dialog/oauth', token: '/v19.0/oauth/access_token' },
};

const b64url = (buf: Buffer) => buf.toString('base64url');

export async function startFakeOAuth(): Promise<FakeOAuth> {
  const clients: FakeOAuth['clients'] = {
    google: { id: 'google-client-id', secret: 'google-client-secret' },
    github: { id: 'github-client-id', secret: 'github-client-secret' },
    facebook: { id: 'facebook-client-id', secret: 'facebook-client-secret' },
  };
  const current: Partial<Record<FakeProvider, FakeIdentity>> = {};
  const deny = new Set<FakeProvider>();
  const failProfile = new Set<FakeProvider>();
  const tokenDelay = new Map<FakeProvider, number>();
  const codes = new Map<string, Code>();
  const tokens = new Map<string, { provider: FakeProvider; identity: FakeIdentity }>();
  const refusals: string[] = [];
  const lastAuthorization: FakeOAuth['lastAuthorization'] = {};

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: http.ServerResponse, status: number, error: string, why: string) => {
    refusals.push(why);
    send(res, status, { error, error_description: why });
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [, prefix = '', ...rest] = url.pathname.split('/');
    const provider = prefix as FakeProvider;
    const path = `/${rest.join('/')}`;
    if (!(provider in PATHS)) return send(res, 404, { error: 'not_found' });
    const client = clients[provider];

    if (req.method === 'GET' && path === PATHS[provider].authorize) {
      const q = url.searchParams;
      lastAuthorization[provider] = q;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== client.id || q.get('response_type') !== 'code' || !redirectUri || !q.get('state')) return send(res, 400, { error: 'invalid_request' });
      const back = new URL(redirectUri);
      back.searchParams.set('state', q.get('state')!);
      if (deny.delete(provider)) {
        back.searchParams.set('error', 'access_denied');
      } else {
        const identity = current[provider];
        if (!identity) return send(res, 500, { error: 'no identity set in the fake' });
        const code = b64url(randomBytes(16));
        const challenge = q.get('code_challenge');
        if (challenge && q.get('code_challenge_method') !== 'S256') return send(res, 400, { error: 'invalid_request' });
        codes.set(code, { provider, clientId: client.id, redirectUri, challenge, identity: { ...identity }, used: false });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { Location: back.href });
      return res.end();
    }

    if (req.method === 'POST' && path === PATHS[provider].token) {
      let raw = '';
      const delay = tokenDelay.get(provider) ?? 0;
      tokenDelay.delete(provider);
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => setTimeout(() => answerToken(), delay));
      const answerToken = () => {
        const form = new URLSearchParams(raw);
        let id = form.get('client_id');
        let secret = form.get('client_secret');
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
        if (basic) [id = null, secret = null] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
        // Facebook takes the secret in the body, the others in HTTP Basic (as the product sends them).
        if (provider === 'facebook' ? !!basic : !basic) return refuse(res, 401, 'invalid_client', 'client authentication method');
        if (id !== client.id || secret !== client.secret) return refuse(res, 401, 'invalid_client', 'client credentials');
        if (form.get('grant_type') !== 'authorization_code') return refuse(res, 400, 'unsupported_grant_type', 'grant type');
        const code = codes.get(form.get('code') ?? '');
        if (!code || code.provider !== provider) return refuse(res, 400, 'invalid_grant', 'unknown code');
        if (code.used) return refuse(res, 400, 'invalid_grant', 'code used twice');
        code.used = true;
        if (form.get('redirect_uri') !== code.redirectUri) return refuse(res, 400, 'invalid_grant', 'redirect_uri mismatch');
        if (code.challenge) {
          const verifier = form.get('code_verifier') ?? '';
          if (b64url(createHash('sha256').update(verifier).digest()) !== code.challenge) return refuse(res, 400, 'invalid_grant', 'PKCE verifier');
        }
        const token = b64url(randomBytes(16));
        tokens.set(token, { provider, identity: code.identity });
        send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: '' });
      };
      return;
    }

    // Profile endpoints: the bearer token (or Facebook's access_token parameter).
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token') ?? '';
    const session = tokens.get(bearer);
    if (!session || session.provider !== provider) return send(res, 401, { error: 'invalid_token' });
    if (failProfile.delete(provider)) return send(res, 500, { error: 'backend_error' });
    const who = session.identity;
    if (provider === 'google' && path === '/v1/userinfo') {
      return send(res, 200, { sub: who.id, name: who.name, ...(who.email ? { email: who.email, email_verified: who.emailVerified } : {}) });
    }
    if (provider === 'github' && path === '/user') {
      if (req.headers['user-agent'] === undefined) return send(res, 403, { message: 'User-Agent required' });
      return send(res, 200, { id: Number(who.id), login: who.name.toLowerCase().replace(/\s+/g, ''), name: who.name, email: null });
    }
    if (provider === 'github' && path === '/user/emails') {
      return send(res, 200, who.email ? [{ email: `noreply-${who.id}@users.noreply.github.test`, primary: false, verified: true }, { email: who.email, primary: true, verified: who.emailVerified }] : []);
    }
    if (provider === 'facebook' && path === '/v19.0/me') {
      const proof = createHmac('sha256', client.secret).update(bearer).digest('hex');
      if (url.searchParams.get('appsecret_proof') !== proof) return send(res, 400, { error: { message: 'Invalid appsecret_proof', type: 'OAuthException' } });
      return send(res, 200, { id: who.id, name: who.name, ...(who.email ? { email: who.email } : {}) });
    }
    send(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = (provider: FakeProvider) => `${url}/${provider}`;
  return {
    url,
    baseUrl,
    env: { OAUTH_GOOGLE_BASE_URL: baseUrl('google'), OAUTH_GITHUB_BASE_URL: baseUrl('github'), OAUTH_FACEBOOK_BASE_URL: baseUrl('facebook') },
    clients,
    signInAs(provider, identity) {
      current[provider] = identity;
    },
    denyNext(provider) {
      deny.add(provider);
    },
    failProfileNext(provider) {
      failProfile.add(provider);
    },
    delayTokenNext(provider, ms) {
      tokenDelay.set(provider, ms);
    },
    refusals,
    lastAuthorization,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
