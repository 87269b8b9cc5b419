import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, test } from './fixtures.ts';

// The presigned-downloads switch on the admin settings' Others tab. The suite's server keeps blobs
// on its disk, so the switch says it applies only with S3 storage.
async function signInAdmin(page: Page): Promise<void> {
  const res = await page.request.post('/login', { data: E2E_ADMIN, headers: { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' } });
  expect(res.status()).toBe(200);
}

test('the presigned downloads switch on the Others tab', async ({ page }) => {
  await signInAdmin(page);
  for (const [scheme, viewport, suffix] of [['light', { width: 1280, height: 900 }, ''], ['dark', { width: 1280, height: 900 }, '-dark'], ['light', { width: 390, height: 844 }, '-phone']] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(viewport);
    await page.goto('/admin/settings/others');
    const box = page.getByLabel('Let the bucket serve downloads');
    await expect(box).toBeVisible();
    await expect(box).not.toBeChecked();
    await expect(page.getByText('Only with S3 storage: this server keeps files on its own disk')).toBeVisible();
    await shot(page, `admin-settings-presigned${suffix}`);
    await expectNoSeriousA11yViolations(page, `admin-settings-presigned${suffix}`);
  }
});
