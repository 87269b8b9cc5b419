import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../../messages/de.json' with { type: 'json' };
import { getSettings } from '../../src/server/settings/service.ts';
import { storedMailConfig } from '../../src/server/settings/mail.ts';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { withSeed } from '../support/seed.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

const ADMIN = { email: 'owner@example.test', password: 'owner password 1' };
let server: RunningServer;
let admin: Client;
let member: Client;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Owner' } });
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
  member = (await registerUser(server.url)).client;
});
afterAll(async () => {
  await server?.stop();
});

const put = (group: string, json: unknown, client = admin) => client.request(`/api/admin/settings/${group}`, { method: 'PUT', json });
const get = (group: string, client = admin) => client.get(`/api/admin/settings/${group}`);
const page = async (url: string, client = new Client(server.url), headers: Record<string, string> = {}) =>
  (await client.request(url, { headers: { Accept: 'text/html', ...headers }, xrw: false })).text;
/** The config object a page hands the client (SPEC §3). */
const pageConfig = async (url = '/sign-in') => JSON.parse(/id="app-config"[^>]*>(.*?)<\/script>/s.exec(await page(url))![1]!);

async function newestAudit(group: string) {
  const res = await admin.get(`/api/admin/audit?target_type=setting&target_id=${group}`);
  expect(res.status).toBe(200);
  return res.body.data[0]?.attributes;
}

/** Each refused input answers 422 naming the field, and the group reads the same afterwards. */
async function expectRefused(group: string, cases: [Record<string, unknown>, string][]) {
  const before = (await get(group)).body;
  for (const [body, field] of cases) {
    const res = await put(group, body);
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(Object.keys(res.body.errors), JSON.stringify(body)).toContain(field);
    expect(typeof res.body.message).toBe('string');
  }
  expect((await get(group)).body).toEqual(before);
}

const imageForm = (slot: string, bytes: Buffer | null, name = 'image.png', type = 'image/png') => {
  const form = new FormData();
  form.append('slot', slot);
  if (bytes) form.append('image', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};
const upload = (form: FormData, client = admin) => client.request('/api/admin/settings/appearance/images', { method: 'POST', body: form });
const png = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: '#e11d48' } }).png().toBuffer();

describe('appearance', () => {
  it('round-trips and shows at once on the homepage, in the page config and in the audit log', async () => {
    const values = { app_name: 'Acme Files', app_description: 'Files for the Acme team.', brand_color: '#12AB56', default_theme_mode: 'dark', default_emoji: 'applemoji' };
    const res = await put('appearance', values);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ ...values, brand_color: '#12ab56' });
    expect((await get('appearance')).body.data.attributes).toMatchObject({ ...values, brand_color: '#12ab56' });

    const home = await page('/');
    expect(home).toContain('Acme Files');
    expect(home).toContain('data-theme-default="dark"');
    expect(home).toContain('--brand:#12ab56');
    const config = await pageConfig();
    expect(config.app).toMatchObject({ name: 'Acme Files', description: 'Files for the Acme team.' });
    expect(config).toMatchObject({ defaultThemeMode: 'dark', defaultEmoji: 'applemoji' });

    const entry = await newestAudit('appearance');
    expect(entry).toMatchObject({ action: 'setting.update', target: { type: 'setting', id: 'appearance', label: 'appearance' } });
    expect(entry.before).toEqual({ app_name: 'Cloud Drive', app_description: 'Your files, in your cloud.', brand_color: '', default_theme_mode: 'system', default_emoji: 'twemoji' });
    expect(entry.after).toEqual({ ...values, brand_color: '#12ab56' });
  });

  it('changes only the fields sent, and records nothing when nothing changed', async () => {
    const count = async () => (await admin.get('/api/admin/audit?target_type=setting&target_id=appearance&limit=100')).body.data.length;
    const audits = await count();
    expect((await put('appearance', { app_name: 'Acme Files' })).status).toBe(200);
    expect((await put('appearance', {})).status).toBe(200);
    expect(await count()).toBe(audits);
    expect((await put('appearance', { default_emoji: 'twemoji' })).body.data.attributes).toMatchObject({ app_name: 'Acme Files', default_emoji: 'twemoji', default_theme_mode: 'dark' });
    expect((await newestAudit('appearance')).after).toEqual({ default_emoji: 'twemoji' });
  });

  it('refuses bad values and unknown fields with 422, changing nothing', async () => {
    await expectRefused('appearance', [
      [{ brand_color: 'red' }, 'brand_color'],
      [{ brand_color: '#12345' }, 'brand_color'],
      [{ brand_color: '#1234567' }, 'brand_color'],
      [{ default_theme_mode: 'blue' }, 'default_theme_mode'],
      [{ default_emoji: 'noto' }, 'default_emoji'],
      [{ app_name: '' }, 'app_name'],
      [{ app_name: '   ' }, 'app_name'],
      [{ app_name: 'x'.repeat(61) }, 'app_name'],
      [{ app_name: 42 }, 'app_name'],
      [{ app_description: 'x'.repeat(301) }, 'app_description'],
      [{ logo_horizontal: 'javascript:alert(1)' }, 'logo_horizontal'],
      [{ logo_horizontal_dark: 'http://plain.example/logo.png' }, 'logo_horizontal_dark'],
      [{ favicon: 'https://elsewhere.example/icon.png' }, 'favicon'],
      [{ app_name: 'Fine', colour: '#123456' }, 'colour'],
      [{ registration_open: false }, 'registration_open'],
    ]);
  });

  it('takes a logo upload checked by its content, serves it and shows it at once', async () => {
    const res = await upload(imageForm('logo_horizontal', await png(320, 64), 'wide.bin', 'application/octet-stream'));
    expect(res.status).toBe(200);
    const logo: string = res.body.data.attributes.logo_horizontal;
    expect(logo).toMatch(/^\/branding\/[0-9a-f]{32}\.png$/);
    const served = await fetch(server.url + logo);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(await page('/')).toContain(`src="${logo}"`);
    expect((await pageConfig()).app.logo.horizontal).toBe(logo);
    expect((await newestAudit('appearance')).after).toEqual({ logo_horizontal: logo });

    const dark = await upload(imageForm('logo_horizontal_dark', await sharp({ create: { width: 200, height: 50, channels: 3, background: '#fff' } }).jpeg().toBuffer(), 'dark.jpg', 'image/jpeg'));
    expect(dark.status).toBe(200);
    expect(dark.body.data.attributes.logo_horizontal_dark).toMatch(/^\/branding\/[0-9a-f]{32}\.jpg$/);
    expect((await put('appearance', { logo_horizontal_dark: '' })).body.data.attributes).toMatchObject({ logo_horizontal: logo, logo_horizontal_dark: '' });
  });

  it('refuses an upload that is not an image (422) or over 1 MB (413), changing nothing', async () => {
    const before = (await get('appearance')).body;
    const refusals: [FormData, number][] = [
      [imageForm('logo_horizontal', Buffer.from('just some text'), 'logo.png', 'image/png'), 422],
      [imageForm('logo_horizontal', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 'image/svg+xml'), 422],
      [imageForm('favicon', Buffer.from('GIF89a not really'), 'icon.gif', 'image/gif'), 422],
      [imageForm('logo_horizontal', Buffer.concat([await png(8, 8), Buffer.alloc(1024 * 1024)])), 413],
      [imageForm('logo_horizontal', null), 422],
      [imageForm('background', await png(8, 8)), 422],
    ];
    for (const [form, status] of refusals) {
      const res = await upload(form);
      expect(res.status).toBe(status);
      expect(res.body.message).toBeTruthy();
    }
    expect((await get('appearance')).body).toEqual(before);
    expect((await upload(imageForm('logo_horizontal', await png(8, 8)), member)).status).toBe(403);
  });

  it('makes an uploaded icon a 64 pixel PNG served at /favicon.ico, and the built-in icon once removed', async () => {
    const res = await upload(imageForm('favicon', await sharp({ create: { width: 300, height: 200, channels: 3, background: '#0ea5e9' } }).webp().toBuffer(), 'icon.webp', 'image/webp'));
    expect(res.status).toBe(200);
    const favicon: string = res.body.data.attributes.favicon;
    expect(favicon).toMatch(/^\/branding\/[0-9a-f]{32}\.png$/);
    expect(await page('/')).toContain(`<link rel="icon" href="${favicon}" type="image/png"`);

    const icon = await fetch(`${server.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await icon.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 64, height: 64 });
    const etag = icon.headers.get('etag')!;
    expect((await fetch(`${server.url}/favicon.ico`, { headers: { 'If-None-Match': etag } })).status).toBe(304);

    expect((await put('appearance', { favicon: '' })).status).toBe(200);
    const builtIn = await fetch(`${server.url}/favicon.ico`);
    expect(builtIn.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await builtIn.arrayBuffer()).readUInt16LE(2)).toBe(1); // an icon resource
    expect(await page('/')).toContain('<link rel="icon" href="/favicon.svg"');
  });
});

describe('homepage', () => {
  it('round-trips the texts, cards and sections, and the homepage shows them at once', async () => {
    const values = {
      home_title: 'Everything in one place',
      home_subtitle: 'Store, share and find your files.',
      home_features: [
        { icon: 'shield', title: 'Private by default', text: 'Only you see your files.' },
        { icon: 'image', title: 'Photo previews', text: '' },
      ],
      home_show_preview: false,
      home_show_features: true,
      home_show_cta: false,
      home_show_pricing: false,
    };
    const res = await put('homepage', values);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toEqual(values);
    expect((await get('homepage')).body.data.attributes).toEqual(values);
    let home = await page('/');
    for (const text of ['Everything in one place', 'Store, share and find your files.', 'Private by default', 'Photo previews']) expect(home).toContain(text);
    expect(home).toContain('aria-labelledby="features"');
    expect(home).not.toContain('data-section="cta"');
    expect(home).not.toContain('Quarterly report.pdf'); // the preview's sample file

    await put('homepage', { home_show_features: false, home_show_cta: true, home_show_preview: true, home_features: [] });
    home = await page('/');
    expect(home).not.toContain('aria-labelledby="features"');
    expect(home).toContain('data-section="cta"');
    expect(home).toContain('Quarterly report.pdf');
    expect((await newestAudit('homepage')).after).toEqual({ home_show_features: false, home_show_cta: true, home_show_preview: true, home_features: [] });

    // Empty texts fall back to the built-in ones, in the visitor's language.
    await put('homepage', { home_title: '', home_subtitle: '', home_show_features: true });
    expect(await page('/', new Client(server.url), { 'Accept-Language': 'de' })).toContain(`>${de.home.title}</h1>`);
  });

  it('refuses bad values with 422, changing nothing', async () => {
    const card = { icon: 'folder', title: 'Folders', text: 'Nested folders.' };
    await expectRefused('homepage', [
      [{ home_title: 'x'.repeat(121) }, 'home_title'],
      [{ home_subtitle: 7 }, 'home_subtitle'],
      [{ home_features: 'cards' }, 'home_features'],
      [{ home_features: Array.from({ length: 9 }, () => card) }, 'home_features'],
      [{ home_features: [{ ...card, icon: 'rocket' }] }, 'home_features.0.icon'],
      [{ home_features: [card, { ...card, title: '' }] }, 'home_features.1.title'],
      [{ home_features: [{ ...card, text: 'x'.repeat(301) }] }, 'home_features.0.text'],
      [{ home_features: [{ ...card, href: 'https://x.example' }] }, 'home_features.0'],
      [{ home_show_cta: 'yes' }, 'home_show_cta'],
      [{ home_show_preview: 1 }, 'home_show_preview'],
      [{ home_sections: {} }, 'home_sections'],
    ]);
  });
});

async function outbox(): Promise<{ to: string; subject: string; from: string }[]> {
  const raw = await readFile(path.join(server.dataDir, 'mail', 'outbox.jsonl'), 'utf8').catch(() => '');
  return raw.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

describe('email', () => {
  const SMTP = { driver: 'smtp', host: 'smtp.example.test', port: 587, username: 'mailer', password: 'a very secret mail password', encryption: 'tls', from_address: 'Robot@Acme.test', from_name: 'Acme Robot' };

  it('shows the environment settings until saved, and never answers the password', async () => {
    const res = await get('email');
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ source: 'environment', driver: 'log', password_set: false });
    expect(res.body.data.attributes).not.toHaveProperty('password');
    expect(res.body.meta).toEqual({ drivers: ['smtp', 'mailgun', 'ses', 'postmark', 'log'], encryptions: ['tls', 'ssl', 'none'] });
  });

  it('stores the driver, keeps a write-only password, and redacts it in the audit log', async () => {
    const saved = await put('email', SMTP);
    expect(saved.status).toBe(200);
    expect(saved.body.data.attributes).toEqual({ ...SMTP, password: undefined, from_address: 'robot@acme.test', password_set: true, source: 'settings' });
    expect(saved.text).not.toContain(SMTP.password);
    expect((await get('email')).text).not.toContain(SMTP.password);

    // Without a password (or with an empty one), the saved one stays.
    expect((await put('email', { from_name: 'Acme Mailer' })).status).toBe(200);
    expect((await put('email', { username: 'mailer2', password: '' })).status).toBe(200);
    // Stored sealed with the instance key, as every other secret; the mailer opens it.
    const stored = await withSeed(server, async (seed) => (await getSettings(seed)).mail);
    expect(stored).toMatchObject({ from_name: 'Acme Mailer', username: 'mailer2' });
    expect(JSON.stringify(stored)).not.toContain(SMTP.password);
    expect(await withSeed(server, async (seed) => (await storedMailConfig(seed))?.password)).toBe(SMTP.password);
    expect((await put('email', { password: 'the next password' })).body.data.attributes.password_set).toBe(true);
    expect(JSON.stringify(await withSeed(server, async (seed) => (await getSettings(seed)).mail))).not.toContain('the next password');
    expect(await withSeed(server, async (seed) => (await storedMailConfig(seed))?.password)).toBe('the next password');

    const log = await admin.get('/api/admin/audit?target_type=setting&target_id=email');
    expect(log.text).not.toContain(SMTP.password);
    expect(log.text).not.toContain('the next password');
    expect(log.body.data[0].attributes.after.mail.password).toBe('[redacted]');
  });

  it('applies at once: the product\'s next mail goes out through the saved driver and sender', async () => {
    expect((await put('email', { driver: 'log', from_address: 'system@acme.test' })).status).toBe(200);
    expect((await new Client(server.url).post('/forgot-password', { email: ADMIN.email })).status).toBe(200);
    await expect.poll(async () => (await outbox()).filter((m) => m.to === ADMIN.email).at(-1)?.from).toBe('system@acme.test');
  });

  it('sends a test mail with the log driver, with the form\'s fields over the saved ones, saving nothing', async () => {
    const to = uniqueEmail('test-mail');
    const res = await admin.post('/api/admin/settings/email/test', { test_email: to });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sent_to: to });
    const mail = (await outbox()).find((m) => m.to === to);
    expect(mail).toMatchObject({ from: 'system@acme.test', subject: expect.stringContaining('Test email') });

    const other = uniqueEmail('test-mail');
    expect((await admin.post('/api/admin/settings/email/test', { test_email: other, from_address: 'trial@acme.test' })).status).toBe(200);
    expect((await outbox()).find((m) => m.to === other)?.from).toBe('trial@acme.test');
    expect((await get('email')).body.data.attributes.from_address).toBe('system@acme.test');
  });

  it('answers a test mail the server refuses with 422 and the reason', async () => {
    const port = await freePort(); // nothing listens there
    const res = await admin.post('/api/admin/settings/email/test', { test_email: uniqueEmail(), driver: 'smtp', host: '127.0.0.1', port, encryption: 'none', from_address: 'a@acme.test' });
    expect(res.status).toBe(422);
    expect(res.body.errors.test_email[0]).toMatch(/could not be sent/);
    for (const [body, field] of [
      [{}, 'test_email'],
      [{ test_email: 'not an address' }, 'test_email'],
      [{ test_email: 'ok@example.test', port: 0 }, 'port'],
      [{ test_email: 'ok@example.test', mailer: 'x' }, 'mailer'],
    ] as const) {
      const refused = await admin.post('/api/admin/settings/email/test', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(refused.body.errors)).toContain(field);
    }
    expect((await member.post('/api/admin/settings/email/test', { test_email: 'x@example.test' })).status).toBe(403);
  });

  it('refuses bad values with 422, changing nothing', async () => {
    await expectRefused('email', [
      [{ driver: 'sendmail' }, 'driver'],
      [{ port: 0 }, 'port'],
      [{ port: 70000 }, 'port'],
      [{ port: '25x' }, 'port'],
      [{ port: 25.5 }, 'port'],
      [{ encryption: 'starttls' }, 'encryption'],
      [{ from_address: 'nope' }, 'from_address'],
      [{ from_name: '' }, 'from_name'],
      [{ driver: 'smtp', host: '' }, 'host'],
      [{ driver: 'smtp', host: 'bad host; rm -rf' }, 'host'],
      [{ driver: 'smtp', host: 'smtp.example.test', from_address: '' }, 'from_address'],
      [{ password: 12345 }, 'password'],
      [{ password_set: false }, 'password_set'],
    ]);
  });
});

describe('others', () => {
  it('round-trips every field and normalises the blocked types', async () => {
    const values = {
      default_storage_limit_bytes: 2 * 1024 ** 3,
      upload_limit_bytes: 100 * 1024 ** 2,
      chunk_size_bytes: 16 * 1024 ** 2,
      mimetypes_blacklist: ['.EXE', 'video/*', 'application/x-msdownload', 'exe'],
      trash_retention_days: 7,
      registration_open: true,
      email_verification_required: true,
      locale: 'de',
      cookie_notice: false,
      max_team_members: 25,
      team_invitation_expiry_days: 7,
      subscription_type: 'none',
      s3_presigned_downloads: true,
      maintenance_mode: false,
      maintenance_retry_after_seconds: 1800,
    };
    const res = await put('others', values);
    expect(res.status).toBe(200);
    const expected = { ...values, mimetypes_blacklist: ['exe', 'video/*', 'application/x-msdownload'] };
    expect(res.body.data.attributes).toEqual(expected);
    expect((await get('others')).body.data.attributes).toEqual(expected);
    const config = await pageConfig();
    expect(config).toMatchObject({ storageLimit: 2 * 1024 ** 3, uploadLimit: 100 * 1024 ** 2, chunkSize: 16 * 1024 ** 2, mimetypesBlacklist: expected.mimetypes_blacklist, cookieNotice: false, emailVerificationRequired: true });
    // The default language serves a visitor whose browser names none we speak.
    expect(await page('/sign-in', new Client(server.url), { 'Accept-Language': 'fr' })).toContain('<html lang="de"');
    await put('others', { locale: 'en', email_verification_required: false, cookie_notice: true });
    expect(await page('/sign-in', new Client(server.url), { 'Accept-Language': 'fr' })).toContain('<html lang="en"');
  });

  it('maintenance mode from the settings: visitors get 503 with the expected time, the admin goes on working', async () => {
    try {
      expect((await put('others', { maintenance_mode: true, maintenance_retry_after_seconds: 900 })).status).toBe(200);
      const visitor = await new Client(server.url).request('/sign-up', { headers: { Accept: 'text/html' } });
      expect(visitor.status).toBe(503);
      expect(visitor.headers.get('retry-after')).toBe('900');
      expect((await get('others')).status).toBe(200);
    } finally {
      await put('others', { maintenance_mode: false, maintenance_retry_after_seconds: 3600 });
    }
    expect((await new Client(server.url).request('/sign-up', { headers: { Accept: 'text/html' } })).status).toBe(200);
  });

  it('closing registration refuses sign-up at once, and opening it lets people in again', async () => {
    expect((await put('others', { registration_open: false })).status).toBe(200);
    const attempt = () => new Client(server.url).post('/register', { name: 'Late Comer', email: uniqueEmail(), password: 'correct horse battery', password_confirmation: 'correct horse battery' });
    const refused = await attempt();
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/closed/i);
    expect((await put('others', { registration_open: true })).status).toBe(200);
    expect((await attempt()).status).toBe(202);
  });

  it('refuses bad values with 422, changing nothing', async () => {
    await expectRefused('others', [
      [{ default_storage_limit_bytes: -1 }, 'default_storage_limit_bytes'],
      [{ default_storage_limit_bytes: 1.5 }, 'default_storage_limit_bytes'],
      [{ default_storage_limit_bytes: '5 GB' }, 'default_storage_limit_bytes'],
      [{ default_storage_limit_bytes: 1e300 }, 'default_storage_limit_bytes'],
      [{ upload_limit_bytes: -1024 }, 'upload_limit_bytes'],
      [{ upload_limit_bytes: null }, 'upload_limit_bytes'],
      [{ chunk_size_bytes: 1000 }, 'chunk_size_bytes'],
      [{ chunk_size_bytes: 1024 ** 3 }, 'chunk_size_bytes'],
      [{ trash_retention_days: -1 }, 'trash_retention_days'],
      [{ trash_retention_days: 4000 }, 'trash_retention_days'],
      [{ mimetypes_blacklist: 'exe' }, 'mimetypes_blacklist'],
      [{ mimetypes_blacklist: ['exe', 'not a type!'] }, 'mimetypes_blacklist.1'],
      [{ mimetypes_blacklist: Array.from({ length: 201 }, (_, i) => `ext${i}`) }, 'mimetypes_blacklist'],
      [{ registration_open: 'no' }, 'registration_open'],
      [{ email_verification_required: 0 }, 'email_verification_required'],
      [{ cookie_notice: null }, 'cookie_notice'],
      [{ locale: 'fr' }, 'locale'],
      [{ max_open_uploads: 5 }, 'max_open_uploads'],
      [{ maintenance_mode: 'on' }, 'maintenance_mode'],
      [{ maintenance_retry_after_seconds: 30 }, 'maintenance_retry_after_seconds'],
      [{ maintenance_retry_after_seconds: '600' }, 'maintenance_retry_after_seconds'],
      [{ max_team_members: 0 }, 'max_team_members'],
      [{ max_team_members: '10' }, 'max_team_members'],
      [{ team_invitation_expiry_days: 0 }, 'team_invitation_expiry_days'],
      [{ team_invitation_expiry_days: 366 }, 'team_invitation_expiry_days'],
    ]);
  });
});

describe('the settings screen', () => {
  it('is served for each tab, and an unknown tab is the real 404', async () => {
    for (const url of ['/admin/settings', '/admin/settings/appearance', '/admin/settings/index', '/admin/settings/environment', '/admin/settings/others', '/admin/settings/sign-in', '/admin/settings/adsense', '/admin/settings/server']) {
      const res = await admin.request(url, { headers: { Accept: 'text/html' }, xrw: false });
      expect(res.status, url).toBe(200);
      expect(res.text).toContain('id="app-config"');
    }
    for (const url of ['/admin/settings/nope', '/admin/settings/appearance/more', '/admin/settings/Appearance']) {
      expect((await admin.request(url, { headers: { Accept: 'text/html' }, xrw: false })).status, url).toBe(404);
    }
  });

  it('refuses every group to a user who is not an admin, changing nothing', async () => {
    for (const group of ['appearance', 'homepage', 'email', 'others']) {
      expect((await get(group, member)).status).toBe(403);
      expect((await put(group, {}, member)).status).toBe(403);
    }
    expect((await put('appearance', { app_name: 'Taken Over' }, member)).status).toBe(403);
    expect((await get('appearance')).body.data.attributes.app_name).not.toBe('Taken Over');
  });
});
