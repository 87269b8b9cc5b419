import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signIn, test } from './fixtures.ts';

test('the admin dashboard shows the figures, the warnings, the newest accounts and the audit log', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Uploads today')).toBeVisible();
  // The e2e server mails to the log: the admin is told nobody receives mail.
  const warnings = page.getByRole('list', { name: 'Warnings' });
  await expect(warnings).toContainText('Mail is only written to the log');
  await expect(warnings.getByRole('link', { name: 'Fix this' }).first()).toHaveAttribute('href', '/admin/settings/environment');
  // Each default left is named on its own: the name (fixed in Appearance), and the address with what it is now.
  await expect(warnings.getByRole('listitem').filter({ hasText: 'The app still has the default name.' }).getByRole('link', { name: 'Fix this' })).toHaveAttribute('href', '/admin/settings/appearance');
  await expect(warnings.getByRole('listitem').filter({ hasText: `The public address is still ${process.env.E2E_BASE_URL} (APP_URL)` })).toBeVisible();
  const newest = page.getByRole('region', { name: 'Newest accounts' });
  await expect(newest.getByRole('link').first()).toHaveAttribute('href', /^\/admin\/user\/[0-9a-f-]{36}$/);
  const audit = page.getByRole('region', { name: 'Audit log' });
  await expect(audit).toBeVisible();
  await expect(audit.getByRole('combobox', { name: 'Show' })).toBeVisible();
  await shot(page, 'admin-dashboard-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-dashboard-light-desktop');

  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'admin-dashboard-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-dashboard-dark-desktop');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await shot(page, 'admin-dashboard-dark-phone');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await shot(page, 'admin-dashboard-light-phone');
  await expectNoSeriousA11yViolations(page, 'admin-dashboard-light-phone');
});
