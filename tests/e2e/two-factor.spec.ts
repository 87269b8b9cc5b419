import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, PASSWORD, shot, signIn, signUpAndOpen, test } from './fixtures.ts';

/**
 * TOTP two-factor authentication as a person uses it: turned on from the password settings with
 * the key shown on screen (the test is the authenticator app), then signing in with a code, and
 * with a recovery code. Codes come from the real clock: the sign-in after setup uses the next
 * step's code, which the server accepts whether or not a step boundary passed in between.
 */
const step = (offsetSeconds = 0) => Math.floor((Date.now() / 1000 + offsetSeconds) / 30);
const codeAt = (key: string, offsetSeconds = 0) => generateHOTP(decodeBase32IgnorePadding(key), BigInt(step(offsetSeconds)), 6);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Light, dark and phone screenshots of what is on screen now, each checked with axe. */
async function shots(page: Page, name: string) {
  const dark = (on: boolean) => page.evaluate((value) => document.documentElement.classList.toggle('dark', value), on);
  await page.setViewportSize(DESKTOP);
  await shot(page, `${name}-light-desktop`);
  await expectNoSeriousA11yViolations(page, `${name}-light-desktop`);
  await dark(true);
  await shot(page, `${name}-dark-desktop`);
  await expectNoSeriousA11yViolations(page, `${name}-dark-desktop`);
  await page.setViewportSize(PHONE);
  await shot(page, `${name}-dark-phone`);
  await dark(false);
  await shot(page, `${name}-light-phone`);
  await expectNoSeriousA11yViolations(page, `${name}-light-phone`);
  await page.setViewportSize(DESKTOP);
}

/** The cookie notice sits over the bottom of the screen, where the card ends. */
async function dismissCookieNotice(page: Page) {
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toBeHidden();
}

async function logOut(page: Page) {
  await page.goto('/platform/files');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('turn on TOTP from the key on screen, then sign in with a code and with a recovery code', async ({ page }) => {
  // Six screens, each shot four times and checked with axe three times.
  test.setTimeout(180_000);
  const email = await signUpAndOpen(page, '/user/settings/password');
  await dismissCookieNotice(page);
  const card = page.getByTestId('two-factor-card');
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await shots(page, 'two-factor-card-off');

  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByRole('img', { name: 'QR code with the key for your authenticator app' })).toBeVisible();
  const key = ((await card.getByTestId('totp-key').textContent()) ?? '').replace(/\s/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await shots(page, 'two-factor-card-setup');

  // A wrong code says so and leaves it off.
  await card.getByLabel('6-digit code from the app').fill('000000' === codeAt(key) ? '111111' : '000000');
  await card.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(card.getByText('That code is not right')).toBeVisible();

  await card.getByLabel('6-digit code from the app').fill(codeAt(key));
  await card.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(card.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  const codes = await card.getByTestId('recovery-codes').locator('li').allInnerTexts();
  expect(codes).toHaveLength(10);
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  await shots(page, 'two-factor-card-codes');
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByTestId('recovery-codes-left')).toHaveText('10 of 10 recovery codes left.');
  await shots(page, 'two-factor-card-on');

  // Sign in again: the password leads to the second step, not into the app.
  await logOut(page);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/sign-in\/two-factor$/);
  const codeField = page.getByLabel('Authentication code');
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  await shots(page, 'two-factor-sign-in');
  await page.goto('/platform/files');
  await expect(page).toHaveURL(/\/sign-in\?redirect=/);

  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/sign-in\/two-factor/);
  await page.getByLabel('Authentication code').fill(codeAt(key, 30));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/platform\/files/);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  // Then with a recovery code, after a wrong one.
  await logOut(page);
  await signIn(page, email, PASSWORD);
  await page.getByRole('link', { name: 'Use a recovery code instead' }).click();
  await expect(page.getByLabel('Recovery code')).toBeFocused();
  await page.getByLabel('Recovery code').fill('aaaa-bbbb-cccc');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That recovery code is not right')).toBeVisible();
  await expect(page.getByLabel('Recovery code')).toHaveAttribute('aria-invalid', 'true');
  await shots(page, 'two-factor-sign-in-recovery-error');
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/platform\/files/);

  await page.goto('/user/settings/password');
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('9 of 10 recovery codes left.');

  // New recovery codes: the old ones are replaced, and all ten are shown once.
  await card.getByRole('button', { name: 'New recovery codes' }).click();
  await card.getByLabel('Current password').fill(PASSWORD);
  await card.getByRole('button', { name: 'New recovery codes' }).click();
  await expect(card.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  const fresh = await card.getByTestId('recovery-codes').locator('li').allInnerTexts();
  expect(fresh).toHaveLength(10);
  expect(fresh).not.toContain(codes[1]);
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByTestId('recovery-codes-left')).toHaveText('10 of 10 recovery codes left.');

  // Off again, with the password.
  await card.getByRole('button', { name: 'Turn off' }).click();
  await expect(card.getByLabel('Current password')).toBeFocused();
  await shots(page, 'two-factor-card-disable');
  await card.getByLabel('Current password').fill('not the password');
  await card.getByRole('button', { name: 'Turn off' }).click();
  await expect(card.getByText('The password is incorrect.')).toBeVisible();
  await card.getByLabel('Current password').fill(PASSWORD);
  await card.getByRole('button', { name: 'Turn off' }).click();
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Turn on' })).toBeVisible();
});

test('an admin resets a user’s second factor from the password tab', async ({ page, browser }) => {
  // The user turns it on in their own browser.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  const email = await signUpAndOpen(userPage, '/user/settings/password');
  const card = userPage.getByTestId('two-factor-card');
  await card.getByRole('button', { name: 'Turn on' }).click();
  const key = ((await card.getByTestId('totp-key').textContent()) ?? '').replace(/\s/g, '');
  await card.getByLabel('6-digit code from the app').fill(codeAt(key));
  await card.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(card.getByTestId('recovery-codes')).toBeVisible();
  const id = await userPage.evaluate(() => fetch('/api/user', { headers: { Accept: 'application/json' } }).then((r) => r.json()).then((b: { data: { id: string } }) => b.data.id));
  await userContext.close();

  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/platform\//);
  await dismissCookieNotice(page);
  await page.goto(`/admin/user/${id}/password`);
  const reset = page.getByTestId('two-factor-reset');
  await expect(reset.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await reset.getByRole('button', { name: 'Reset two-factor authentication' }).click();
  await expect(reset.getByRole('button', { name: 'Yes, reset' })).toBeFocused();
  await shots(page, 'two-factor-admin-reset');
  await reset.getByRole('button', { name: 'Yes, reset' }).click();
  await expect(page.getByText(`Two-factor authentication of ${email} was reset.`)).toBeVisible();
  await expect(reset).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await expect(page.getByTestId('two-factor-reset')).toHaveCount(0);
});

test('the second-step page without a sign-in under way sends you back to sign in', async ({ page }) => {
  await page.goto('/sign-in/two-factor?redirect=%2Fplatform%2Frecent');
  await page.getByLabel('Authentication code').fill('123456');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('This sign-in has expired. Sign in again.');
  await expect(page.getByLabel('Authentication code')).toHaveCount(0);
  await shots(page, 'two-factor-sign-in-expired');
  await page.getByRole('link', { name: 'Sign in again' }).click();
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fplatform%2Frecent$/);
});
