import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/server/auth/service.ts';
import { putSetting, putSettings } from '../../src/server/settings/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();
const html = (client: Client, p: string) => client.request(p, { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });
const outbox = () => {
  const file = path.join(env.server.dataDir, 'mail', 'outbox.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string>) : [];
};
const valid = { name: 'Vera Visitor', email: 'vera@example.test', message: 'Hello, I have a question about plans.' };
const contactMails = () => outbox().filter((m) => m.subject?.startsWith('Contact form'));

describe('homepage and pages', () => {
  it('renders the homepage with the app name, meta tags and the pages in the footer', async () => {
    await putSettings(env.seed, { app_name: 'Site Drive', home_title: 'Store it all here' });
    const res = await html(new Client(env.server.url), '/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Site Drive</title>');
    expect(res.text).toContain('Store it all here');
    expect(res.text).toMatch(/<meta name="description" content="[^"]+"/);
    expect(res.text).toContain('property="og:title"');
    expect(res.text).toContain(`<link rel="canonical" href="${env.server.url}/"`);
    for (const slug of ['terms-of-service', 'privacy-policy', 'cookie-policy']) expect(res.text).toContain(`href="/page/${slug}"`);
  });

  it('applies a brand colour only when it is a plain #rrggbb', async () => {
    await putSetting(env.seed, 'brand_color', '#0a7c5a');
    expect((await html(new Client(env.server.url), '/')).text).toContain('--brand:#0a7c5a');
    await putSetting(env.seed, 'brand_color', 'red}</style><script>alert(1)</script>');
    const res = await html(new Client(env.server.url), '/');
    expect(res.text).not.toContain('alert(1)');
    expect(res.text).not.toContain('--brand:red');
    await putSetting(env.seed, 'brand_color', '');
  });

  it.each(['terms-of-service', 'privacy-policy', 'cookie-policy'])('serves the seeded page %s', async (slug) => {
    const res = await html(new Client(env.server.url), `/page/${slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<h1[^>]*>[A-Z][a-z]+ (of Service|Policy)<\/h1>/);
    expect(res.text).toMatch(/<h2>|<table>/);
  });

  it.each(['/page/..%2F..%2Fetc%2Fpasswd', '/page/%2e%2e%2fsecret', '/page/terms-of-service..', '/page/Terms-Of-Service', '/page/terms-of-service%00', '/page/terms_of_service', '/page/a/b', '/page/-terms', '/page/nope'])('answers %s with 404', async (p) => {
    const res = await html(new Client(env.server.url), p);
    expect(res.status).toBe(404);
  });

  it('strips anything dangerous from a page', async () => {
    const now = new Date().toISOString();
    await env.seed.db
      .insertInto('pages')
      .values({ slug: 'hostile', title: 'Hostile', content: 'Hi <script>alert(1)</script> <img src=x onerror=alert(2)>\n\n[click](javascript:alert(3)) [ok](https://example.com)', visible: 1, created_at: now, updated_at: now })
      .execute();
    const res = await html(new Client(env.server.url), '/page/hostile');
    expect(res.status).toBe(200);
    const article = /<article[^>]*>([\s\S]*?)<\/article>/.exec(res.text)![1]!;
    expect(article).not.toMatch(/<script|<img|href="javascript:/i);
    expect(article).toContain('&lt;script&gt;');
    expect(article).toContain('href="https://example.com" rel="nofollow noopener noreferrer"');
  });

  it('hides a page that is not visible', async () => {
    await env.seed.db.updateTable('pages').set({ visible: 0 }).where('slug', '=', 'hostile').execute();
    expect((await html(new Client(env.server.url), '/page/hostile')).status).toBe(404);
  });

  it('serves sitemap.xml and robots.txt', async () => {
    const sitemap = await html(new Client(env.server.url), '/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toContain('application/xml');
    expect(sitemap.text).toContain(`<loc>${env.server.url}/page/privacy-policy</loc>`);
    expect(sitemap.text).not.toContain('hostile');
    const robots = await html(new Client(env.server.url), '/robots.txt');
    expect(robots.text).toContain(`Sitemap: ${env.server.url}/sitemap.xml`);
    expect(robots.text).toContain('Disallow: /api/');
  });

  it('serves /favicon.ico for clients that ask for it without reading the page', async () => {
    const res = await fetch(`${env.server.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.readUInt16LE(2)).toBe(1); // an icon resource
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  });
});

describe('contact form', () => {
  beforeAll(async () => {
    await putSetting(env.seed, 'contact_email', 'contact@site.test');
  });

  it('mails the contact address and lands on /successfully-send', async () => {
    const res = await new Client(env.server.url).request('/contact', { method: 'POST', form: { ...valid, website: '' }, headers: { Accept: 'text/html' }, xrw: false });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/successfully-send');
    const mail = contactMails().at(-1)!;
    expect(mail).toMatchObject({ to: 'contact@site.test', replyTo: 'vera@example.test', subject: 'Contact form: Vera Visitor' });
    expect(mail.text).toContain('Hello, I have a question about plans.');
  });

  it.each([
    ['a missing message', { ...valid, message: '' }, 'message'],
    ['a whitespace message', { ...valid, message: '   ' }, 'message'],
    ['a huge message', { ...valid, message: 'x'.repeat(5001) }, 'message'],
    ['CR/LF in the name', { ...valid, name: 'Vera\r\nBcc: victim@example.test' }, 'name'],
    ['LF at the end of the name', { ...valid, name: 'Vera\n' }, 'name'],
    ['CR/LF in the email', { ...valid, email: 'vera@example.test\r\nBcc: victim@example.test' }, 'email'],
    ['a bad email', { ...valid, email: 'not-an-email' }, 'email'],
    ['a filled honeypot', { ...valid, website: 'http://spam.example' }, 'website'],
  ])('refuses %s and sends nothing', async (_, body, field) => {
    const before = contactMails().length;
    const res = await new Client(env.server.url).post('/contact', body);
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toBeDefined();
    expect(contactMails().length).toBe(before);
  });

  it('sends a refused plain form back to the page with its errors', async () => {
    const client = new Client(env.server.url);
    const res = await client.request('/contact', { method: 'POST', form: { ...valid, message: '' }, headers: { Accept: 'text/html' }, xrw: false });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/contact-us');
    const page = await html(client, '/contact-us');
    expect(page.text).toContain('The message field is required.');
    expect(page.text).toContain('value="Vera Visitor"');
    // The message typed is kept when another field was refused.
    await client.request('/contact', { method: 'POST', form: { ...valid, email: 'broken', message: 'Keep <this> text' }, headers: { Accept: 'text/html' }, xrw: false });
    expect((await html(client, '/contact-us')).text).toContain('>Keep &lt;this&gt; text</textarea>');
  });
});

describe('maintenance mode', () => {
  let admin: Client;
  beforeAll(async () => {
    await createUser(env.seed, { name: 'Site Admin', email: 'site-admin@example.test', password: 'site admin password', role: 'admin', verified: true });
    admin = new Client(env.server.url);
    expect((await admin.post('/login', { email: 'site-admin@example.test', password: 'site admin password' })).status).toBe(200);
    await putSettings(env.seed, { maintenance_mode: true, maintenance_retry_after_seconds: 600 });
  });
  afterAll(async () => {
    await putSetting(env.seed, 'maintenance_mode', false);
  });

  it.each(['/', '/page/terms-of-service', '/contact-us', '/sign-up', '/platform/files', '/temporary-unavailable'])('answers a visitor on %s with 503 and Retry-After', async (p) => {
    const res = await html(new Client(env.server.url), p);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('600');
    expect(res.text).toContain('We will be right back');
  });

  it('answers the API with JSON 503, even for a signed-in user', async () => {
    const { client } = await (async () => {
      await putSetting(env.seed, 'maintenance_mode', false);
      const u = await registerUser(env.server.url);
      await putSetting(env.seed, 'maintenance_mode', true);
      return u;
    })();
    const res = await client.get('/api/user');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('maintenance');
    expect((await new Client(env.server.url).post('/contact', valid)).status).toBe(503);
    // The data plane too: downloads and uploads.
    const upload = await client.request('/api/upload?filename=a.txt', { method: 'POST', body: 'bytes', headers: { 'Content-Type': 'application/octet-stream' } });
    expect(upload.status).toBe(503);
    expect(upload.headers.get('retry-after')).toBe('600');
    expect((await client.get('/file/00000000-0000-0000-0000-000000000000')).status).toBe(503);
  });

  it('still lets the admin sign in and use everything', async () => {
    expect((await html(new Client(env.server.url), '/sign-in')).status).toBe(200);
    expect((await html(admin, '/')).status).toBe(200);
    expect((await html(admin, '/admin/dashboard')).status).toBe(200);
    expect((await admin.get('/api/user')).status).toBe(200);
    expect((await admin.get('/file/00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });

  it('renders /temporary-unavailable once maintenance is over too: a page that says so, with a way home', async () => {
    await putSetting(env.seed, 'maintenance_mode', false);
    const res = await html(new Client(env.server.url), '/temporary-unavailable');
    expect(res.status).toBe(200);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.text).toContain('We are back');
    expect(res.text).toContain('href="/"');
  });
});
