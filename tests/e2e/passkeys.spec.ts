import { test as base, type Page } from '@playwright/test';
import { openDatabase } from '../../db/index.ts';
import { loadConfig } from '../../src/server/config/env.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { e2eEmail, expect, expectNoSeriousA11yViolations, PASSWORD, shot } from './fixtures.ts';

/**
 * Passkeys in a real Chromium with its virtual authenticator (DevTools protocol). WebAuthn refuses an
 * IP address as the relying party id, so this file runs its own server at http://localhost:<port>
 * (the shared e2e server answers at 127.0.0.1).
 */
let server: RunningServer;
let origin = '';
base.beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = await startServer({ db: 'sqlite', env: { PORT: String(port), APP_URL: origin } });
});
base.afterAll(async () => {
  await server?.stop();
});
const test = base.extend({
  baseURL: async ({}, use) => {
    await use(origin);
  },
});

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A platform authenticator that holds discoverable credentials and verifies the user at once. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

async function signUp(page: Page, path: string): Promise<string> {
  const email = e2eEmail('passkey');
  const octet = () => Math.floor(Math.random() * 254) + 1;
  const headers = { Origin: origin, 'X-Requested-With': 'XMLHttpRequest', 'X-Forwarded-For': `198.18.${octet()}.${octet()}` };
  expect((await page.request.post('/register', { data: { name: 'Kay Passkey', email, password: PASSWORD, password_confirmation: PASSWORD }, headers })).status()).toBe(202);
  expect((await page.request.post('/login', { data: { email, password: PASSWORD }, headers })).status()).toBe(200);
  await page.goto(path);
  return email;
}

/** Light, dark and phone screenshots (with SCREENSHOTS=1, for a person to look at), each checked with axe. */
async function shots(page: Page, name: string): Promise<void> {
  // Toasts and the cookie notice would cover the card.
  await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 10_000 });
  const cookies = page.getByRole('button', { name: 'Got it' });
  if (await cookies.isVisible()) await cookies.click();
  await page.setViewportSize(DESKTOP);
  await shot(page, `passkeys-${name}-light`);
  await expectNoSeriousA11yViolations(page, `${name} light`);
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, `passkeys-${name}-dark`);
  await expectNoSeriousA11yViolations(page, `${name} dark`);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize(PHONE);
  await shot(page, `passkeys-${name}-phone`);
  await expectNoSeriousA11yViolations(page, `${name} phone`);
  await page.setViewportSize(DESKTOP);
}

test('register a passkey in settings, sign out, and sign in with the passkey alone', async ({ page }) => {
  await addVirtualAuthenticator(page);
  await signUp(page, '/user/settings/password');
  const card = page.getByTestId('passkeys-card');
  await expect(card.getByText('You have no passkeys yet.', { exact: false })).toBeVisible();
  await shots(page, 'card-empty');

  // A name is asked for first; an empty one never reaches the device prompt.
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByText('Give the passkey a name')).toBeVisible();
  await card.getByLabel('Passkey name').fill('Work laptop');
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByTestId('toast')).toContainText('Passkey added');
  await expect(card.getByRole('listitem')).toHaveCount(1);
  await expect(card.getByRole('listitem')).toContainText('Work laptop');
  await expect(card.getByRole('listitem')).toContainText('Never used');
  await expect(card.getByLabel('Passkey name')).toHaveValue('');

  // The same authenticator cannot be added twice.
  await card.getByLabel('Passkey name').fill('Again');
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByText('This device has a passkey for your account already.')).toBeVisible();
  await expect(card.getByRole('listitem')).toHaveCount(1);

  // Rename with the keyboard; focus returns to the Rename button.
  await card.getByRole('button', { name: 'Rename Work laptop' }).click();
  await expect(card.getByLabel('Passkey name').first()).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Laptop');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toast').filter({ hasText: 'Passkey renamed' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Rename Laptop' })).toBeFocused();
  await shots(page, 'card-one');

  await page.request.post('/logout', { headers: { Origin: origin, 'X-Requested-With': 'XMLHttpRequest' } });
  await page.goto('/sign-in?redirect=%2Fplatform%2Ffiles');
  const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(passkeyButton).toBeVisible();
  await shots(page, 'sign-in');
  await passkeyButton.click();
  await page.waitForURL('**/platform/files');
  await expect(page.getByRole('main')).toBeVisible();

  // Used now; removing it (confirmed) leaves the empty state.
  await page.goto('/user/settings/password');
  await expect(card.getByRole('listitem')).toContainText('Last used');
  await card.getByRole('button', { name: 'Remove Laptop' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Remove the passkey “Laptop”?');
  await shot(page, 'passkeys-remove-confirm-light', { fullPage: false });
  await expectNoSeriousA11yViolations(page, 'remove confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByRole('listitem')).toHaveCount(1);
  await card.getByRole('button', { name: 'Remove Laptop' }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Passkey removed' })).toBeVisible();
  await expect(card.getByText('You have no passkeys yet.', { exact: false })).toBeVisible();
});

test('a passkey the server does not know is refused on the sign-in page, which keeps working', async ({ page }) => {
  await addVirtualAuthenticator(page);
  // Registered, then removed on the server: the authenticator still offers it.
  await signUp(page, '/user/settings/password');
  const card = page.getByTestId('passkeys-card');
  await card.getByLabel('Passkey name').fill('Soon gone');
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByRole('listitem')).toHaveCount(1);
  await card.getByRole('button', { name: 'Remove Soon gone' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(card.getByRole('listitem')).toHaveCount(0);
  await page.request.post('/logout', { headers: { Origin: origin, 'X-Requested-With': 'XMLHttpRequest' } });

  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toHaveText('This passkey is not registered here.');
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
});

test('a browser without WebAuthn: the card explains, the sign-in page shows only the password form', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'PublicKeyCredential', { value: undefined, configurable: true });
  });
  await signUp(page, '/user/settings/password');
  const card = page.getByTestId('passkeys-card');
  await expect(card.getByText('This browser cannot use passkeys.', { exact: false })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Add a passkey' })).toHaveCount(0);
  await shot(page, 'passkeys-card-unsupported-light');
  await expectNoSeriousA11yViolations(page, 'card unsupported');
  await page.request.post('/logout', { headers: { Origin: origin, 'X-Requested-With': 'XMLHttpRequest' } });
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
});

test('a passkey answers the second step of a password sign-in', async ({ page }) => {
  await addVirtualAuthenticator(page);
  const email = await signUp(page, '/user/settings/password');
  const card = page.getByTestId('passkeys-card');
  await card.getByLabel('Passkey name').fill('Second factor');
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByRole('listitem')).toHaveCount(1);
  const config = await loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' }, server.dataDir);
  const db = await openDatabase(config.database);
  await db.updateTable('users').set({ two_factor_enabled_at: new Date().toISOString() }).where('email', '=', email).execute();
  await db.destroy();
  await page.request.post('/logout', { headers: { Origin: origin, 'X-Requested-With': 'XMLHttpRequest' } });

  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/sign-in/two-factor');
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await page.waitForURL('**/platform/files');
});

test('without JavaScript the sign-in page is the password form alone', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: origin });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByText('Sign in with a passkey')).toHaveCount(0);
  await context.close();
});
