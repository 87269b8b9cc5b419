import { test as base, type Page } from '@playwright/test';
import { type FakeOidc, startFakeOidc } from '../support/fake-oidc.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { dropSignIn, expect, expectNoSeriousA11yViolations, shot } from './fixtures.ts';

/**
 * OpenID Connect in the browser, on a server of its own (its issuers and "only this provider" mode
 * would change every other spec's sign-in page) and a local fake identity provider: the admin adds
 * an issuer in the settings tab, then a visitor signs in through it and lands in the file area.
 */
const ADMIN = { email: 'olga@e2e-oidc.test', password: 'oidc admin passphrase' };
const test = base.extend<object, { oidcWorld: { server: RunningServer; idp: FakeOidc } }>({
  oidcWorld: [
    async ({}, use) => {
      const idp = await startFakeOidc({ identity: { sub: 'e2e-person', email: 'grace@e2e-oidc.test', email_verified: true, name: 'Grace Hopper' } });
      const server = await startServer({ db: 'sqlite', env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Olga Admin' } });
      await use({ server, idp });
      await server.stop();
      await idp.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ oidcWorld }, use) => {
    await use(oidcWorld.server.url);
  },
});
test.describe.configure({ mode: 'serial' });

const headers = (page: Page) => ({ Origin: new URL(page.url() === 'about:blank' ? 'http://x' : page.url()).origin, 'X-Requested-With': 'XMLHttpRequest' });

async function signInAdmin(page: Page, baseURL: string) {
  const res = await page.request.post('/login', { data: ADMIN, headers: { Origin: baseURL, 'X-Requested-With': 'XMLHttpRequest' } });
  expect(res.status()).toBe(200);
  await page.addInitScript(() => localStorage.setItem('cookie_notice_dismissed', '1'));
}

/** Light and dark at desktop width, then light at phone width (after `reload` and `ready`), each shot and checked with axe. */
async function screens(page: Page, name: string, ready: () => Promise<void>, target = () => page.locator('body')) {
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
    await shot(target(), `oidc-${name}-${scheme}`);
    await expectNoSeriousA11yViolations(page, `${name}-${scheme}`);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await ready();
  await shot(target(), `oidc-${name}-phone`);
  await expectNoSeriousA11yViolations(page, `${name}-phone`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the admin adds an OpenID Connect provider in the sign-in tab, edits and removes one', async ({ page, baseURL, oidcWorld }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAdmin(page, baseURL!);
  await page.goto('/admin/settings/sign-in');
  const section = page.getByTestId('oidc-section');
  await expect(section.getByRole('heading', { name: 'OpenID Connect' })).toBeVisible();
  await expect(section.getByText('No identity provider yet')).toBeVisible();
  await screens(page, 'admin-empty', () => expect(section.getByText('No identity provider yet')).toBeVisible(), () => section);

  await section.getByRole('button', { name: 'Add provider' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an OpenID Connect provider' });
  await expect(dialog.getByLabel('Id', { exact: true })).toBeFocused();
  await dialog.getByLabel('Id', { exact: true }).fill('acme');
  await dialog.getByLabel('Button label').fill('Acme ID');
  await dialog.getByLabel('Issuer URL').fill('http://idp.example.com/realms/test');
  await dialog.getByLabel('Client id').fill(oidcWorld.idp.clientId);
  await dialog.getByLabel('Client secret').fill(oidcWorld.idp.clientSecret);
  await expect(dialog.getByText(`${baseURL}/api/oidc/acme/callback`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  // Plain http is only for an identity provider on this machine.
  await expect(dialog.locator('.field-error')).toHaveText('The issuer URL must use https://; plain http:// is allowed only for localhost.');
  await expect(dialog.getByLabel('Issuer URL')).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'oidc-admin-dialog-error', { fullPage: false });
  await expectNoSeriousA11yViolations(page, 'admin-dialog');
  await dialog.getByLabel('Issuer URL').fill(oidcWorld.idp.issuer);
  await dialog.getByLabel('Issuer URL').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('toast').filter({ hasText: 'The provider Acme ID was saved.' })).toBeVisible();
  const row = section.getByTestId('oidc-issuer-acme');
  await expect(row).toContainText('Acme ID');
  await expect(row).toContainText('On');
  await expect(row).toContainText(oidcWorld.idp.issuer);
  // The tab's own form was not sent along with the dialog's.
  await expect(page.getByTestId('toast').filter({ hasText: 'The sign-in settings were saved.' })).toHaveCount(0);

  // A second one, edited (the secret stays), then removed after a confirmation.
  await section.getByRole('button', { name: 'Add provider' }).click();
  await dialog.getByLabel('Id', { exact: true }).fill('spare');
  await dialog.getByLabel('Button label').fill('Spare');
  await dialog.getByLabel('Issuer URL').fill('https://spare.example.com');
  await dialog.getByLabel('Client id').fill('spare-client');
  await dialog.getByRole('switch', { name: 'Offer on the sign-in page' }).uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByTestId('oidc-issuer-spare')).toContainText('Off');
  await section.getByRole('button', { name: 'Edit Spare' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Spare' });
  await expect(edit.getByLabel('Id', { exact: true })).toHaveCount(0);
  await edit.getByLabel('Button label').fill('Spare SSO');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByTestId('oidc-issuer-spare')).toContainText('Spare SSO');
  await screens(page, 'admin-list', () => expect(section.getByTestId('oidc-issuer-acme')).toBeVisible(), () => section);

  await section.getByRole('button', { name: 'Remove Spare SSO' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove Spare SSO?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByTestId('oidc-issuer-spare')).toBeVisible();
  await section.getByRole('button', { name: 'Remove Spare SSO' }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(section.getByTestId('oidc-issuer-spare')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'The provider Spare SSO was removed.' })).toBeVisible();

  const answer = await page.request.get('/api/admin/settings/oidc', { headers: headers(page) });
  expect(await answer.text()).not.toContain(oidcWorld.idp.clientSecret);
});

test('a visitor signs in through the provider and lands in the file area', async ({ page, oidcWorld }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/sign-in');
  const button = page.getByRole('link', { name: 'Continue with Acme ID' });
  await expect(button).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();
  await screens(page, 'sign-in', () => expect(page.getByRole('link', { name: 'Continue with Acme ID' })).toBeVisible());
  // An ID token for another client is refused: back on the sign-in page with the reason.
  oidcWorld.idp.fault = 'wrong-audience';
  await page.getByRole('link', { name: 'Continue with Acme ID' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('alert')).toHaveText('The sign-in with Acme ID could not be verified. Try again.');
  await shot(page, 'oidc-sign-in-refused', { fullPage: false });
  oidcWorld.idp.fault = null;
  // Without "Keep me signed in" the session ends with the browser.
  await expect(page.getByLabel('Keep me signed in')).not.toBeChecked();
  await page.getByRole('link', { name: 'Continue with Acme ID' }).click();
  await expect(page).toHaveURL(/\/platform\/files$/);
  expect((await page.context().cookies()).find((c) => c.name === 'session')?.expires).toBe(-1);
  await expect(page.getByRole('heading', { name: 'Files', exact: true }).first()).toBeVisible();
  const me = await page.request.get('/api/user', { headers: headers(page) });
  expect((await me.json()).data.attributes.email).toBe('grace@e2e-oidc.test');
});

test('"only this provider" leaves the provider alone on the sign-in page, with a way in for admins', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAdmin(page, baseURL!);
  await page.goto('/admin/settings/sign-in');
  const section = page.getByTestId('oidc-section');
  await section.getByLabel('Only this provider').selectOption({ label: 'Only Acme ID' });
  await expect(page.getByTestId('toast').filter({ hasText: 'The sign-in mode was saved.' })).toBeVisible();
  await expect(section.getByTestId('oidc-issuer-acme')).toContainText('Only way in');
  await dropSignIn(page);

  await page.goto('/sign-in');
  await expect(page.getByRole('link', { name: 'Continue with Acme ID' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveCount(0);
  await screens(page, 'sign-in-only', () => expect(page.getByRole('link', { name: 'Continue with Acme ID' })).toBeVisible());
  await page.getByRole('link', { name: 'Administrator sign-in with password' }).click();
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/platform\/files$/);
  const off = await page.request.put('/api/admin/settings/oidc', { data: { only_issuer: null }, headers: { Origin: baseURL!, 'X-Requested-With': 'XMLHttpRequest' } });
  expect(off.status()).toBe(200);
});
