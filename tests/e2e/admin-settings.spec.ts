import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signIn, test } from './fixtures.ts';

/** The e2e server is shared by every spec: whatever a test here changes, it puts back. */
async function putSettings(page: Page, group: string, values: Record<string, unknown>) {
  const res = await page.request.put(`/api/admin/settings/${group}`, { data: values, headers: { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { data: { attributes: Record<string, unknown> } };
}
async function getSettings(page: Page, group: string) {
  const res = await page.request.get(`/api/admin/settings/${group}`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { attributes: Record<string, unknown> } }).data.attributes;
}

async function signInAdmin(page: Page) {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/platform\/files$/);
}

async function withScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
}

test('a new app name shows in the sidebar at once and on the homepage', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  const before = await getSettings(page, 'appearance');
  try {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/admin\/settings$/);
    await expect(page.getByRole('link', { name: 'Appearance' })).toHaveAttribute('aria-current', 'page');
    const name = page.getByLabel('App name');
    await expect(name).toHaveValue(String(before.app_name));
    await expect(page.getByText('Everything is saved.')).toBeVisible();
    await name.fill('Orbit Drive');
    await expect(page.getByText('You have unsaved changes.')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('toast')).toContainText('Settings saved.');
    await expect(page.getByRole('complementary').getByText('Orbit Drive')).toBeVisible();
    await expect(page).toHaveTitle(/Orbit Drive/);

    // A refused value stays on the form with its reason under the field, and is not saved.
    await page.getByLabel('Brand colour', { exact: true }).fill('#12');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('The brand colour must look like #4f46e5.')).toBeVisible();
    await expect(page.getByLabel('Brand colour', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect((await getSettings(page, 'appearance')).brand_color).toBe(before.brand_color);

    await page.goto('/');
    await expect(page.getByRole('banner').getByText('Orbit Drive')).toBeVisible();
    await expect(page).toHaveTitle('Orbit Drive');
  } finally {
    await putSettings(page, 'appearance', { app_name: before.app_name, brand_color: before.brand_color });
  }
});

test('an uploaded logo shows in the sidebar, a file that is not an image is refused, and removing it brings the name back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  const logo = await sharp({ create: { width: 320, height: 64, channels: 4, background: '#0ea5e9' } }).png().toBuffer();
  try {
    await page.goto('/admin/settings/appearance');
    await page.getByTestId('upload-logo_horizontal').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are notes, not a picture') });
    await expect(page.getByText('The logo must be a PNG, JPEG or WebP image.')).toBeVisible();
    await expect(page.getByRole('complementary').getByTestId('logo-image')).toHaveCount(0);

    await page.getByTestId('upload-logo_horizontal').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await expect(page.getByTestId('toast')).toContainText('The image was uploaded and is shown now.');
    await expect(page.getByText('The logo must be a PNG, JPEG or WebP image.')).toHaveCount(0);
    const sidebarLogo = page.getByRole('complementary').getByTestId('logo-image').locator('img').first();
    await expect(sidebarLogo).toHaveAttribute('src', /^\/branding\/[0-9a-f]{32}\.png$/);
    await expect(page.getByRole('img', { name: 'Current image: Logo', exact: true })).toBeVisible();
    await shot(page, 'admin-settings-logo-light-desktop');

    await page.reload();
    await expect(page.getByRole('complementary').getByTestId('logo-image').locator('img').first()).toHaveAttribute('src', /^\/branding\//);
    await page.getByRole('button', { name: 'Remove: Logo', exact: true }).click();
    await expect(page.getByTestId('toast')).toContainText('The image was removed.');
    await expect(page.getByRole('complementary').getByTestId('logo-image')).toHaveCount(0);
  } finally {
    await putSettings(page, 'appearance', { logo_horizontal: '' });
  }
});

test('the homepage tab edits the cards and turns sections off', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  try {
    await page.goto('/admin/settings/index');
    await expect(page.getByText('The homepage shows the four built-in cards, translated for each visitor.')).toBeVisible();
    await page.getByRole('button', { name: 'Write your own cards' }).click();
    const cards = page.getByRole('listitem').filter({ has: page.getByLabel('Icon') });
    await expect(cards).toHaveCount(4);
    await cards.nth(0).getByLabel('Title').fill('Galaxy-sized storage');
    await cards.nth(3).getByRole('button', { name: 'Remove card' }).click();
    await expect(cards).toHaveCount(3);
    await page.getByLabel('Call to action').uncheck();
    await shot(page, 'admin-settings-index-cards-light-desktop');
    await expectNoSeriousA11yViolations(page, 'admin-settings-index-cards-light-desktop');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('toast')).toContainText('Settings saved.');

    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Galaxy-sized storage' })).toBeVisible();
    await expect(page.locator('[data-section="cta"]')).toHaveCount(0);
  } finally {
    await putSettings(page, 'homepage', { home_features: [], home_show_cta: true });
  }
});

test('the email tab hides the server fields for the log driver, and sends a test mail', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  await page.goto('/admin/settings/environment');
  await expect(page.getByLabel('Driver', { exact: true })).toHaveValue('log');
  await expect(page.getByLabel('Host', { exact: true })).toHaveCount(0);
  await page.getByLabel('Send it to').fill('not an address');
  await page.getByRole('button', { name: 'Send test mail' }).click();
  await expect(page.getByText('The test address must be a valid email address.')).toBeVisible();
  await page.getByLabel('Send it to').fill('postmaster@e2e.test');
  await page.getByRole('button', { name: 'Send test mail' }).click();
  await expect(page.getByTestId('toast')).toContainText('A test mail was sent to postmaster@e2e.test.');
  await page.getByLabel('Driver', { exact: true }).selectOption('smtp');
  await expect(page.getByLabel('Host', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await withScheme(page, 'dark');
  await shot(page, 'admin-settings-environment-smtp-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-settings-environment-smtp-dark-desktop');
});

test('an unknown settings tab is the 404 page, by link and by address', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  expect((await page.goto('/admin/settings/nope'))?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.goto('/admin/settings/others');
  await expect(page.getByLabel('Default language')).toBeVisible();
  // In-app navigation (no page load) to a tab that does not exist ends on the same 404 page.
  await page.evaluate(() => {
    history.pushState(null, '', '/admin/settings/nope');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('turning the cookie notice off hides it in the app', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  await expect(page.getByRole('region', { name: 'Cookie notice' })).toBeVisible();
  try {
    await page.goto('/admin/settings/others');
    await page.getByLabel('Show the cookie notice').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('toast')).toContainText('Settings saved.');
    await expect(page.getByRole('region', { name: 'Cookie notice' })).toHaveCount(0);
    await page.goto('/platform/files');
    await expect(page.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Cookie notice' })).toHaveCount(0);
  } finally {
    await putSettings(page, 'others', { cookie_notice: true });
  }
});

test('maintenance mode is switched on and off on the others tab: a visitor gets the maintenance page meanwhile', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  const visitor = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  try {
    await page.goto('/admin/settings/others');
    await expect(page.getByRole('heading', { name: 'Maintenance' })).toBeVisible();
    await expect(page.getByLabel('Expected to last')).toHaveValue('60');
    await page.getByLabel('Maintenance mode').check();
    await page.getByLabel('Expected to last').fill('15');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('toast')).toContainText('Settings saved.');
    await page.getByLabel('Maintenance mode').focus();
    await shot(page, 'admin-settings-maintenance-on-desktop');
    await expectNoSeriousA11yViolations(page, 'admin-settings-maintenance-on-desktop');
    const answer = await visitor.goto('/sign-up');
    expect(answer?.status()).toBe(503);
    expect(answer?.headers()['retry-after']).toBe('900');
    // The admin goes on working.
    await page.reload();
    await expect(page.getByLabel('Maintenance mode')).toBeChecked();
    await page.getByLabel('Maintenance mode').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('toast')).toContainText('Settings saved.');
    expect((await visitor.goto('/sign-up'))?.status()).toBe(200);
  } finally {
    await visitor.close();
    await putSettings(page, 'others', { maintenance_mode: false, maintenance_retry_after_seconds: 3600 });
  }
});

test('the team folder limits are set on the others tab and kept', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  try {
    await page.goto('/admin/settings/others');
    await expect(page.getByRole('heading', { name: 'Team folders' })).toBeVisible();
    await page.getByLabel('Members per owner').fill('25');
    await page.getByLabel('Invitations expire after').fill('7');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('toast')).toContainText('Settings saved.');
    await page.reload();
    await expect(page.getByLabel('Members per owner')).toHaveValue('25');
    await expect(page.getByLabel('Invitations expire after')).toHaveValue('7');
    await page.getByLabel('Invitations expire after').fill('0');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('The invitation expiry in days must be at least 1.')).toBeVisible();
    await page.getByLabel('Invitations expire after').focus();
    await shot(page, 'admin-settings-team-limits-error-desktop');
  } finally {
    await putSettings(page, 'others', { max_team_members: 10, team_invitation_expiry_days: 14 });
  }
});

const TABS = [
  ['appearance', 'App name'],
  ['index', 'Title'],
  ['environment', 'Driver'],
  ['others', 'Storage per user'],
] as const;

for (const [label, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
  test(`each settings tab renders in light and dark on ${label}`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await signInAdmin(page);
    // The cookie notice would cover the bottom of each shot: dismissed once, as a person would.
    await page.getByRole('button', { name: 'Got it' }).click();
    for (const [tab, field] of TABS) {
      await page.goto(`/admin/settings/${tab}`);
      await expect(page.getByLabel(field, { exact: true }).first()).toBeVisible();
      for (const scheme of ['light', 'dark'] as const) {
        await withScheme(page, scheme);
        await shot(page, `admin-settings-${tab}-${scheme}-${label}`);
        await expectNoSeriousA11yViolations(page, `admin-settings-${tab}-${scheme}-${label}`);
      }
    }
  });
}
