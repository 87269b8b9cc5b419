import { test as base, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/server/config/env.ts';
import { createContext } from '../../src/server/context.ts';
import { putSettings } from '../../src/server/settings/service.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { expectNoSeriousA11yViolations, shot } from './fixtures.ts';

// A fresh instance of its own (not the suite's installed server): the wizard, then the public site.
let fresh: RunningServer;
const test = base.extend<object, { freshServer: RunningServer }>({
  freshServer: [
    async ({}, use) => {
      fresh = await startServer({ db: 'sqlite', installed: false });
      await use(fresh);
      await fresh.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ freshServer }, use) => {
    await use(freshServer.url);
  },
});
test.describe.configure({ mode: 'serial' });

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const ADMIN = { name: 'Ines Installer', email: 'ines@e2e-site.test', password: 'a long admin passphrase' };
const setupToken = () => /"setup_token":"([^"]+)"/.exec(fresh.logs.find((l) => l.includes('setup_token')) ?? '')![1]!;
const outbox = () => readFileSync(path.join(fresh.dataDir, 'mail', 'outbox.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);

async function setMaintenance(on: boolean): Promise<void> {
  const ctx = await createContext(await loadConfig({ DATA_DIR: fresh.dataDir, LOG_LEVEL: 'silent' }, fresh.dataDir));
  await putSettings(ctx, { maintenance_mode: on, maintenance_retry_after_seconds: 900 });
  await ctx.db.destroy();
}

/** Light, dark (the theme is picked before first paint, so dark needs a reload) and phone width. */
async function shots(page: Page, name: string, { phone = true } = {}) {
  await shot(page, name);
  await expectNoSeriousA11yViolations(page, name);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await page.waitForLoadState('networkidle');
  await shot(page, `${name}-dark`);
  await expectNoSeriousA11yViolations(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  if (phone) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.waitForLoadState('networkidle');
    await shot(page, `${name}-phone`);
    await expectNoSeriousA11yViolations(page, `${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  await page.reload();
  await page.waitForLoadState('networkidle');
}

async function continueTo(page: Page, next: string) {
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/setup-wizard/${next}$`));
}

test('installs a fresh instance through the six wizard steps and lands signed in as admin', async ({ page }) => {
  // Six steps, each shot and checked with axe in light, dark and at phone width.
  test.setTimeout(90_000);
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup-wizard\/status-check$/);
  await expect(page.getByRole('heading', { name: 'Enter the setup token' })).toBeVisible();
  await shots(page, 'setup-token');
  await page.getByLabel('Setup token').fill('not-the-token-at-all');
  await page.getByRole('button', { name: 'Start the setup' }).click();
  await expect(page.getByText('The setup token is not valid')).toBeVisible();
  await page.getByLabel('Setup token').fill(setupToken());
  await page.getByRole('button', { name: 'Start the setup' }).click();

  await expect(page.getByRole('heading', { name: 'Status check' })).toBeVisible();
  await expect(page.locator('[data-check="node"][data-ok="true"]')).toBeVisible();
  await shots(page, 'setup-status-check');
  await expect(page.locator('[data-check]').filter({ hasText: '`' })).toHaveCount(0);
  await expect(page.locator('[data-check="node"][data-ok="true"]')).toBeVisible();
  await continueTo(page, 'purchase-code');

  await page.getByRole('button', { name: 'Save and continue' }).click();
  // One message per failure: under the field, not again in a banner.
  await expect(page.getByText('You must accept the licence to install.')).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByLabel('I accept the licence').check();
  await page.getByLabel('Purchase code').fill('E2E-1234');
  await shot(page, 'setup-purchase-code');
  await expectNoSeriousA11yViolations(page, 'setup-purchase-code');
  await continueTo(page, 'database');

  // Going back keeps what was saved.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/purchase-code$/);
  await expect(page.getByLabel('Purchase code')).toHaveValue('E2E-1234');
  await continueTo(page, 'database');

  await page.getByRole('radio', { name: /^PostgreSQL/ }).check();
  await page.getByLabel('PostgreSQL URL').fill('postgres://nobody:pw@127.0.0.1:1/none');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByText(/Could not connect to the database/).first()).toBeVisible();
  await shot(page, 'setup-database-error');
  await expectNoSeriousA11yViolations(page, 'setup-database-error');
  await page.getByRole('radio', { name: /Keep the current database/ }).check();
  await continueTo(page, 'environment');

  // The log driver sends nothing, so it needs no sender address, and the test email goes through it.
  await expect(page.getByLabel('Sender address')).toHaveValue('');
  await page.getByLabel('Send a test email to').fill('ines@e2e-site.test');
  await page.getByRole('button', { name: 'Send test email' }).click();
  await expect(page.getByText('A test email was sent to ines@e2e-site.test.')).toBeVisible();
  await shot(page, 'setup-environment');
  await expectNoSeriousA11yViolations(page, 'setup-environment');
  await continueTo(page, 'app-setup');

  await page.getByLabel('App name').fill('E2E Drive');
  await page.getByLabel('Contact email').fill('contact@e2e-site.test');
  await page.getByLabel('Description').fill('The drive the browser tests install.');
  // A logo upload fills the field with the image's path and shows it; cleared again to keep the built-in mark.
  await page.getByLabel(/^Logo \(light\): Upload/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByLabel('Logo (light)', { exact: true })).toHaveValue(/^\/branding\/[0-9a-f]{32}\.png$/);
  await page.getByLabel('Logo (light)', { exact: true }).fill('');
  await continueTo(page, 'admin-setup');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('App name')).toHaveValue('E2E Drive');
  await shots(page, 'setup-app-setup');
  await expect(page.getByLabel('App name')).toHaveValue('E2E Drive');
  await continueTo(page, 'admin-setup');

  // A reload resumes where the wizard was.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Admin account' })).toBeVisible();
  await page.getByLabel('Your name').fill(ADMIN.name);
  await page.getByLabel('Email').fill(ADMIN.email);
  // A common password with a digit more still reads as easy to guess, in the hint and on the server.
  await page.getByLabel('Password', { exact: true }).fill('password1234');
  await page.getByLabel('Confirm password').fill('password1234');
  await expect(page.getByTestId('password-strength')).toContainText('Too easy to guess');
  await page.getByRole('button', { name: 'Finish installation' }).click();
  await expect(page.getByText('The admin password is too easy to guess: use a few unrelated words or a longer phrase.')).toHaveCount(1);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Confirm password').fill(ADMIN.password);
  await shot(page, 'setup-admin-setup');
  await expectNoSeriousA11yViolations(page, 'setup-admin-setup');
  await page.getByRole('button', { name: 'Finish installation' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const me = await page.request.get('/api/user', { headers: { Accept: 'application/json' } });
  expect((await me.json()).data.attributes).toMatchObject({ email: ADMIN.email, role: 'admin' });

  // The wizard is gone for good.
  expect((await page.request.get('/install')).status()).toBe(404);
});

test('shows a visitor the homepage, a dynamic page and the contact form, and mails the admin', async ({ browser }) => {
  // Three screens, each shot and checked with axe in light, dark and at phone width.
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: fresh.url });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page).toHaveTitle('E2E Drive');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await shots(page, 'site-home');

  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/page\/privacy-policy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await shots(page, 'site-page');

  await page.getByRole('contentinfo').getByRole('link', { name: 'Contact' }).click();
  await expect(page).toHaveURL(/\/contact-us$/);
  await shots(page, 'site-contact');
  await page.getByLabel('Your name').fill('Vic Visitor');
  await page.getByLabel('Email').fill('vic@e2e-site.test');
  await page.getByLabel('Message').fill('Do you offer team plans?');
  await shot(page, 'site-contact-filled');
  await expectNoSeriousA11yViolations(page, 'site-contact-filled');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page).toHaveURL(/\/successfully-send$/);
  const mail = outbox().find((m) => m.subject === 'Contact form: Vic Visitor');
  expect(mail).toMatchObject({ to: 'contact@e2e-site.test', replyTo: 'vic@e2e-site.test' });
  expect(mail!.text).toContain('Do you offer team plans?');
  await context.close();
});

test('in maintenance mode, visitors get 503 and the admin gets in', async ({ browser }) => {
  await setMaintenance(true);
  try {
    const visitor = await browser.newContext({ baseURL: fresh.url });
    const page = await visitor.newPage();
    const res = await page.goto('/');
    expect(res!.status()).toBe(503);
    expect(res!.headers()['retry-after']).toBe('900');
    await expect(page.getByRole('heading', { name: 'We will be right back' })).toBeVisible();
    await shots(page, 'site-maintenance');
    expect((await page.goto('/page/terms-of-service'))!.status()).toBe(503);

    const res2 = await page.goto('/sign-in');
    expect(res2!.status()).toBe(200);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/platform\/files/);
    expect((await page.goto('/'))!.status()).toBe(200);
    expect((await page.goto('/admin/dashboard'))!.status()).toBe(200);
    await visitor.close();
  } finally {
    await setMaintenance(false);
  }
});
