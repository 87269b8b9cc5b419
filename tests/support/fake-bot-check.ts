import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the score-based bot check's provider (reCAPTCHA v3), speaking its documented
 * protocol: `POST /recaptcha/api/siteverify` (form: secret, response, remoteip) answers
 * `{ success, score, action, challenge_ts, hostname }` or `{ success: false, 'error-codes' }`;
 * `GET /recaptcha/api.js?render=<site key>` is a browser shim defining `grecaptcha.ready/execute`.
 *
 * Tokens say what the provider should answer about them (`fakeToken`), so a test picks the score,
 * action and age. Tokens from the browser shim carry the executed action and the time they were
 * made; their score is `shimScore`, which a test sets before the form is sent.
 */
export interface FakeBotCheck {
  verifyUrl: string;
  scriptUrl: string;
  readonly secret: string;
  readonly siteKey: string;
  /** The score the provider gives tokens made by the browser shim. */
  shimScore: number;
  /** While true, every verification request has its connection dropped (the provider is down). */
  down: boolean;
  /** Each verification request as received, the token decoded when it is one of ours. */
  readonly requests: Array<{ secret: string; remoteip: string; token: TokenClaims | null }>;
  stop(): Promise<void>;
}

/** What a fake token asks the provider to answer. */
export interface TokenClaims {
  action: string;
  /** The score; tokens from the shim leave it out and get `shimScore`. */
  score?: number;
  /** Seconds since the challenge (default 5); the shim sets `issuedAt` (ms) instead. */
  ageSeconds?: number;
  issuedAt?: number;
  /** The host the token was made on (default the app's, 127.0.0.1). */
  hostname?: string;
  /** false: the provider does not know the token (invalid or already used). */
  success?: boolean;
  siteKey?: string;
}

const PREFIX = 'fake.';

export function fakeToken(claims: TokenClaims): string {
  return PREFIX + Buffer.from(JSON.stringify(claims)).toString('base64url');
}

function readToken(token: string): TokenClaims | null {
  if (!token.startsWith(PREFIX)) return null;
  try {
    const claims = JSON.parse(Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8')) as TokenClaims;
    return typeof claims.action === 'string' ? claims : null;
  } catch {
    return null;
  }
}

// The browser shim: the same token format, made in the page (base64url of the claims' JSON).
const shim = (siteKey: string) => `(function () {
  var siteKey = ${JSON.stringify(siteKey)};
  var encode = function (text) { return btoa(text).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); };
  window.grecaptcha = {
    ready: function (callback) { Promise.resolve().then(callback); },
    execute: function (key, options) {
      if (key !== siteKey) return Promise.reject(new Error('unknown site key'));
      return Promise.resolve(${JSON.stringify(PREFIX)} + encode(JSON.stringify({ action: options.action, issuedAt: Date.now(), siteKey: key })));
    },
  };
})();
`;

export async function startFakeBotCheck(options: { secret?: string; siteKey?: string; hostname?: string } = {}): Promise<FakeBotCheck> {
  const secret = options.secret ?? 'fake-bot-check-secret';
  const siteKey = options.siteKey ?? 'fake-bot-check-site-key';
  const hostname = options.hostname ?? '127.0.0.1';
  const requests: FakeBotCheck['requests'] = [];
  const state = { shimScore: 0.9, down: false };

  const answer = (params: URLSearchParams): object => {
    if (params.get('secret') !== secret) return { success: false, 'error-codes': ['invalid-input-secret'] };
    const claims = readToken(params.get('response') ?? '');
    if (!claims || claims.success === false || (claims.siteKey !== undefined && claims.siteKey !== siteKey)) return { success: false, 'error-codes': ['invalid-input-response'] };
    const issued = claims.issuedAt ?? Date.now() - (claims.ageSeconds ?? 5) * 1000;
    return {
      success: true,
      score: claims.score ?? state.shimScore,
      action: claims.action,
      challenge_ts: new Date(issued).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      hostname: claims.hostname ?? hostname,
    };
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/recaptcha/api.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }).end(shim(url.searchParams.get('render') ?? ''));
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/recaptcha/api/siteverify') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (state.down) {
        req.socket.destroy();
        return;
      }
      const params = new URLSearchParams(body);
      requests.push({ secret: params.get('secret') ?? '', remoteip: params.get('remoteip') ?? '', token: readToken(params.get('response') ?? '') });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer(params)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    verifyUrl: `${base}/recaptcha/api/siteverify`,
    scriptUrl: `${base}/recaptcha/api.js`,
    secret,
    siteKey,
    requests,
    get shimScore() {
      return state.shimScore;
    },
    set shimScore(score: number) {
      state.shimScore = score;
    },
    get down() {
      return state.down;
    },
    set down(down: boolean) {
      state.down = down;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The environment that points a test server at the fake (the verification endpoint and the browser script). */
export const fakeBotCheckEnv = (fake: FakeBotCheck): Record<string, string> => ({ BOT_CHECK_VERIFY_URL: fake.verifyUrl, BOT_CHECK_SCRIPT_URL: fake.scriptUrl });
