import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const ADMIN = { email: 'pages-admin@example.test', password: 'pages admin password 1' };
const LEGAL = ['cookie-policy', 'privacy-policy', 'terms-of-service'];
let server: RunningServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Page Admin' } });
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

const html = (p: string) => new Client(server.url).request(p, { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });
const article = (page: string) => /<article class="prose-page[^"]*"[^>]*>([\s\S]*?)<\/article>/.exec(page)?.[1];
const footer = (page: string) => /<footer[\s\S]*<\/footer>/.exec(page)?.[0] ?? '';
const patch = (slug: string, json: unknown) => admin.request(`/api/admin/pages/${slug}`, { method: 'PATCH', json });
const remove = (slug: string) => admin.request(`/api/admin/pages/${slug}`, { method: 'DELETE' });

/** Every page with every field, and the page audit entries: what "nothing changed" compares. */
async function snapshot() {
  const list = await admin.get('/api/admin/pages?limit=100');
  const pages = await Promise.all(list.body.data.map(async (p: { id: string }) => (await admin.get(`/api/admin/pages/${p.id}`)).body.data));
  const audit = await admin.get('/api/admin/audit?target_type=page&limit=100');
  return { pages, audit: audit.body.data.length };
}

async function auditFor(slug: string) {
  return (await admin.get(`/api/admin/audit?target_type=page&target_id=${slug}`)).body.data as { attributes: { action: string; before: any; after: any; actor: { name: string } } }[];
}

describe('admin pages: the screens', () => {
  it('serves /admin/pages, the editor and /admin/pages/new to an admin, and the real 404 below them', async () => {
    for (const path of ['/admin/pages', '/admin/pages/new', '/admin/pages/terms-of-service']) {
      const res = await admin.request(path, { headers: { Accept: 'text/html' }, xrw: false });
      expect(res.status, path).toBe(200);
      expect(res.text).toContain('id="app-config"');
    }
    expect((await admin.request('/admin/pages/a/b', { headers: { Accept: 'text/html' }, xrw: false })).status).toBe(404);
  });
});

describe('admin pages: list and read', () => {
  it('lists the seeded legal pages by slug without their content, keyset-paged', async () => {
    const res = await admin.get('/api/admin/pages');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(LEGAL));
    const terms = res.body.data.find((p: { id: string }) => p.id === 'terms-of-service');
    expect(terms).toMatchObject({ type: 'page', attributes: { title: 'Terms of Service', visible: true, legal: true }, meta: { can_delete: false, can_change_slug: false } });
    expect(terms.attributes.content).toBeUndefined();

    const first = await admin.get('/api/admin/pages?limit=1');
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual(['cookie-policy']);
    const second = await admin.get(`/api/admin/pages?limit=1&cursor=${first.body.meta.next_cursor}`);
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual(['privacy-policy']);
    expect(second.body.links.next).toContain('/api/admin/pages?limit=1&cursor=');
  });

  it('gives one page with its Markdown', async () => {
    const res = await admin.get('/api/admin/pages/privacy-policy');
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.content).toContain('## What we collect');
  });

  it.each([
    ['a bad limit', '?limit=0'],
    ['a limit over 100', '?limit=101'],
    ['a cursor that is not ours', '?cursor=bm90LWpzb24'],
    ['a cursor with a number for a slug', `?cursor=${Buffer.from('[5]').toString('base64url')}`],
  ])('answers %s with 400', async (_, query) => {
    const res = await admin.get(`/api/admin/pages${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/limit|cursor/i);
  });

  it.each(['no-such-page', 'Terms-Of-Service', 'terms_of_service', '%2e%2e%2fetc', 'a%2Fb'])('answers a missing page %s with 404 on GET, PATCH and DELETE', async (slug) => {
    const before = await snapshot();
    for (const res of [await admin.get(`/api/admin/pages/${slug}`), await patch(slug, { title: 'X' }), await remove(slug)]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('The page was not found.');
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('admin pages: create', () => {
  it('creates a page that is at once on the public site and in the footer, and records it', async () => {
    const res = await admin.post('/api/admin/pages', { title: 'About us', slug: 'about-us', content: 'We are **three** people.' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: 'about-us', attributes: { title: 'About us', visible: true, legal: false, content: 'We are **three** people.' }, meta: { can_delete: true } });

    const page = await html('/page/about-us');
    expect(page.status).toBe(200);
    expect(article(page.text)).toContain('We are <strong>three</strong> people.');
    expect(footer((await html('/')).text)).toContain('href="/page/about-us"');

    const [entry] = await auditFor('about-us');
    expect(entry!.attributes).toMatchObject({ action: 'page.create', before: null, after: { slug: 'about-us', title: 'About us', content: 'We are **three** people.', visible: true }, actor: { name: 'Page Admin' } });
  });

  const long = 'a'.repeat(101);
  it.each([
    ['a slug with a slash', { slug: 'legal/terms' }, 'slug', 'only lowercase letters'],
    ['a slug with ..', { slug: '..' }, 'slug', 'only lowercase letters'],
    ['a slug with .. inside', { slug: 'a..b' }, 'slug', 'only lowercase letters'],
    ['a slug with spaces', { slug: 'about us' }, 'slug', 'only lowercase letters'],
    ['an uppercase slug', { slug: 'About-Us' }, 'slug', 'must be lowercase'],
    ['an empty slug', { slug: '   ' }, 'slug', 'is required'],
    ['a missing slug', { slug: undefined }, 'slug', 'is required'],
    ['a slug of 101 characters', { slug: long }, 'slug', 'at most 100'],
    ['a slug with a leading dash', { slug: '-about' }, 'slug', 'only lowercase letters'],
    ['a slug with an underscore', { slug: 'about_us' }, 'slug', 'only lowercase letters'],
    ['a slug that is a number', { slug: 42 }, 'slug', 'must be text'],
    ['the editor’s own slug "new"', { slug: 'new' }, 'slug', 'reserved'],
    ['the preview endpoint’s slug "preview"', { slug: 'preview' }, 'slug', 'reserved'],
    ['a slug that is taken', { slug: 'terms-of-service' }, 'slug', 'already exists'],
    ['an empty title', { title: ' ' }, 'title', 'is required'],
    ['a title of 201 characters', { title: 'T'.repeat(201) }, 'title', 'at most 200'],
    ['content over 100,000 characters', { content: 'x'.repeat(100_001) }, 'content', 'at most 100,000'],
    ['content that is not text', { content: ['a'] }, 'content', 'must be text'],
    ['visible that is not a boolean', { visible: 'yes' }, 'visible', 'true or false'],
  ])('refuses %s with 422 and creates nothing', async (_, change, field, message) => {
    const before = await snapshot();
    const res = await admin.post('/api/admin/pages', { title: 'Fine title', slug: 'fine-slug', content: 'Fine.', ...change });
    expect(res.status).toBe(422);
    expect(res.body.errors[field][0]).toContain(message);
    expect(await snapshot()).toEqual(before);
    expect((await html('/page/fine-slug')).status).toBe(404);
  });

  it('trims the title and slug it is given', async () => {
    const res = await admin.post('/api/admin/pages', { title: '  Imprint ', slug: ' imprint ', content: '' });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ slug: 'imprint', title: 'Imprint', content: '' });
  });
});

describe('admin pages: change', () => {
  it('shows an edited legal page on the public site at once and records before and after', async () => {
    const res = await patch('terms-of-service', { title: 'Terms of Use', content: '## New rules\n\nBe kind.' });
    expect(res.status).toBe(200);
    const page = await html('/page/terms-of-service');
    expect(page.text).toMatch(/<h1[^>]*>Terms of Use<\/h1>/);
    expect(article(page.text)).toBe('<h2>New rules</h2>\n<p>Be kind.</p>\n');
    expect(footer((await html('/')).text)).toContain('>Terms of Use</a>');

    const [entry] = await auditFor('terms-of-service');
    expect(entry!.attributes.action).toBe('page.update');
    expect(entry!.attributes.before).toMatchObject({ title: 'Terms of Service', content: expect.stringContaining('## Your account') });
    expect(entry!.attributes.after).toMatchObject({ title: 'Terms of Use', content: '## New rules\n\nBe kind.', slug: 'terms-of-service' });
  });

  it('lets a legal page be emptied', async () => {
    expect((await patch('cookie-policy', { content: '' })).status).toBe(200);
    const page = await html('/page/cookie-policy');
    expect(page.status).toBe(200);
    expect(article(page.text)).toBe('');
  });

  it('records nothing when nothing changed', async () => {
    const before = await snapshot();
    const current = (await admin.get('/api/admin/pages/privacy-policy')).body.data.attributes;
    expect((await patch('privacy-policy', { title: current.title, content: current.content, visible: true })).status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  it('hides a page from the footer and brings it back', async () => {
    await admin.post('/api/admin/pages', { title: 'Press kit', slug: 'press-kit', content: 'Logos.' });
    expect(footer((await html('/')).text)).toContain('href="/page/press-kit"');
    expect((await patch('press-kit', { visible: false })).body.data.attributes.visible).toBe(false);
    expect(footer((await html('/')).text)).not.toContain('press-kit');
    expect((await html('/page/press-kit')).status).toBe(404);
    expect((await html('/sitemap.xml')).text).not.toContain('press-kit');
    expect((await admin.get('/api/admin/pages/press-kit')).body.data.attributes.visible).toBe(false);
    await patch('press-kit', { visible: true });
    expect(footer((await html('/')).text)).toContain('href="/page/press-kit"');
  });

  it('moves a page to a new slug: the old address is gone, the new one works', async () => {
    await admin.post('/api/admin/pages', { title: 'Jobs', slug: 'jobs', content: 'Join us.' });
    const res = await patch('jobs', { slug: 'careers' });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe('careers');
    expect((await html('/page/jobs')).status).toBe(404);
    expect(article((await html('/page/careers')).text)).toContain('Join us.');
    expect((await admin.get('/api/admin/pages/jobs')).status).toBe(404);
    const [entry] = await auditFor('careers');
    expect(entry!.attributes).toMatchObject({ action: 'page.update', before: { slug: 'jobs' }, after: { slug: 'careers' } });
  });

  it.each([
    ['a slug that is taken', 'careers', { slug: 'about-us' }, 'slug', 'already exists'],
    ['a new slug for a legal page', 'privacy-policy', { slug: 'privacy' }, 'slug', 'keeps its address'],
    ['a slug with a slash', 'careers', { slug: 'a/b' }, 'slug', 'only lowercase letters'],
    ['an uppercase slug', 'careers', { slug: 'Careers' }, 'slug', 'must be lowercase'],
    ['the slug "new"', 'careers', { slug: 'new' }, 'slug', 'reserved'],
    ['an empty title', 'careers', { title: '' }, 'title', 'is required'],
    ['content over 100,000 characters', 'careers', { content: 'x'.repeat(100_001) }, 'content', 'at most 100,000'],
    ['visible as a string', 'careers', { visible: '0' }, 'visible', 'true or false'],
    ['a body with nothing to change', 'careers', {}, '_', 'at least one'],
  ])('refuses %s with 422 and changes nothing', async (_, slug, body, field, message) => {
    const before = await snapshot();
    const res = await patch(slug, body);
    expect(res.status).toBe(422);
    expect(res.body.errors[field][0]).toContain(message);
    expect(await snapshot()).toEqual(before);
  });
});

describe('admin pages: delete', () => {
  it('deletes a page: gone from the site and the footer, recorded with what it was', async () => {
    await admin.post('/api/admin/pages', { title: 'Old news', slug: 'old-news', content: 'Yesterday.' });
    expect((await remove('old-news')).status).toBe(204);
    expect((await html('/page/old-news')).status).toBe(404);
    expect(footer((await html('/')).text)).not.toContain('old-news');
    expect((await admin.get('/api/admin/pages/old-news')).status).toBe(404);
    const [entry] = await auditFor('old-news');
    expect(entry!.attributes).toMatchObject({ action: 'page.delete', before: { slug: 'old-news', title: 'Old news', content: 'Yesterday.' }, after: null });
  });

  it.each(LEGAL)('refuses to delete the legal page %s with 422', async (slug) => {
    const before = await snapshot();
    const res = await remove(slug);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('cannot be deleted');
    expect(await snapshot()).toEqual(before);
    expect((await html(`/page/${slug}`)).status).toBe(200);
  });
});

describe('admin pages: Markdown is made safe, the same way in the preview and on the site', () => {
  const HOSTILE = [
    'Hi <script>alert(1)</script> <img src=x onerror=alert(2)>',
    '',
    '<iframe src="https://evil.example"></iframe>',
    '',
    '[click](javascript:alert(3)) [again](JAVASCRIPT:alert(4)) [data](data:text/html;base64,PHNjcmlwdD4=) [ok](https://example.com)',
    '',
    '<a href="javascript:alert(5)">raw link</a>',
  ].join('\n');

  const expectInert = (out: string) => {
    // Every tag in the output is one Markdown made: no raw tag, no script URL, no event handler.
    expect(out).not.toMatch(/<(script|img|iframe)\b/i);
    expect(out.toLowerCase()).not.toMatch(/href="(javascript|data):/);
    expect([...out.matchAll(/<a ([^>]*)>/g)].map((m) => m[1])).toEqual(['href="https://evil.example" rel="nofollow noopener noreferrer"', 'href="https://example.com" rel="nofollow noopener noreferrer"']);
    expect(out).toContain('&lt;script&gt;');
    expect(out).toContain('<a href="https://example.com" rel="nofollow noopener noreferrer">ok</a>');
  };

  it('renders the preview with the public page’s renderer: the same HTML, inert', async () => {
    const preview = await admin.post('/api/admin/pages/preview', { content: HOSTILE });
    expect(preview.status).toBe(200);
    expectInert(preview.body.data.html);

    expect((await admin.post('/api/admin/pages', { title: 'Hostile', slug: 'hostile', content: HOSTILE })).status).toBe(201);
    const page = await html('/page/hostile');
    expect(page.status).toBe(200);
    expectInert(article(page.text)!);
    expect(article(page.text)).toBe(preview.body.data.html);
  });

  it('previews the seeded cookie table exactly as the public page shows it', async () => {
    const content = (await admin.get('/api/admin/pages/privacy-policy')).body.data.attributes.content;
    const preview = await admin.post('/api/admin/pages/preview', { content });
    expect(preview.body.data.html).toBe(article((await html('/page/privacy-policy')).text));
  });

  it.each([
    ['no content', {}, 'must be text'],
    ['content that is not text', { content: 5 }, 'must be text'],
    ['content over 100,000 characters', { content: 'x'.repeat(100_001) }, 'at most 100,000'],
  ])('refuses a preview of %s with 422', async (_, body, message) => {
    const res = await admin.post('/api/admin/pages/preview', body);
    expect(res.status).toBe(422);
    expect(res.body.errors.content[0]).toContain(message);
  });
});
