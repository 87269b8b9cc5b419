import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { runEvery } from '../../src/server/jobs/every.ts';
import { jobStatuses } from '../../src/server/jobs/status.ts';
import { instanceKeyFile, readSecretSetting } from '../../src/server/settings/secrets.ts';
import { putSettings } from '../../src/server/settings/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { fakeToken, startFakeBotCheck, type FakeBotCheck } from '../support/fake-bot-check.ts';
import { seedContext, seedFile, seedFolder } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { share } from '../support/shares.ts';

/**
 * The settings screen's sign-in, adsense and server tabs (API and public pages): secrets stored
 * encrypted and never answered, ads only on public pages and only after consent, the server report,
 * job runs recorded in the database and the on-demand storage check.
 */
const ADMIN = { email: 'settings-owner@example.test', password: 'settings owner password' };
let server: RunningServer;
let seed: AppContext;
let admin: Client;

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Owner' } });
  seed = await seedContext(server);
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

const put = (url: string, json: unknown) => admin.request(url, { method: 'PUT', json });
const storedValue = async (key: string) => (await seed.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
const settingsRows = () => seed.db.selectFrom('settings').selectAll().orderBy('key').execute();
const auditRows = (target: string) => seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', target).orderBy('created_at').execute();
const html = (client: Client, p: string) => client.request(p, { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });

function directives(header: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values.join(' '));
  }
  return map;
}

describe('sign-in settings', () => {
  const GOOGLE_SECRET = 'GOCSPX-plain-google-secret-4711';
  const BOT_SECRET = 'bot-check-plain-secret-0815';

  it('answers only whether each secret is set, never a value', async () => {
    const res = await admin.get('/api/admin/settings/sign-in');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      social: {
        google: { enabled: false, client_id: '', client_secret: { set: false } },
        facebook: { enabled: false, client_id: '', client_secret: { set: false } },
        github: { enabled: false, client_id: '', client_secret: { set: false } },
      },
      recaptcha: { enabled: false, site_key: '', secret: { set: false }, min_score: 0.5 },
    });
  });

  it('stores secrets encrypted, answers { set: true } and gives the plain value to readSecretSetting', async () => {
    const res = await put('/api/admin/settings/sign-in', {
      social: { google: { enabled: true, client_id: 'id-123.apps.example', client_secret: GOOGLE_SECRET } },
      recaptcha: { site_key: 'site-key-1', secret: BOT_SECRET, min_score: 0.7 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.social.google).toEqual({ enabled: true, client_id: 'id-123.apps.example', client_secret: { set: true } });
    expect(res.body.data.recaptcha).toEqual({ enabled: false, site_key: 'site-key-1', secret: { set: true }, min_score: 0.7 });
    const again = await admin.get('/api/admin/settings/sign-in');
    for (const text of [res.text, again.text]) {
      expect(text).not.toContain(GOOGLE_SECRET);
      expect(text).not.toContain(BOT_SECRET);
    }
    for (const [key, plain] of [['social_google_client_secret', GOOGLE_SECRET], ['recaptcha_secret', BOT_SECRET]] as const) {
      const row = await storedValue(key);
      expect(row).toMatch(/^"enc:v1:[A-Za-z0-9_-]+"$/);
      expect(row).not.toContain(plain);
      expect(await readSecretSetting(seed, key)).toBe(plain);
    }
    // The instance secret was made on first use, readable by the server's user only.
    expect(((await stat(instanceKeyFile(server.dataDir))).mode & 0o777).toString(8)).toBe('600');
  });

  it('keeps a secret that a change leaves out, and encrypts it anew each time it is given', async () => {
    const before = await storedValue('social_google_client_secret');
    const res = await put('/api/admin/settings/sign-in', { social: { google: { client_id: 'id-456.apps.example' } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.social.google).toEqual({ enabled: true, client_id: 'id-456.apps.example', client_secret: { set: true } });
    expect(await storedValue('social_google_client_secret')).toBe(before);
    expect(await readSecretSetting(seed, 'social_google_client_secret')).toBe(GOOGLE_SECRET);
    // The same secret given again is stored under a fresh IV: no ciphertext reveals equal secrets.
    await put('/api/admin/settings/sign-in', { social: { google: { client_secret: GOOGLE_SECRET } } });
    expect(await storedValue('social_google_client_secret')).not.toBe(before);
    expect(await readSecretSetting(seed, 'social_google_client_secret')).toBe(GOOGLE_SECRET);
  });

  it('clears a secret given as null or an empty string', async () => {
    await put('/api/admin/settings/sign-in', { social: { github: { client_id: 'gh-id', client_secret: 'gh-secret-value' } } });
    expect(await readSecretSetting(seed, 'social_github_client_secret')).toBe('gh-secret-value');
    const cleared = await put('/api/admin/settings/sign-in', { social: { github: { client_secret: '' } }, recaptcha: { secret: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data.social.github.client_secret).toEqual({ set: false });
    expect(cleared.body.data.recaptcha.secret).toEqual({ set: false });
    expect(await storedValue('social_github_client_secret')).toBe('""');
    expect(await storedValue('recaptcha_secret')).toBe('""');
    expect(await readSecretSetting(seed, 'recaptcha_secret')).toBe('');
  });

  it.each([
    ['a provider switched on without its secret', { social: { facebook: { enabled: true, client_id: 'fb-app' } } }, 'social.facebook.client_secret'],
    ['a provider switched on without its client id', { social: { github: { enabled: true, client_id: '', client_secret: 'gh-new' } } }, 'social.github.client_id'],
    ['the bot check switched on without its secret', { recaptcha: { enabled: true } }, 'recaptcha.secret'],
    ['a minimum score above 1', { recaptcha: { min_score: 1.5 } }, 'recaptcha.min_score'],
    ['a minimum score that is not a number', { recaptcha: { min_score: 'high' } }, 'recaptcha.min_score'],
    ['a client id with a space', { social: { google: { client_id: 'two words' } } }, 'social.google.client_id'],
    ['a secret longer than 512 characters', { social: { google: { client_secret: 'x'.repeat(513) } } }, 'social.google.client_secret'],
    ['a secret that is not text', { recaptcha: { secret: 42 } }, 'recaptcha.secret'],
    ['an enabled flag that is not a boolean', { social: { google: { enabled: 'yes' } } }, 'social.google.enabled'],
    ['an unknown provider', { social: { myspace: { enabled: true } } }, 'social'],
    ['an unknown field', { theme: 'dark' }, '_'],
  ])('refuses %s with 422 and changes nothing', async (_, body, field) => {
    const before = await settingsRows();
    const audits = (await auditRows('sign-in')).length;
    const res = await put('/api/admin/settings/sign-in', body);
    expect(res.status, res.text).toBe(422);
    expect(res.body.message).toEqual(expect.any(String));
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(await settingsRows()).toEqual(before);
    expect((await auditRows('sign-in')).length).toBe(audits);
  });

  it('records each change in the audit log with the secrets redacted', async () => {
    const rows = await auditRows('sign-in');
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const text = JSON.stringify(rows);
    for (const secret of [GOOGLE_SECRET, BOT_SECRET, 'gh-secret-value']) expect(text).not.toContain(secret);
    expect(rows.every((r) => r.action === 'setting.update' && r.target_type === 'setting')).toBe(true);
    const first = rows[0]!;
    expect(JSON.parse(first.after!)).toMatchObject({ 'google.enabled': true, 'google.client_id': 'id-123.apps.example', 'google.client_secret': '[redacted]', 'recaptcha.secret': '[redacted]', 'recaptcha.min_score': 0.7 });
    expect(JSON.parse(first.before!)).toMatchObject({ 'google.client_secret': '', 'recaptcha.secret': '' });
    // Clearing shows as an empty value after, so the log says a secret went without saying which.
    const clearing = rows.find((r) => 'github.client_secret' in JSON.parse(r.after!) && JSON.parse(r.after!)['github.client_secret'] === '')!;
    expect(JSON.parse(clearing.before!)['github.client_secret']).toBe('[redacted]');
  });

  describe('the bot check on the contact form', () => {
    // The provider stand-in, reached through the recaptcha_verify_url setting (no environment override here).
    let fake: FakeBotCheck;
    const seen = () => fake.requests.map((r) => r.secret);
    beforeAll(async () => {
      fake = await startFakeBotCheck({ secret: 'server-secret' });
      await putSettings(seed, { recaptcha_verify_url: fake.verifyUrl });
    });
    afterAll(async () => {
      await put('/api/admin/settings/sign-in', { recaptcha: { enabled: false } });
      await fake.stop();
    });
    const contact = (token: 'good' | 'bad') =>
      new Client(server.url).post('/contact', { name: 'Vera Visitor', email: 'vera@example.test', message: 'A question about plans.', recaptcha_token: fakeToken({ action: 'contact', score: 0.9, success: token === 'good' }) });

    it('verifies with the decrypted secret', async () => {
      const res = await put('/api/admin/settings/sign-in', { recaptcha: { enabled: true, site_key: 'site-key-1', secret: 'server-secret' } });
      expect(res.status, res.text).toBe(200);
      expect(await storedValue('recaptcha_secret')).not.toContain('server-secret');
      expect((await contact('good')).status).toBe(201);
      expect(seen().at(-1)).toBe('server-secret');
      expect((await contact('bad')).status).toBe(422);
    });

    it('still works with a secret stored in plain text before encryption, and encrypts it on that first use', async () => {
      await putSettings(seed, { recaptcha_secret: 'server-secret' });
      expect(await storedValue('recaptcha_secret')).toBe('"server-secret"');
      expect((await contact('good')).status).toBe(201);
      expect(seen().at(-1)).toBe('server-secret');
      expect(await storedValue('recaptcha_secret')).toMatch(/^"enc:v1:/);
      const get = await admin.get('/api/admin/settings/sign-in');
      expect(get.body.data.recaptcha.secret).toEqual({ set: true });
      expect(get.text).not.toContain('server-secret');
    });

    it('encrypts a plain-text secret when another sign-in setting is saved', async () => {
      await putSettings(seed, { recaptcha_secret: 'server-secret' });
      expect((await put('/api/admin/settings/sign-in', { recaptcha: { min_score: 0.6 } })).status).toBe(200);
      expect(await storedValue('recaptcha_secret')).toMatch(/^"enc:v1:/);
      expect(await readSecretSetting(seed, 'recaptcha_secret')).toBe('server-secret');
    });
  });
});

describe('adsense settings and the ads on public pages', () => {
  const PUBLISHER = 'ca-pub-1234567890123456';
  const SCRIPT_TAG = `<script async src="https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${PUBLISHER}" crossorigin="anonymous">`;

  it.each([
    ['a publisher id without ca-pub-', { publisher_id: '1234567890123456' }, 'publisher_id'],
    ['a publisher id of 15 digits', { publisher_id: 'ca-pub-123456789012345' }, 'publisher_id'],
    ['a publisher id with letters', { publisher_id: 'ca-pub-12345678901234ab' }, 'publisher_id'],
    ['a header slot of 9 digits', { header_slot: '123456789' }, 'header_slot'],
    ['a footer slot with letters', { footer_slot: '12345abcde' }, 'footer_slot'],
    ['a slot that is a number, not text', { footer_slot: 1234567890 }, 'footer_slot'],
    ['ads switched on without a publisher id', { enabled: true }, 'publisher_id'],
    ['an unknown field', { sidebar_slot: '1234567890' }, '_'],
  ])('refuses %s with 422 and changes nothing', async (_, body, field) => {
    const before = await settingsRows();
    const res = await put('/api/admin/settings/adsense', body);
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(await settingsRows()).toEqual(before);
  });

  it('saves the publisher id and slots, and records the change', async () => {
    const res = await put('/api/admin/settings/adsense', { enabled: true, publisher_id: PUBLISHER, header_slot: '1234567890', footer_slot: '0987654321' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ enabled: true, publisher_id: PUBLISHER, header_slot: '1234567890', footer_slot: '0987654321' });
    expect((await admin.get('/api/admin/settings/adsense')).body.data).toEqual(res.body.data);
    const [audit] = await auditRows('adsense');
    expect(JSON.parse(audit!.after!)).toEqual({ enabled: true, publisher_id: PUBLISHER, header_slot: '1234567890', footer_slot: '0987654321' });
  });

  it('asks for consent on the public pages first: no ad script, slots hidden, the ad origin allowed in the CSP', async () => {
    for (const p of ['/', '/page/terms-of-service', '/contact-us']) {
      const res = await html(new Client(server.url), p);
      expect(res.status, p).toBe(200);
      expect(res.text, p).not.toContain(SCRIPT_TAG);
      expect(res.text, p).toContain('id="ads-consent"');
      expect(res.text, p).toMatch(/data-ad-unit="header" hidden/);
      expect(res.text, p).toContain('data-ad-slot="0987654321"');
      expect(directives(res.headers.get('content-security-policy')).get('script-src'), p).toContain('https://pagead2.googlesyndication.com');
    }
  });

  it('loads the ad script on the homepage once the visitor accepted cookies', async () => {
    const visitor = new Client(server.url);
    visitor.cookies.set('cookie_consent', 'accepted');
    const res = await html(visitor, '/');
    expect(res.text).toContain(SCRIPT_TAG);
    expect(res.text).not.toContain('id="ads-consent"');
    expect(res.text).toMatch(/data-ad-unit="header">/);
  });

  it('shows nothing from the ad network to a visitor who declined', async () => {
    const visitor = new Client(server.url);
    visitor.cookies.set('cookie_consent', 'declined');
    const res = await html(visitor, '/');
    expect(res.text).not.toContain('googlesyndication');
    expect(res.text).not.toContain('data-ad-unit');
    expect(res.headers.get('content-security-policy')).not.toContain('googlesyndication');
  });

  it('never shows ads in the app, on sign-in or on share pages, even with consent', async () => {
    const { client: owner, user } = await registerUser(server.url);
    owner.cookies.set('cookie_consent', 'accepted');
    const folder = await seedFolder(seed, user.id, 'Shared photos');
    const link = await share(owner, folder);
    const visitor = new Client(server.url);
    visitor.cookies.set('cookie_consent', 'accepted');
    for (const [client, p] of [
      [owner, '/platform/files'],
      [owner, '/user/profile'],
      [visitor, '/sign-in'],
      [visitor, `/share/${link.token}/files`],
    ] as const) {
      const res = await html(client, p);
      expect(res.status, p).toBe(200);
      expect(res.text, p).not.toContain('googlesyndication');
      expect(res.text, p).not.toContain('adsbygoogle');
      expect(res.headers.get('content-security-policy'), p).not.toContain('googlesyndication');
    }
  });

  it('takes the ads off the public pages at once when switched off', async () => {
    expect((await put('/api/admin/settings/adsense', { enabled: false })).status).toBe(200);
    const visitor = new Client(server.url);
    visitor.cookies.set('cookie_consent', 'accepted');
    const res = await html(visitor, '/');
    expect(res.text).not.toContain('googlesyndication');
    expect(res.headers.get('content-security-policy')).not.toContain('googlesyndication');
  });
});

describe('server report', () => {
  it('reports the runtime, database, data dir, drivers and the background jobs’ runs', async () => {
    // The jobs run once at start; wait for each to have finished that run.
    await expect
      .poll(async () => ((await admin.get('/api/admin/settings/server')).body.data.jobs as { name: string; state: string }[]).filter((j) => j.state === 'ok').map((j) => j.name))
      .toEqual(expect.arrayContaining(['blob reconciler', 'remote upload recovery', 'trash purge', 'upload sweep']));
    const res = await admin.get('/api/admin/settings/server');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.node).toBe(process.versions.node);
    expect(data.database.kind).toBe(server.db);
    expect(data.database.version).toMatch(/^\d+\.\d+/);
    expect(data.data_dir.path).toBe(server.dataDir);
    expect(data.data_dir.free_bytes).toBeGreaterThan(0);
    expect(data.data_dir.total_bytes).toBeGreaterThanOrEqual(data.data_dir.free_bytes);
    expect(data.storage_driver).toBe(server.s3 ? 's3' : 'local');
    expect(data.mail_driver).toBe('log');
    const sweep = data.jobs.find((j: { name: string }) => j.name === 'upload sweep');
    expect(sweep).toMatchObject({ state: 'ok', runs: expect.any(Number), failures: 0, last_error: null, last_duration_ms: expect.any(Number) });
    expect(sweep.runs).toBeGreaterThanOrEqual(1);
    expect(Date.parse(sweep.last_finished_at)).toBeGreaterThanOrEqual(Date.parse(sweep.last_started_at));
  });

  it('records a failing job with its error in the database, and a later good run without forgetting it', async () => {
    const name = `failing job ${randomUUID().slice(0, 8)}`;
    const stopFailing = runEvery(seed, name, 60 * 60_000, async () => {
      throw new Error('the disk is on fire');
    });
    await stopFailing();
    const failed = (await admin.get('/api/admin/settings/server')).body.data.jobs.find((j: { name: string }) => j.name === name);
    expect(failed).toMatchObject({ state: 'failed', runs: 1, failures: 1, last_error: 'the disk is on fire' });
    expect(failed.last_error_at).toBe(failed.last_finished_at);
    expect((await jobStatuses(seed)).find((j) => j.name === name)?.state).toBe('failed');

    const stopGood = runEvery(seed, name, 60 * 60_000, async () => undefined);
    await stopGood();
    const recovered = (await jobStatuses(seed)).find((j) => j.name === name);
    expect(recovered).toMatchObject({ state: 'ok', runs: 2, failures: 1, last_error: 'the disk is on fire', last_error_at: failed.last_error_at });
  });

  it('runs the storage check on demand, reporting orphans and missing files without changing anything', async () => {
    const { user } = await registerUser(server.url);
    const owner = String(user.id).toLowerCase();
    const lost = await seedFile(seed, user.id, { name: 'lost.txt' });
    await rm(path.join(server.dataDir, 'blobs', lost.blobKey));
    const orphanKey = `files/${owner}/${randomUUID()}`;
    const orphan = path.join(server.dataDir, 'blobs', orphanKey);
    await mkdir(path.dirname(orphan), { recursive: true });
    await writeFile(orphan, 'nobody refers to me');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60_000);
    await utimes(orphan, twoDaysAgo, twoDaysAgo);

    const res = await admin.request('/api/admin/settings/server/fsck', { method: 'POST' });
    expect(res.status, res.text).toBe(200);
    const report = res.body.data;
    expect(report).toMatchObject({ orphans: 1, missing: 1, orphanBytes: 'nobody refers to me'.length });
    expect(report.blobs).toBeGreaterThanOrEqual(1);
    expect(report.orphan_list).toEqual([{ key: orphanKey, size: 19, modified_at: expect.any(String) }]);
    expect(report.missing_list).toEqual([{ kind: 'file', id: lost.id, key: lost.blobKey }]);
    expect(report.checked_at).toEqual(expect.any(String));
    expect(existsSync(orphan)).toBe(true);
    expect(readFileSync(orphan, 'utf8')).toBe('nobody refers to me');
  });
});
