import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { actorOf, bindingOf, csrfRefusal, originOf, readCookie, requireWrite, viewOfAstro, viewOfNode, type AuthMethod, type Principal, type RequestView } from '../../src/server/auth/principal.ts';
import type { AppContext } from '../../src/server/context.ts';

const origin = 'https://drive.example.com';
const ctx = { config: { appUrl: new URL(`${origin}/`) } } as unknown as AppContext;

/** The same request as each plane sees it: Astro's (Request + cookies) and the data plane's (Node). */
function views(method: string, path: string, headers: Record<string, string>): RequestView[] {
  const astro = viewOfAstro({ request: new Request(origin + path, { method, headers }), url: new URL(origin + path), cookies: { get: () => undefined } });
  const node = viewOfNode({ method, url: path, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) } as unknown as IncomingMessage);
  return [astro, node];
}

function refusal(method: string, path: string, headers: Record<string, string>, auth: AuthMethod | null): (string | null)[] {
  return views(method, path, headers).map((view) => csrfRefusal(ctx, view, auth)?.message ?? null);
}

const CROSS = 'Cross-site request refused: the Origin header must be this site.';
const XRW = 'Missing the X-Requested-With header.';

describe('csrfRefusal: one rule for both planes', () => {
  it.each<[string, string, Record<string, string>, AuthMethod | null, string | null]>([
    ['GET', '/api/user', {}, 'cookie', null],
    ['HEAD', '/api/file/x', { origin: 'https://evil.example' }, 'cookie', null],
    ['OPTIONS', '/api/upload/tus', {}, null, null],
    ['POST', '/api/create-folder', { origin, 'x-requested-with': 'XMLHttpRequest' }, 'cookie', null],
    ['POST', '/api/create-folder', { origin }, 'cookie', XRW],
    ['POST', '/api/create-folder', { 'sec-fetch-site': 'same-origin', 'x-requested-with': 'x' }, 'cookie', null],
    ['POST', '/api/create-folder', { origin: 'https://evil.example', 'x-requested-with': 'x' }, 'cookie', CROSS],
    ['POST', '/api/create-folder', { 'x-requested-with': 'x' }, 'cookie', CROSS],
    ['DELETE', '/api/create-folder', { origin: 'https://evil.example' }, 'token', null],
    ['POST', '/api/upload', {}, 'token', null],
    // Link holders and signed-out visitors: only the origin counts.
    ['POST', '/api/editor/upload/t', { origin }, 'link', null],
    ['POST', '/api/editor/upload/t', { origin: 'https://evil.example' }, 'link', CROSS],
    ['POST', '/login', { origin }, null, null],
    ['POST', '/login', { origin: 'null' }, null, CROSS],
    // A cookie-signed-in form post outside /api/ needs no X-Requested-With (plain HTML forms).
    ['POST', '/logout', { origin }, 'cookie', null],
  ])('%s %s %j as %s → %s', (method, path, headers, auth, expected) => {
    expect(refusal(method, path, headers, auth)).toEqual([expected, expected]);
  });

  it('answers 403 with the stable code csrf_refused', () => {
    const [view] = views('POST', '/api/move', { origin: 'https://evil.example' });
    const error = csrfRefusal(ctx, view!, 'cookie');
    expect([error?.status, error?.code]).toEqual([403, 'csrf_refused']);
  });
});

describe('the request views', () => {
  it('read headers case-insensitively and cookies by name on both planes', () => {
    for (const view of views('post', '/api/x?y=1', { Authorization: 'Bearer abc', Cookie: 'a=1; session=s%20t; b=2' })) {
      expect(view.method).toBe('POST');
      expect(view.pathname).toBe('/api/x');
      expect(view.header('authorization')).toBe('Bearer abc');
      expect(view.header('x-missing')).toBeUndefined();
    }
    expect(readCookie('a=1; session=s%20t; b=2', 'session')).toBe('s t');
    expect(readCookie('a=1; bad=%E0%A4%A', 'bad')).toBeUndefined();
    expect(readCookie(undefined, 'session')).toBeUndefined();
  });
});

describe('bindings: what an upload is bound to, and who it names', () => {
  const user = { id: 'u1' } as Principal['user'];
  const scope = { rootId: 'root' };
  it('round-trips each kind', () => {
    const principals: Principal[] = [
      { kind: 'user', method: 'cookie', session: null, user, permissions: { read: true, write: true } },
      { kind: 'share', method: 'link', user, scope, permissions: { read: true, write: true }, share: { share: { id: 's1' } } as never },
      { kind: 'request', method: 'link', user, scope, permissions: { read: true, write: true }, request: { request: { id: 'r1' } } as never },
    ];
    expect(principals.map(bindingOf)).toEqual(['u1', 'share:s1', 'request:r1']);
    expect(principals.map((p) => originOf(bindingOf(p), 'u1'))).toEqual([
      { kind: 'user', id: 'u1' },
      { kind: 'share', id: 's1' },
      { kind: 'request', id: 'r1' },
    ]);
    // Stored before bindings named links (or with none): the owner's own upload.
    expect(originOf(null, 'owner')).toEqual({ kind: 'user', id: 'owner' });
    expect(originOf('request:', 'owner')).toEqual({ kind: 'user', id: 'owner' });
  });
});

describe('permissions and the actor', () => {
  const user = { id: 'owner' } as Principal['user'];
  it('refuses a write to a principal that may only read (403 read_only), and lets a writer through', () => {
    const reader: Principal = { kind: 'share', method: 'link', user, scope: { rootId: 'r' }, permissions: { read: true, write: false }, share: {} as never };
    expect(() => requireWrite(reader)).toThrow(expect.objectContaining({ status: 403, code: 'read_only' }));
    expect(() => requireWrite({ ...reader, permissions: { read: true, write: true } })).not.toThrow();
  });

  it('acts as the owner, limited by the scope when there is one', () => {
    expect(actorOf({ kind: 'user', method: 'token', session: null, user, permissions: { read: true, write: true } })).toEqual({ id: 'owner' });
    expect(actorOf({ kind: 'share', method: 'link', user, scope: { rootId: 'r' }, permissions: { read: true, write: true }, share: {} as never })).toEqual({ id: 'owner', scope: { rootId: 'r' } });
  });
});
