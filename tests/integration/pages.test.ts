import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const html = (client: Client, path: string) => client.request(path, { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });

describe('route guard', () => {
  it.each(['/platform/files', '/platform/files/abc?sort=name', '/user/profile', '/admin/dashboard'])('sends a signed-out visitor on %s to sign-in with the full path', async (path) => {
    const res = await html(new Client(server.url), path);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/sign-in?redirect=${encodeURIComponent(path)}`);
    expect(res.text).toBe('');
  });

  it('sends a non-admin away from the admin area', async () => {
    const { client } = await registerUser(server.url);
    const res = await html(client, '/admin/dashboard');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/platform/files');
  });

  it('returns to the guarded page after a form sign-in, and only to a same-origin path', async () => {
    const { email, password } = await registerUser(server.url);
    const form = (redirect: string) =>
      new Client(server.url).request('/login', { method: 'POST', form: { email, password, redirect }, headers: { Accept: 'text/html' }, xrw: false });
    expect((await form('/platform/files/abc?sort=name')).headers.get('location')).toBe('/platform/files/abc?sort=name');
    expect((await form('https://evil.example/steal')).headers.get('location')).toBe('/platform/files');
    expect((await form('//evil.example')).headers.get('location')).toBe('/platform/files');
  });

  it('keeps the redirect when a form sign-in is refused', async () => {
    const res = await new Client(server.url).request('/login', {
      method: 'POST',
      form: { email: 'nobody@example.test', password: 'nope nope', redirect: '/user/profile' },
      headers: { Accept: 'text/html' },
      xrw: false,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/sign-in?redirect=${encodeURIComponent('/user/profile')}`);
  });
});

describe('pages', () => {
  it.each(['/', '/sign-in', '/sign-up', '/forgotten-password', '/create-new-password?token=x&email=a%40b.c', '/successfully-verified', '/successfully-send'])('renders %s as HTML with security headers', async (path) => {
    const res = await html(new Client(server.url), path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.text).toContain('<title>');
  });

  it('answers an unknown path with the 404 page and status', async () => {
    const res = await html(new Client(server.url), '/definitely/not/here');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Page not found');
  });

  it('answers an unknown API path with JSON 404', async () => {
    const res = await new Client(server.url).get('/api/no-such-endpoint');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found.' });
  });

  it('shows a refused form its errors and old input, never the password', async () => {
    const client = new Client(server.url);
    await client.request('/register', {
      method: 'POST',
      form: { name: 'Form Person', email: 'broken-email', password: 'secret password', password_confirmation: 'secret password' },
      headers: { Accept: 'text/html' },
      xrw: false,
    });
    const page = await html(client, '/sign-up');
    expect(page.text).toContain('The email must be a valid email address.');
    expect(page.text).toContain('value="Form Person"');
    expect(page.text).not.toContain('secret password');
    // The message shows once.
    expect((await html(client, '/sign-up')).text).not.toContain('The email must be a valid email address.');
  });

  it('injects the config object of SPEC §3 into every page', async () => {
    const config = (text: string) => JSON.parse(text.match(/<script type="application\/json" id="app-config">(.*?)<\/script>/s)![1]!);
    const anonymous = config((await html(new Client(server.url), '/')).text);
    expect(anonymous).toMatchObject({ isAuthenticated: false, locale: 'en', defaultThemeMode: 'system', subscriptionType: 'none', host: server.url, api: `${server.url}/api` });
    for (const key of ['storageLimit', 'chunkSize', 'uploadLimit', 'mimetypesBlacklist', 'defaultEmoji', 'allowedRecaptcha', 'broadcasting', 'stripe_public_key', 'paystack_public_key', 'paypal_client_id']) {
      expect(anonymous).toHaveProperty(key);
    }
    const { client } = await registerUser(server.url);
    expect(config((await html(client, '/')).text).isAuthenticated).toBe(true);
  });

  it('speaks the browser’s language when no locale cookie says otherwise', async () => {
    const page = (headers: Record<string, string>) => new Client(server.url).request('/', { method: 'GET', headers: { Accept: 'text/html', ...headers }, xrw: false });
    const lang = (text: string) => text.match(/<html[^>]* lang="([a-z]+)"/)?.[1];
    expect(lang((await page({ 'Accept-Language': 'de-AT,de;q=0.9,en;q=0.8' })).text)).toBe('de');
    expect(lang((await page({ 'Accept-Language': 'fr-FR,fr;q=0.9,de;q=0.5' })).text)).toBe('de');
    expect(lang((await page({ 'Accept-Language': 'fr-FR,fr;q=0.9' })).text)).toBe('en');
    expect(lang((await page({ 'Accept-Language': 'de;q=0.2,en;q=0.9' })).text)).toBe('en');
    // The cookie a person picked wins over the browser.
    expect(lang((await page({ 'Accept-Language': 'de', Cookie: 'locale=en' })).text)).toBe('en');
  });

  it('serves built assets with long caching for hashed files', async () => {
    const page = await html(new Client(server.url), '/sign-in');
    const css = page.text.match(/href="(\/_astro\/[^"]+\.css)"/)?.[1];
    expect(css).toBeDefined();
    const res = await fetch(server.url + css);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    const icon = await fetch(server.url + '/favicon.svg');
    expect(icon.headers.get('cache-control')).toContain('must-revalidate');
  });

  it('serves the JavaScript and CSS pre-compressed (brotli, else gzip) by Accept-Encoding', async () => {
    const page = await html(new Client(server.url), '/sign-in');
    const css = page.text.match(/href="(\/_astro\/[^"]+\.css)"/)?.[1] ?? page.text.match(/src="(\/_astro\/[^"]+\.js)"/)?.[1];
    expect(css).toBeDefined();
    const raw = async (encoding: string | null) => {
      const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
        http.get(server.url + css, { headers: encoding ? { 'Accept-Encoding': encoding } : {} }, resolve).on('error', reject),
      );
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      return { headers: res.headers, body: Buffer.concat(chunks) };
    };
    const plain = await raw(null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length);
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });
});

describe('translations', () => {
  it('returns the effective catalogue with dotted keys', async () => {
    const res = await new Client(server.url).get('/translations/en');
    expect(res.status).toBe(200);
    expect(res.body['locations.home']).toBe('Files');
    const de = await new Client(server.url).get('/translations/de');
    expect(de.status).toBe(200);
    expect(Object.keys(de.body).sort()).toEqual(Object.keys(res.body).sort());
  });

  it.each(['xx', 'en.json', '__proto__', 'constructor'])('answers 404 for the unknown locale %s', async (locale) => {
    expect((await new Client(server.url).get(`/translations/${encodeURIComponent(locale)}`)).status).toBe(404);
  });
});
