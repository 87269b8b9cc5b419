import { expect, PASSWORD, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

// A 2×2 PNG, enough for the server to decode and re-encode.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

test('profile fields auto-save as you type and stay saved', async ({ page }) => {
  await signUpAndOpen(page, '/user/profile');
  const saves: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/user/settings') && r.method() === 'POST') saves.push(r.postData() ?? '');
  });
  await page.getByLabel('Display name').fill('Grace B. Hopper');
  await page.getByLabel('First name').fill('Grace');
  await expect(page.getByText('Saved').first()).toBeVisible();
  await expect.poll(() => saves.length).toBeGreaterThanOrEqual(2);
  expect(JSON.parse(saves[0]!)).toEqual({ name: 'name', value: 'Grace B. Hopper', _method: 'patch' });
  await expect(page.getByTestId('sidebar-user').or(page.getByRole('banner'))).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Display name')).toHaveValue('Grace B. Hopper');
  await expect(page.getByLabel('First name')).toHaveValue('Grace');
});

test('emptying the display name says it was not saved, and saves no blank name', async ({ page }) => {
  await signUpAndOpen(page, '/user/profile', 'Blank Test');
  const saves: string[] = [];
  page.on('request', (r) => r.url().endsWith('/api/user/settings') && saves.push(r.postData() ?? ''));
  await page.getByLabel('Display name').fill('');
  await expect(page.getByText('This field cannot be empty, so it was not saved.')).toBeVisible();
  await expect(page.getByLabel('Display name')).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'profile-name-required-light-desktop');
  await expectNoSeriousA11yViolations(page, 'profile-name-required-light-desktop');
  // Typing a name again clears the message and saves it.
  await page.getByLabel('Display name').fill('Blank Test');
  await expect(page.getByText('This field cannot be empty, so it was not saved.')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  expect(saves.every((body) => !body.includes('"value":""'))).toBe(true);
  await page.reload();
  await expect(page.getByLabel('Display name')).toHaveValue('Blank Test');
});

test('an avatar upload replaces the letter, and a file that is not an image gets the alert popup', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpAndOpen(page, '/user/profile');
  await expect(page.locator('main img')).toHaveCount(0);
  await page.locator('#avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('toast')).toContainText('Your avatar was updated.');
  await expect(page.locator('main img')).toHaveAttribute('src', /\/avatars\/.+-md\.webp$/);
  await expect(page.getByTestId('sidebar-user').locator('img')).toHaveAttribute('src', /-sm\.webp$/);

  await page.locator('#avatar-input').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
  const alert = page.getByRole('dialog');
  await expect(alert).toContainText('The avatar must be a PNG, JPEG, WebP or GIF image.');
  await expect(alert.getByRole('button', { name: 'That’s horrible!' })).toBeVisible();
  await shot(page, 'alert-popup-light-desktop');
  await expectNoSeriousA11yViolations(page, 'alert-popup-light-desktop');
  await page.keyboard.press('Escape');
  await expect(alert).toBeHidden();
});

test('changing the password shows field errors, then succeeds', async ({ page }) => {
  await signUpAndOpen(page, '/user/settings/password');
  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password', { exact: true }).fill('password1234');
  await expect(page.getByTestId('password-strength')).toContainText('Too easy to guess');
  await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
  await expect(page.getByTestId('password-strength')).toContainText('Strong');
  await page.getByLabel('Confirm new password').fill('a brand new secret');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The current password is incorrect.')).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('toast')).toContainText('Your password was changed.');
  await expect(page.getByLabel('Current password')).toHaveValue('');
});

test('an access token is shown once, works as a bearer token, and can be revoked', async ({ page, playwright }) => {
  await signUpAndOpen(page, '/user/settings/tokens');
  await expect(page.getByText('You have no access tokens yet.')).toBeVisible();
  // The field is empty (no placeholder that reads like a value) with a hint under it; an empty name is refused beside it.
  const name = page.getByLabel('Token name');
  await expect(name).toHaveValue('');
  expect(await name.getAttribute('placeholder')).toBeNull();
  await expect(name).toHaveAccessibleDescription(/Where it will be used/);
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(/The name field is required\./);
  await expect(page.getByText('The name field is required.')).toBeVisible();
  await shot(page, 'settings-tokens-empty-name-light-desktop');
  await expectNoSeriousA11yViolations(page, 'settings-tokens-empty-name');
  await name.fill('nightly backup');
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByTestId('new-token').textContent())!.trim();
  expect(token).toMatch(/^cd_/);
  await expect(page.getByText('nightly backup')).toBeVisible();
  await shot(page, 'tokens-created-light-desktop');
  await expectNoSeriousA11yViolations(page, 'tokens-created-light-desktop');

  const script = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  expect((await script.get('/api/user', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);

  await page.getByRole('button', { name: 'Revoke nightly backup' }).click();
  await expect(page.getByText('You have no access tokens yet.')).toBeVisible();
  expect((await script.get('/api/user', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
  await script.dispose();
});

test('at an IP address the passkeys card says a passkey needs a host name, instead of failing', async ({ page }) => {
  // The shared e2e server answers at 127.0.0.1 (tests/e2e/passkeys.spec.ts runs its own at localhost).
  expect(new URL(process.env.E2E_BASE_URL!).hostname).toBe('127.0.0.1');
  await signUpAndOpen(page, '/user/settings/password');
  const card = page.getByTestId('passkeys-card');
  const notice = card.getByText('Passkeys need the site to be opened at a host name');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('(127.0.0.1)');
  await expect(card.getByRole('button', { name: 'Add a passkey' })).toHaveCount(0);
  await expect(card.getByText('Add one to sign in without typing your password.')).toHaveCount(0);
  await shot(card, 'settings-passkeys-ip-address');
  await expectNoSeriousA11yViolations(page, 'settings-passkeys-ip-address');
  // The sign-in page offers no passkey button there.
  await page.context().clearCookies();
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
});
