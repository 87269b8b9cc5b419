import type { APIRequestContext, Page } from '@playwright/test';
import { loadConfig } from '../../src/server/config/env.ts';
import { createContext } from '../../src/server/context.ts';
import { runEvery } from '../../src/server/jobs/every.ts';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

/**
 * The settings screen's sign-in, adsense and server tabs, and the consent-aware ads on the public
 * pages. The e2e server is shared with the other specs: every setting changed here is put back.
 */
const BASE = () => process.env.E2E_BASE_URL!;
const headers = () => ({ Origin: BASE(), 'X-Requested-With': 'XMLHttpRequest' });
const PUBLISHER = 'ca-pub-1234567890123456';
const AD_SCRIPT = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';

async function signInAdmin(request: APIRequestContext): Promise<void> {
  const res = await request.post('/login', { data: E2E_ADMIN, headers: headers() });
  expect(res.status()).toBe(200);
}

async function openAsAdmin(page: Page, path: string): Promise<void> {
  await signInAdmin(page.request);
  // The app's own cookie notice, dismissed as a returning admin would have: it would cover the screenshots.
  await page.addInitScript(() => localStorage.setItem('cookie_notice_dismissed', '1'));
  await page.goto(path);
}

async function screens(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
    await shot(page, `${name}-${scheme}-desktop`);
    await expectNoSeriousA11yViolations(page, `${name}-${scheme}-desktop`);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await ready();
  await shot(page, `${name}-light-phone`);
  await expectNoSeriousA11yViolations(page, `${name}-light-phone`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test.afterAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: BASE() });
  await signInAdmin(request);
  const off = { social: { google: { enabled: false, client_secret: null } }, recaptcha: { enabled: false } };
  expect((await request.put('/api/admin/settings/sign-in', { data: off, headers: headers() })).status()).toBe(200);
  expect((await request.put('/api/admin/settings/adsense', { data: { enabled: false }, headers: headers() })).status()).toBe(200);
  await request.dispose();
});

test('sign-in tab: a provider needs its secret, a saved secret is never shown and can be removed', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAsAdmin(page, '/admin/settings/sign-in');
  const google = page.getByRole('group', { name: 'Google' });
  await expect(page.getByRole('heading', { name: 'Social sign-in' })).toBeVisible();
  await expect(google.getByText('Not set')).toBeVisible();
  // Each provider shows the redirect URI to register there.
  for (const id of ['google', 'github', 'facebook']) await expect(page.getByTestId(`callback-${id}`)).toContainText(`${process.env.E2E_BASE_URL}/api/socialite/${id}/callback`);

  await google.getByRole('switch', { name: 'Google' }).check();
  await google.getByLabel('Client id').fill('1234-abc.apps.example');
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  await expect(google.locator('.field-error')).toHaveText('Enter the client secret to turn Google sign-in on.');
  await expect(google.getByLabel('Client secret')).toHaveAttribute('aria-invalid', 'true');

  await google.getByLabel('Client secret').fill('GOCSPX-e2e-very-secret');
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'The sign-in settings were saved.' })).toBeVisible();
  await expect(google.getByText('Saved', { exact: true })).toBeVisible();
  await expect(google.getByLabel('Client secret')).toHaveValue('');
  await expect(google.getByLabel('Client secret')).toHaveAttribute('placeholder', 'Leave empty to keep the saved one');
  const answer = await page.request.get('/api/admin/settings/sign-in', { headers: headers() });
  expect(await answer.text()).not.toContain('GOCSPX-e2e-very-secret');

  await page.reload();
  await expect(google.getByRole('switch', { name: 'Google' })).toBeChecked();
  await expect(google.getByLabel('Client id')).toHaveValue('1234-abc.apps.example');
  await expect(google.getByLabel('Client secret')).toHaveValue('');
  await screens(page, 'admin-settings-sign-in', () => expect(google.getByText('Saved', { exact: true })).toBeVisible());

  await page.setViewportSize({ width: 1280, height: 800 });
  await google.getByRole('switch', { name: 'Google' }).uncheck();
  await google.getByLabel('Remove the saved secret').check();
  await expect(google.getByLabel('Client secret')).toBeDisabled();
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  await expect(google.getByText('Not set')).toBeVisible();
  await expect(google.getByLabel('Remove the saved secret')).toHaveCount(0);
});

test('adsense tab: refuses a malformed publisher id, then saves the ads that the homepage loads only after consent', async ({ page, browser }) => {
  // Two visitors and seven screens with an accessibility check each.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAsAdmin(page, '/admin/settings/adsense');
  await page.getByLabel('Publisher id').fill('pub-42');
  await page.getByRole('button', { name: 'Save ad settings' }).click();
  await expect(page.locator('.field-error').getByText('The publisher id must look like ca-pub- followed by 16 digits.')).toBeVisible();
  await expect(page.getByLabel('Publisher id')).toHaveAttribute('aria-invalid', 'true');

  await page.getByRole('switch', { name: 'Show ads on the public pages' }).check();
  await page.getByLabel('Publisher id').fill(PUBLISHER);
  await page.getByLabel('Header ad slot').fill('1234567890');
  await page.getByLabel('Footer ad slot').fill('0987654321');
  await page.getByRole('button', { name: 'Save ad settings' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'The ad settings were saved.' })).toBeVisible();
  await expect(page.getByLabel('Publisher id')).not.toHaveAttribute('aria-invalid');
  await screens(page, 'admin-settings-adsense', () => expect(page.getByLabel('Publisher id')).toHaveValue(PUBLISHER));

  // A visitor: nothing from the ad network before Accept (the network is stubbed: no request leaves the machine).
  const visitor = await browser.newContext({ baseURL: BASE(), viewport: { width: 1280, height: 800 } });
  const home = await visitor.newPage();
  const adRequests: string[] = [];
  await home.route('https://*.googlesyndication.com/**', (route) => {
    adRequests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
  });
  await home.goto('/');
  const notice = home.getByRole('region', { name: 'Cookie consent' });
  await expect(notice).toBeVisible();
  await expect(home.locator(`script[src^="${AD_SCRIPT}"]`)).toHaveCount(0);
  await expect(home.locator('[data-ad-unit="header"]')).toBeHidden();
  expect(adRequests).toEqual([]);
  await shot(home, 'home-ads-consent-light-desktop');
  await expectNoSeriousA11yViolations(home, 'home-ads-consent-light-desktop');

  await notice.getByRole('button', { name: 'Accept' }).click();
  await expect(notice).toHaveCount(0);
  await expect(home.locator(`script[src="${AD_SCRIPT}?client=${PUBLISHER}"]`)).toHaveCount(1);
  await expect.poll(() => adRequests).toEqual([`${AD_SCRIPT}?client=${PUBLISHER}`]);
  await expect(home.locator('[data-ad-unit="header"] ins.adsbygoogle')).toHaveAttribute('data-ad-slot', '1234567890');
  // The choice is remembered: the next page carries the script and asks nothing.
  await home.goto('/page/terms-of-service');
  await expect(home.locator(`script[src="${AD_SCRIPT}?client=${PUBLISHER}"]`)).toHaveCount(1);
  await expect(home.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  // Never in the app, whatever the consent.
  await signUpAndOpen(home, '/platform/files', 'Ad Free');
  await expect(home.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible();
  await expect(home.locator('script[src*="googlesyndication"], ins.adsbygoogle')).toHaveCount(0);
  await visitor.close();

  // Another visitor declines: the slots go, and nothing is fetched then or on the next page.
  const declining = await browser.newContext({ baseURL: BASE(), viewport: { width: 390, height: 844 } });
  const page2 = await declining.newPage();
  const fetched: string[] = [];
  await page2.route('https://*.googlesyndication.com/**', (route) => {
    fetched.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
  });
  await page2.goto('/');
  const notice2 = page2.getByRole('region', { name: 'Cookie consent' });
  await expect(notice2).toBeVisible();
  await shot(page2, 'home-ads-consent-light-phone');
  await expectNoSeriousA11yViolations(page2, 'home-ads-consent-light-phone');
  await notice2.getByRole('button', { name: 'Decline' }).click();
  await expect(notice2).toHaveCount(0);
  await expect(page2.locator('[data-ad-unit]')).toHaveCount(0);
  await page2.reload();
  await expect(page2.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page2.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await expect(page2.locator('[data-ad-unit], script[src*="googlesyndication"]')).toHaveCount(0);
  expect(fetched).toEqual([]);
  await declining.close();
});

test('server tab: the report, the background jobs with a failed run, and the storage check on demand', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  // A job that fails, run through runEvery on the e2e server's own database; its row goes afterwards.
  const config = await loadConfig({ DATA_DIR: process.env.E2E_DATA_DIR!, LOG_LEVEL: 'silent' }, process.env.E2E_DATA_DIR!);
  const ctx = await createContext(config);
  const job = 'e2e backup copy';
  try {
    await runEvery(ctx, job, 60 * 60_000, async () => {
      throw new Error('The backup target is not mounted.');
    })();
    await checkServerTab(page, job);
  } finally {
    await ctx.db.deleteFrom('job_runs').where('name', '=', job).execute();
    await ctx.db.destroy();
  }
});

async function checkServerTab(page: Page, failingJob: string): Promise<void> {
  await openAsAdmin(page, '/admin/settings/server');
  await expect(page.getByRole('heading', { name: 'System' })).toBeVisible();
  await expect(page.getByText(/^SQLite \d+\.\d+/)).toBeVisible();
  await expect(page.getByText('Local disk')).toBeVisible();
  const sweep = page.getByTestId('job').filter({ hasText: 'Upload sweep' });
  await expect(sweep).toContainText('OK');
  await expect(sweep).toContainText(/runs: \d+, failed: 0/);
  const failed = page.getByTestId('job').filter({ hasText: failingJob });
  await expect(failed).toContainText('Failed');
  await expect(failed).toContainText('runs: 1, failed: 1');
  await expect(failed).toContainText('The backup target is not mounted.');
  await expect(page.getByText('The check reads every stored file, so it runs only when you ask.')).toBeVisible();

  await page.getByRole('button', { name: 'Run the check' }).click();
  const report = page.getByTestId('fsck-report');
  await expect(report).toBeVisible();
  await expect(report).toContainText('Stored files');
  await expect(report).toContainText(/Checked .+, took/);
  await expect(page.getByRole('button', { name: 'Check again' })).toBeEnabled();
  await screens(page, 'admin-settings-server', () => expect(page.getByTestId('job').first()).toBeVisible());
}
