import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { useSeededServer } from '../support/seed.ts';

/**
 * The data plane's one route wrapper (src/server/http/data-route.ts): every route answers a
 * refusal with the same body as the JSON endpoints, `{ message, code? }`, the code stable for the
 * client to read. Signed out, a wrong bearer token, a cross-site write and a method the route does
 * not serve, on each of the file, thumbnail, zip, plain, tus and import routes.
 */

const env = useSeededServer();

const id = randomUUID();
const ROUTES: { path: string; method: string; tus?: boolean }[] = [
  { path: `/file/${id}`, method: 'GET' },
  { path: `/thumbnail/${id}/sm`, method: 'GET' },
  { path: `/api/zip?items=${id}|file`, method: 'GET' },
  { path: '/api/upload', method: 'POST' },
  { path: '/api/upload/tus', method: 'POST', tus: true },
  { path: '/api/upload/remote', method: 'POST' },
  { path: `/api/upload/remote/${id}`, method: 'GET' },
];

describe('data-plane refusals', () => {
  it('signed out: 401 with message and code "unauthenticated" on every route (tus keeps Tus-Resumable)', async () => {
    const client = new Client(env.server.url);
    for (const route of ROUTES) {
      const res = await client.request(route.path, { method: route.method, ...(route.tus ? { headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '3' } } : {}) });
      expect(res.status, route.path).toBe(401);
      expect(res.body, route.path).toEqual({ message: 'Unauthenticated.', code: 'unauthenticated' });
      if (route.tus) expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    }
  });

  it('a wrong bearer token: 401 "invalid_token" with WWW-Authenticate on every route', async () => {
    const client = new Client(env.server.url);
    for (const route of ROUTES) {
      const res = await client.request(route.path, { method: route.method, bearer: 'not-a-token', origin: null, xrw: false });
      expect(res.status, route.path).toBe(401);
      expect(res.body.code, route.path).toBe('invalid_token');
      expect(res.body.message, route.path).toMatch(/invalid or was revoked/);
      expect(res.headers.get('www-authenticate'), route.path).toBe('Bearer');
    }
  });

  it('a cross-site write with the session cookie: 403 "csrf_refused", nothing read', async () => {
    const { client } = await registerUser(env.server.url);
    for (const path of ['/api/upload', '/api/upload/remote']) {
      const res = await client.request(path, { method: 'POST', origin: 'https://evil.example', json: { urls: ['https://example.com/a'] } });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ message: expect.stringMatching(/Origin/), code: 'csrf_refused' });
    }
  });

  it('a method the route does not serve: 405 "method_not_allowed" with Allow, before signing in', async () => {
    const client = new Client(env.server.url);
    for (const [method, path, allow, message] of [
      ['GET', '/api/upload', 'POST', 'Method not allowed.'],
      ['PUT', '/api/upload/remote', 'POST', 'Method not allowed.'],
      ['DELETE', `/api/upload/remote/${id}`, 'GET', 'Method not allowed.'],
      ['GET', `/api/upload/tus/${'a'.repeat(32)}`, 'HEAD, PATCH, DELETE, OPTIONS', 'Uploads are not served; download the file instead.'],
      ['PATCH', '/api/upload/tus', 'POST, OPTIONS', 'Method not allowed.'],
    ] as const) {
      const res = await client.request(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(res.body, `${method} ${path}`).toEqual({ message, code: 'method_not_allowed' });
    }
  });

  it('domain refusals keep their code and field errors: a bad zip selection, an unknown import, a chunk out of step', async () => {
    const { client } = await registerUser(env.server.url);
    const zip = await client.get('/api/zip?items=nope');
    expect(zip.status).toBe(422);
    expect(zip.body.message).toMatch(/is not an item/);
    expect(zip.body.errors.items).toHaveLength(1);

    const job = await client.get(`/api/upload/remote/${id}`);
    expect(job.status).toBe(404);
    expect(job.body).toEqual({ message: 'The import was not found.' });

    const chunk = (offset: number) => {
      const form = new FormData();
      form.set('upload_id', `route-test-${id.slice(0, 8)}`);
      form.set('offset', String(offset));
      form.set('is_last', 'false');
      form.set('filename', 'a.txt');
      form.set('file', new Blob(['abc']), 'a.txt');
      return client.request('/api/upload', { method: 'POST', body: form });
    };
    expect((await chunk(0)).status).toBe(200);
    const conflict = await chunk(0);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ message: expect.stringMatching(/offset 3/), code: 'offset_mismatch', offset: 3 });
    expect(conflict.headers.get('upload-offset')).toBe('3');
  });
});
