import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

/**
 * The access tokens page shows the WebDAV address (APP_URL/dav/) to copy, with steps for Finder,
 * Windows and rclone; the address and a token made on the page mount the drive (a PROPFIND).
 * Screenshots in light, dark and at phone width.
 */
test('the tokens page shows the WebDAV address to copy, and it answers with an app password', async ({ page, context, playwright }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = await signUpAndOpen(page, '/user/settings/tokens');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Got it' }).click();
  const card = page.getByTestId('webdav-card');
  await expect(card.getByRole('heading', { name: 'Mount your drive (WebDAV)' })).toBeVisible();
  const address = (await page.getByTestId('webdav-address').textContent())!.trim();
  expect(address).toBe(`${new URL(process.env.E2E_BASE_URL!).origin}/dav/`);
  await expect(card).toContainText(email);
  await expect(card.getByRole('heading', { name: 'macOS Finder' })).toBeVisible();
  await expect(card.getByRole('heading', { name: 'Windows File Explorer' })).toBeVisible();
  await expect(page.getByTestId('webdav-rclone')).toContainText(`url=${address} vendor=other user=${email}`);

  await card.getByRole('button', { name: 'Copy the WebDAV address' }).click();
  await expect(card.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

  // A token made here signs in at that address.
  await page.getByLabel('Token name').fill('Laptop');
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByTestId('new-token').textContent())!.trim();
  const client = await playwright.request.newContext();
  const auth = `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
  const res = await client.fetch(address, { method: 'PROPFIND', headers: { Authorization: auth, Depth: '0' } });
  expect(res.status()).toBe(207);
  await client.dispose();

  await shot(page, 'webdav-settings-light-desktop');
  await expectNoSeriousA11yViolations(page, 'webdav-settings-light-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'webdav-settings-light-phone');
  await expectNoSeriousA11yViolations(page, 'webdav-settings-light-phone');
  // The theme is applied as the page loads.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expect(page.getByTestId('webdav-address')).toHaveText(address);
  await expect(page.getByText('Laptop', { exact: true })).toBeVisible();
  await shot(page, 'webdav-settings-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'webdav-settings-dark-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'webdav-settings-dark-phone');
  await expectNoSeriousA11yViolations(page, 'webdav-settings-dark-phone');
});
