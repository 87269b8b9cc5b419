import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

/**
 * A small OpenID Connect identity provider for tests, speaking the documented protocol: discovery
 * document, JWKS, an authorization endpoint that approves at once as the configured identity, a
 * token endpoint (client authentication, single-use codes, PKCE S256) that returns an RS256-signed
 * ID token, and userinfo. `fault` makes the next ID tokens wrong in one way, to see them refused.
 */
export type Fault = 'wrong-audience' | 'wrong-issuer' | 'wrong-nonce' | 'bad-signature' | 'expired' | 'unverified-email' | 'deny' | null;

export interface FakeIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface FakeOidc {
  /** The issuer identifier, http://127.0.0.1:<port>/realms/test. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the authorization endpoint signs in next. */
  identity: FakeIdentity;
  /** Whether (and how) the next ID tokens are wrong; null for correct ones. */
  fault: Fault;
  /** Put claims into the ID token (true) or only into userinfo (false, as some providers do). */
  claimsInIdToken: boolean;
  /** Token endpoint answers, for tests that look at what the client sent or got refused. */
  tokenRequests: { status: number; error?: string }[];
  stop(): Promise<void>;
}

const sha256url = (value: string) => createHash('sha256').update(value).digest('base64url');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function startFakeOidc(options: { clientId?: string; clientSecret?: string; identity?: FakeIdentity } = {}): Promise<FakeOidc> {
  const keys = await generateKeyPair('RS256', { extractable: true });
  const otherKeys = await generateKeyPair('RS256');
  const kid = 'fake-key-1';
  const jwk = { ...(await exportJWK(keys.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; nonce: string | undefined; identity: FakeIdentity }>();
  const accessTokens = new Map<string, FakeIdentity>();

  const server = http.createServer((req, res) => void handle(req, res).catch((error: unknown) => send(res, 500, { error: 'server_error', error_description: String(error) })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/realms/test`;

  const fake: FakeOidc = {
    issuer,
    clientId: options.clientId ?? 'cloud-drive',
    clientSecret: options.clientSecret ?? 'fake-client-secret-0123456789',
    identity: options.identity ?? { sub: 'user-1', email: 'oidc.user@example.test', email_verified: true, name: 'Oidc User' },
    fault: null,
    claimsInIdToken: true,
    tokenRequests: [],
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  }

  const profile = (identity: FakeIdentity) => ({
    ...(identity.email !== undefined ? { email: identity.email } : {}),
    ...(identity.email_verified !== undefined ? { email_verified: fake.fault === 'unverified-email' ? false : identity.email_verified } : {}),
    ...(identity.name !== undefined ? { name: identity.name } : {}),
  });

  async function idToken(clientId: string, nonce: string | undefined, identity: FakeIdentity): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const expired = fake.fault === 'expired';
    const jwt = new SignJWT({
      ...(fake.claimsInIdToken ? profile(identity) : {}),
      ...(nonce !== undefined ? { nonce: fake.fault === 'wrong-nonce' ? 'a-different-nonce' : nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setSubject(identity.sub)
      .setIssuer(fake.fault === 'wrong-issuer' ? 'http://127.0.0.1:1/realms/other' : issuer)
      .setAudience(fake.fault === 'wrong-audience' ? 'another-client' : clientId)
      .setIssuedAt(expired ? now - 3600 : now)
      .setExpirationTime(expired ? now - 1800 : now + 300);
    return jwt.sign((fake.fault === 'bad-signature' ? otherKeys.privateKey : keys.privateKey) as CryptoKey);
  }

  async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  }

  /** client_secret_basic or client_secret_post; the client id as authenticated, or null. */
  function authenticate(req: http.IncomingMessage, form: URLSearchParams): string | null {
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const header = req.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const [user = '', pass = ''] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      id = decodeURIComponent(user);
      secret = decodeURIComponent(pass);
    }
    if (id !== fake.clientId || secret === null || !sameText(secret, fake.clientSecret)) return null;
    return id;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname.startsWith('/realms/test') ? url.pathname.slice('/realms/test'.length) : null;
    if (req.method === 'GET' && path === '/.well-known/openid-configuration') {
      return send(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['openid', 'email', 'profile'],
        claims_supported: ['sub', 'email', 'email_verified', 'name'],
      });
    }
    if (req.method === 'GET' && path === '/jwks') return send(res, 200, { keys: [jwk] });
    if (req.method === 'GET' && path === '/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      if (q.get('client_id') !== fake.clientId || !redirectUri) return send(res, 400, { error: 'invalid_request', error_description: 'unknown client or no redirect_uri' });
      const back = new URL(redirectUri);
      const state = q.get('state');
      if (state !== null) back.searchParams.set('state', state);
      if (fake.fault === 'deny') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user said no.');
      } else if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !q.get('scope')?.split(' ').includes('openid')) {
        back.searchParams.set('error', 'invalid_request');
      } else {
        const code = randomBytes(24).toString('base64url');
        codes.set(code, { clientId: fake.clientId, redirectUri, challenge: q.get('code_challenge') ?? '', nonce: q.get('nonce') ?? undefined, identity: { ...fake.identity } });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { Location: back.href });
      return res.end();
    }
    if (req.method === 'POST' && path === '/token') {
      const form = await readForm(req);
      const refuse = (status: number, error: string) => {
        fake.tokenRequests.push({ status, error });
        return send(res, status, { error }, status === 401 ? { 'WWW-Authenticate': 'Basic realm="fake"' } : {});
      };
      const clientId = authenticate(req, form);
      if (!clientId) return refuse(401, 'invalid_client');
      if (form.get('grant_type') !== 'authorization_code') return refuse(400, 'unsupported_grant_type');
      const code = form.get('code') ?? '';
      const grant = codes.get(code);
      // Single use: the first exchange spends the code, right or wrong.
      codes.delete(code);
      if (!grant || grant.clientId !== clientId || grant.redirectUri !== form.get('redirect_uri')) return refuse(400, 'invalid_grant');
      const verifier = form.get('code_verifier') ?? '';
      if (!verifier || sha256url(verifier) !== grant.challenge) return refuse(400, 'invalid_grant');
      const accessToken = randomBytes(24).toString('base64url');
      accessTokens.set(accessToken, grant.identity);
      fake.tokenRequests.push({ status: 200 });
      return send(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300, scope: 'openid email profile', id_token: await idToken(clientId, grant.nonce, grant.identity) });
    }
    if (req.method === 'GET' && path === '/userinfo') {
      const token = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : '';
      const identity = accessTokens.get(token);
      if (!identity) return send(res, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
      return send(res, 200, { sub: identity.sub, ...profile(identity) });
    }
    send(res, 404, { error: 'not_found' });
  }

  return fake;
}
