import type { Page } from '@playwright/test';
import en from '../../messages/en.json' with { type: 'json' };
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, test } from './fixtures.ts';

function keysOf(source: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(source).flatMap(([key, value]) => (key.startsWith('$') ? [] : typeof value === 'string' ? [prefix + key] : keysOf(value as Record<string, unknown>, `${prefix}${key}.`)));
}
const KEYS = keysOf(en).sort();

/** Signs the e2e admin in through the API in this page's browser context. */
async function signInAdmin(page: Page): Promise<void> {
  const headers = { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' };
  const res = await page.request.post('/login', { data: E2E_ADMIN, headers });
  expect(res.status()).toBe(200);
}

/** Removes a language the test added, through the API, so a failed run leaves nothing behind for the next. */
async function removeLanguage(page: Page, code: string): Promise<void> {
  const headers = { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' };
  await page.request.delete(`/api/admin/languages/${code}`, { headers });
}

test('an admin adds a language, translates the sidebar’s “Files”, and a person who picks it sees it', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAdmin(page);
  await removeLanguage(page, 'fr');
  await page.goto('/admin/language');
  const list = page.getByRole('list', { name: 'Languages' });
  await expect(list.getByTestId('language-de')).toContainText('Deutsch');
  await expect(page.getByRole('link', { name: 'Languages', exact: true })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('button', { name: 'Add language' }).click();
  await page.getByLabel('Language code').fill('en_US');
  await page.getByLabel('Name', { exact: true }).fill('Français');
  await page.getByRole('button', { name: 'Add language' }).click();
  await expect(page.getByText('“en_US” is not a BCP 47 language tag')).toBeVisible();
  await expect(page.getByLabel('Language code')).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'admin-languages-add-error-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-languages-add-error-light-desktop');
  await page.getByLabel('Language code').fill('fr');
  await page.getByRole('button', { name: 'Add language' }).click();

  // The new language opens in the string editor, every string still English.
  await expect(page).toHaveURL(/\/admin\/language\/fr$/);
  await expect(page.getByRole('heading', { name: 'Strings of Français', level: 1 })).toBeVisible();
  await expect(page.getByTestId('toast')).toContainText('Français was added.');
  await page.getByRole('button', { name: 'Untranslated' }).click();
  await expect(page.getByTestId('strings-count')).not.toHaveText('0 strings');
  // About 700 keys, yet only the rows on screen are in the page.
  await expect(page.getByTestId('strings-count')).toHaveText(`${KEYS.length} strings`);
  expect(await page.getByTestId('strings').locator('li').count()).toBeLessThan(40);
  // Scrolling down fetches the next pages (100 keys each) until the last key shows.
  const lastRow = page.getByTestId(`string-${KEYS.at(-1)}`);
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return lastRow.isVisible();
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  expect(await page.getByTestId('strings').locator('li').count()).toBeLessThan(40);
  await page.evaluate(() => window.scrollTo(0, 0));

  await page.getByRole('searchbox', { name: 'Search strings' }).fill('locations.home');
  const row = page.getByTestId('string-locations.home');
  await expect(page.getByTestId('strings-count')).toHaveText('1 string');
  await expect(row).toContainText('Untranslated');
  await row.getByLabel('Text of locations.home').fill('Fichiers');
  await row.getByLabel('Text of locations.home').press('Enter');
  await expect(row.getByRole('status')).toHaveText('Saved');
  // Translated, it leaves the untranslated list on the next search; under "Changed only" it is there.
  await page.getByRole('button', { name: 'Changed only' }).click();
  await expect(row).toContainText('Changed');
  await expect(row.getByLabel('Text of locations.home')).toHaveValue('Fichiers');

  // A text that drops the English placeholder is refused, and the message names it.
  await page.getByRole('button', { name: 'All', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search strings' }).fill('reset_subtitle');
  const subtitle = page.getByTestId('string-auth.reset_subtitle');
  await expect(subtitle).toContainText('Keep {email}');
  await subtitle.getByLabel('Text of auth.reset_subtitle').fill('Choisissez un nouveau mot de passe.');
  await subtitle.getByRole('button', { name: 'Save' }).click();
  await expect(subtitle.getByRole('alert')).toContainText('must keep the placeholder {email}');
  await shot(page, 'admin-languages-placeholder-error-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-languages-placeholder-error-light-desktop');

  // A person (here the admin) picks Français in their profile: the app reloads in it.
  await page.goto('/user/profile');
  await page.getByLabel('Language', { exact: true }).selectOption('fr');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
  await expect(sidebar.getByRole('link', { name: 'Fichiers' })).toBeVisible();
  await expect(page.getByLabel('Language', { exact: true })).toHaveValue('fr');
  await shot(page, 'profile-language-french-light-desktop');

  // Deleting the language sends them back to their browser's language on the next page.
  await page.goto('/admin/language');
  await page.getByRole('button', { name: 'Delete: Français' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Delete Français?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('language-fr')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Files' })).toBeVisible();
});

test('a right-to-left language turns the app’s document around', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAdmin(page);
  await removeLanguage(page, 'he');
  await page.goto('/admin/language');
  await page.getByRole('button', { name: 'Add language' }).click();
  await page.getByLabel('Language code').fill('he');
  await page.getByLabel('Name', { exact: true }).fill('עברית');
  await page.getByLabel('Written right to left').check();
  await page.getByRole('button', { name: 'Add language' }).click();
  await expect(page.getByRole('heading', { name: 'Strings of עברית' })).toBeVisible();
  await page.context().addCookies([{ name: 'locale', value: 'he', url: process.env.E2E_BASE_URL! }]);
  await page.goto('/admin/language');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('language-he')).toContainText('Right to left');
  await shot(page, 'admin-languages-rtl-light-desktop');
  await removeLanguage(page, 'he');
});

for (const scheme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`the languages screens render in ${scheme} mode on ${label}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await signInAdmin(page);
      await page.goto('/admin/language');
      await expect(page.getByTestId('language-en')).toContainText('English');
      await shot(page, `admin-languages-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(page, `admin-languages-${scheme}-${label}`);
      await page.getByRole('link', { name: 'Edit strings: Deutsch' }).click();
      await expect(page.getByRole('heading', { name: 'Strings of Deutsch' })).toBeVisible();
      await expect(page.getByTestId('string-actions.cancel')).toBeVisible();
      await shot(page, `admin-languages-editor-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(page, `admin-languages-editor-${scheme}-${label}`);
    });
  }
}
