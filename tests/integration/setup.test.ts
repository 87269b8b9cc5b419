import { existsSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSettings } from '../../src/server/settings/service.ts';
import { storedMailConfig } from '../../src/server/settings/mail.ts';
import { Client } from '../support/client.ts';
import { withSeed } from '../support/seed.ts';
import { createPgDatabase, startServer, type RunningServer } from '../support/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function setupTokenFrom(logs: string[]): string {
  for (const line of logs) {
    const m = /"setup_token":"([^"]+)"/.exec(line);
    if (m) return m[1]!;
  }
  throw new Error('no setup token in the log');
}

const html = (client: Client, p: string) => client.request(p, { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const logoForm = (bytes: Buffer, name = 'logo.png', type = 'image/png') => {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};

const ENVIRONMENT = { storage_driver: 'local', mail_driver: 'log', mail_from_address: 'drive@example.test', mail_from_name: 'Drive' };
const APP = { app_name: 'Acme Drive', app_description: 'Files for Acme.', contact_email: 'contact@example.test', registration_open: false, default_storage_gb: 2, subscription_type: 'none' };
const ADMIN = { name: 'Ada Admin', email: 'ada@example.test', password: 'correct horse battery', password_confirmation: 'correct horse battery' };

describe('a fresh instance', () => {
  let server: RunningServer;
  let token: string;
  let wizard: Client;
  beforeAll(async () => {
    server = await startServer({ installed: false });
    token = setupTokenFrom(server.logs);
    wizard = new Client(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const step = (p: string, json: unknown, client = wizard) => client.request(`/api/setup/${p}`, { method: 'POST', json, headers: { 'X-Setup-Token': token } });
  const state = async () => (await wizard.get('/api/setup/state', { headers: { 'X-Setup-Token': token } })).body.data;

  it('sends every page to the wizard and refuses the API until installed', async () => {
    for (const p of ['/', '/sign-in', '/platform/files', '/page/terms-of-service', '/contact-us']) {
      const res = await html(new Client(server.url), p);
      expect(res.status, p).toBe(302);
      expect(res.headers.get('location')).toBe('/setup-wizard/status-check');
    }
    const api = await new Client(server.url).post('/register', { name: 'X', email: 'x@example.test', password: 'password 1', password_confirmation: 'password 1' });
    expect(api.status).toBe(302);
    expect((await new Client(server.url).get('/api/user')).status).toBe(503);
    expect((await new Client(server.url).request('/api/upload?filename=a.txt', { method: 'POST', body: 'x', headers: { 'Content-Type': 'application/octet-stream' } })).status).toBe(503);
    expect((await html(new Client(server.url), '/install')).status).toBe(200);
    expect((await html(new Client(server.url), '/setup-wizard/database')).status).toBe(200);
  });

  it('refuses wizard calls without the setup token, or with a wrong one', async () => {
    const stranger = new Client(server.url);
    expect((await stranger.get('/api/setup/state')).status).toBe(401);
    expect((await stranger.get('/api/setup/state', { headers: { 'X-Setup-Token': 'guessed-token-guessed-token' } })).status).toBe(403);
    expect((await stranger.post('/api/setup/token', { token: 'guessed-token-guessed-token' })).status).toBe(403);
    expect((await stranger.post('/api/setup/token', {})).status).toBe(422);
    const s = await stranger.request('/api/setup/status-check', { method: 'POST', json: {} });
    expect(s.status).toBe(401);
    expect((await state()).completed).toEqual([]);
  });

  it('exchanges the token for a cookie', async () => {
    const client = new Client(server.url);
    expect((await client.post('/api/setup/token', { token })).status).toBe(200);
    expect(client.cookies.get('setup_token')).toBe(token);
    expect((await client.get('/api/setup/state')).status).toBe(200);
  });

  it('refuses steps out of order, changing nothing', async () => {
    for (const [p, body] of [['purchase-code', { accept_license: true }], ['database', { driver: 'embedded' }], ['environment', ENVIRONMENT], ['app-setup', APP], ['admin-setup', ADMIN]] as const) {
      const res = await step(p, body);
      expect(res.status, p).toBe(409);
      expect(res.body.message).toMatch(/Complete the status-check step first/);
    }
    const logo = await wizard.request('/api/setup/logo', { method: 'POST', body: logoForm(PNG), headers: { 'X-Setup-Token': token } });
    expect(logo.status).toBe(409);
    expect((await state()).completed).toEqual([]);
  });

  it('walks through every step, refusing invalid values, and finishes signed in as admin', async () => {
    const checks = await wizard.get('/api/setup/status-check', { headers: { 'X-Setup-Token': token } });
    expect(checks.status).toBe(200);
    expect(checks.body.data.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(['node', 'data_dir', 'database', 'disk', 'sharp', 'ffmpeg']));
    expect((await step('status-check', {})).status).toBe(200);

    const refused = await step('purchase-code', { accept_license: false });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.accept_license).toBeDefined();
    expect((await step('purchase-code', { accept_license: true, purchase_code: 'bad code <script>' })).status).toBe(422);
    expect((await step('purchase-code', { accept_license: true, purchase_code: 'ABCD-1234' })).status).toBe(200);

    const unreachable = await step('database', { driver: 'postgres', database_url: 'postgres://nobody:secret@127.0.0.1:1/nothing' });
    expect(unreachable.status).toBe(422);
    // On PostgreSQL the suite sets DATABASE_URL, which the wizard must not override.
    expect(unreachable.body.errors.database_url[0]).toMatch(process.env.TEST_DB === 'postgres' ? /DATABASE_URL is set in the environment/ : /Could not connect/);
    expect(unreachable.body.errors.database_url[0]).not.toContain('secret');
    expect((await step('database', { driver: 'postgres', database_url: 'mysql://x@y/z' })).status).toBe(422);
    expect((await step('database', { driver: 'oracle' })).status).toBe(422);
    expect((await state()).completed).toEqual(['status-check', 'purchase-code']);
    expect(existsSync(path.join(server.dataDir, 'database.url'))).toBe(false);
    expect((await step('database', { driver: 'embedded' })).status).toBe(200);

    expect((await step('environment', { ...ENVIRONMENT, mail_from_address: 'not an email' })).status).toBe(422);
    expect((await step('environment', { ...ENVIRONMENT, mail_driver: 'pigeon' })).status).toBe(422);
    expect((await step('environment', { ...ENVIRONMENT, mail_driver: 'smtp', mail_host: 'bad host\r\nX: y', mail_port: 70000 })).body.errors).toMatchObject({ mail_port: expect.any(Array) });
    const smtpWithoutSender = await step('environment', { ...ENVIRONMENT, mail_driver: 'smtp', mail_host: 'smtp.example.test', mail_from_address: '' });
    expect(smtpWithoutSender.body.errors).toEqual({ mail_from_address: ['The sender address field is required.'] });
    const noTestAddress = await step('test-mail', { ...ENVIRONMENT, mail_from_address: '' });
    expect(noTestAddress.status).toBe(422);
    expect(noTestAddress.body.errors).toEqual({ test_email: ['The test address field is required.'] });
    // The log driver writes mails down: no sender address needed, for the step or its test email.
    expect((await step('test-mail', { ...ENVIRONMENT, mail_from_address: '', test_email: 'log@example.test' })).status).toBe(200);
    expect((await step('environment', ENVIRONMENT)).status).toBe(200);
    const testMail = await step('test-mail', { ...ENVIRONMENT, test_email: 'me@example.test' });
    expect(testMail.status).toBe(200);
    expect(readFileSync(path.join(server.dataDir, 'mail', 'outbox.jsonl'), 'utf8')).toContain('me@example.test');
    expect((await step('test-mail', { ...ENVIRONMENT, test_email: 'nope' })).status).toBe(422);
    // An SMTP password is kept only sealed with the instance key: never in the saved progress, never sent back.
    const SMTP = { ...ENVIRONMENT, mail_driver: 'smtp', mail_host: 'smtp.example.test', mail_port: 587, mail_username: 'robot', mail_password: 'wizard mail secret', mail_encryption: 'tls' };
    expect((await step('environment', SMTP)).status).toBe(200);
    expect(readFileSync(path.join(server.dataDir, 'setup', 'progress.json'), 'utf8')).not.toContain('wizard mail secret');
    expect(JSON.stringify(await state())).not.toContain('wizard mail secret');
    // Saved again with the password field left empty (the form never gets it back), the sealed one stays.
    expect((await step('environment', { ...SMTP, mail_password: '' })).status).toBe(200);

    expect((await step('app-setup', { ...APP, contact_email: 'bad email' })).status).toBe(422);
    expect((await step('app-setup', { ...APP, subscription_type: 'lifetime' })).status).toBe(422);
    expect((await step('app-setup', { ...APP, logo_horizontal: 'javascript:alert(1)' })).status).toBe(422);
    // Logos: raster images only, small, behind the token.
    const upload = (form: FormData, headers: Record<string, string> = { 'X-Setup-Token': token }) => new Client(server.url).request('/api/setup/logo', { method: 'POST', body: form, headers });
    expect((await upload(logoForm(PNG), {})).status).toBe(401);
    expect((await upload(logoForm(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 'image/svg+xml'))).status).toBe(422);
    expect((await upload(logoForm(Buffer.from('just text'), 'logo.png'))).status).toBe(422);
    expect((await upload(logoForm(Buffer.concat([PNG, Buffer.alloc(600 * 1024)])))).status).toBe(413);
    expect((await upload(new FormData())).status).toBe(422);
    const uploaded = await upload(logoForm(PNG));
    expect(uploaded.status).toBe(201);
    const logoUrl: string = uploaded.body.data.url;
    expect(logoUrl).toMatch(/^\/branding\/[0-9a-f]{32}\.png$/);
    const served = await fetch(server.url + logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(server.url + '/branding/..%2Fdatabase.sqlite')).status).toBe(404);

    expect((await step('app-setup', { ...APP, logo_horizontal: logoUrl })).status).toBe(200);

    // Values are kept for going back and after a reload.
    const saved = await state();
    expect(saved.values['app-setup']).toMatchObject({ app_name: 'Acme Drive', contact_email: 'contact@example.test' });
    expect(saved.values['purchase-code']).toMatchObject({ purchase_code: 'ABCD-1234' });
    expect(saved.next).toBe('admin-setup');

    for (const bad of [
      { ...ADMIN, password: 'short', password_confirmation: 'short' },
      { ...ADMIN, password: 'password123', password_confirmation: 'password123' },
      { ...ADMIN, password: 'aaaaaaaaaaaa', password_confirmation: 'aaaaaaaaaaaa' },
      { ...ADMIN, email: 'not-an-email' },
      { ...ADMIN, password_confirmation: 'something else' },
    ]) {
      const res = await step('admin-setup', bad);
      expect(res.status).toBe(422);
    }
    // Nothing half-done: still not installed, no account.
    expect((await html(new Client(server.url), '/')).status).toBe(302);
    expect((await new Client(server.url).post('/login', { email: ADMIN.email, password: ADMIN.password })).status).toBe(302);

    const browser = new Client(server.url);
    expect((await browser.post('/api/setup/token', { token })).status).toBe(200);
    const done = await browser.post('/api/setup/admin-setup', ADMIN);
    expect(done.status).toBe(201);
    expect(done.body.meta.redirect).toBe('/admin/dashboard');
    const me = await browser.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.data.attributes.role).toBe('admin');
    expect((await html(browser, '/admin/dashboard')).status).toBe(200);

    const home = await html(new Client(server.url), '/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Acme Drive');
    expect(home.text).toMatch(/<img src="\/branding\/[0-9a-f]{32}\.png" alt="Acme Drive" height="32" width="160"/);
    expect(existsSync(path.join(server.dataDir, 'setup'))).toBe(false);
    // The mail settings came from the wizard with the password sealed in the settings table.
    await withSeed(server, async (seed) => {
      const stored = (await getSettings(seed)).mail;
      expect(stored).toMatchObject({ driver: 'smtp', host: 'smtp.example.test', username: 'robot' });
      expect(JSON.stringify(stored)).not.toContain('wizard mail secret');
      expect((await storedMailConfig(seed))?.password).toBe('wizard mail secret');
    });
  });

  it('answers 404 for the wizard and its API for ever after installation', async () => {
    for (const p of ['/install', '/setup-wizard/status-check', '/setup-wizard/admin-setup']) {
      expect((await html(new Client(server.url), p)).status, p).toBe(404);
    }
    expect((await step('admin-setup', { ...ADMIN, email: 'mallory@example.test' })).status).toBe(404);
    expect((await step('token', { token })).status).toBe(404);
    expect((await wizard.get('/api/setup/state', { headers: { 'X-Setup-Token': token } })).status).toBe(404);
    expect((await new Client(server.url).post('/login', { email: 'mallory@example.test', password: ADMIN.password })).status).toBe(422);
  });
});

describe('unattended installs', () => {
  it('installs on first start from ADMIN_EMAIL, ADMIN_PASSWORD and APP_NAME', async () => {
    const server = await startServer({ installed: false, env: { ADMIN_EMAIL: 'boot@example.test', ADMIN_PASSWORD: 'a long boot password', APP_NAME: 'Booted Drive' } });
    try {
      expect(server.logs.join('\n')).not.toContain('setup_token');
      const home = await html(new Client(server.url), '/');
      expect(home.status).toBe(200);
      expect(home.text).toContain('Booted Drive');
      expect((await html(new Client(server.url), '/install')).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('installs with npm run setup, and refuses a second run', async () => {
    const server = await startServer({ installed: false });
    try {
      const run = (args: string[]) =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' };
          if (server.databaseUrl) env.DATABASE_URL = server.databaseUrl;
          delete env.NODE_OPTIONS;
          const child = spawn(process.execPath, ['scripts/setup.ts', ...args], { cwd: ROOT, env });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (out += d));
          child.on('exit', (code) => resolve({ code, out }));
        });
      expect((await run(['--admin-email', 'cli@example.test', '--admin-password', 'short'])).code).toBe(2);
      expect((await html(new Client(server.url), '/')).status).toBe(302);
      const ok = await run(['--admin-email', 'cli@example.test', '--admin-password', 'a long cli password', '--app-name', 'CLI Drive']);
      expect(ok.out).toContain('Installed');
      expect(ok.code).toBe(0);
      const home = await html(new Client(server.url), '/');
      expect(home.status).toBe(200);
      expect(home.text).toContain('CLI Drive');
      const again = await run(['--admin-email', 'other@example.test', '--admin-password', 'a long cli password']);
      expect(again.code).toBe(1);
      expect(again.out).toContain('already installed');
    } finally {
      await server.stop();
    }
  });
});

describe.runIf(process.env.TEST_DB !== 'postgres')('the database step with PostgreSQL', () => {
  it('tests, migrates and switches to a reachable PostgreSQL database', async () => {
    const server = await startServer({ installed: false });
    const pgDb = await createPgDatabase({ empty: true });
    try {
      const token = setupTokenFrom(server.logs);
      const client = new Client(server.url);
      expect((await client.post('/api/setup/token', { token })).status).toBe(200);
      expect((await client.post('/api/setup/status-check', {})).status).toBe(200);
      expect((await client.post('/api/setup/purchase-code', { accept_license: true })).status).toBe(200);
      const res = await client.post('/api/setup/database', { driver: 'postgres', database_url: pgDb.url });
      expect(res.status).toBe(200);
      expect(res.body.data.database.dialect).toBe('postgres');
      expect(readFileSync(path.join(server.dataDir, 'database.url'), 'utf8').trim()).toBe(pgDb.url);
      expect((await client.post('/api/setup/environment', ENVIRONMENT)).status).toBe(200);
      expect((await client.post('/api/setup/app-setup', APP)).status).toBe(200);
      expect((await client.post('/api/setup/admin-setup', ADMIN)).status).toBe(201);
      expect((await client.get('/api/user')).body.data.attributes.email).toBe(ADMIN.email);
    } finally {
      await server.stop();
      await pgDb.drop();
    }
  });
});
