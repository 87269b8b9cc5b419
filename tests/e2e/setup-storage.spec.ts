import { test as base, expect, type Page } from '@playwright/test';
import { S3_KEY, startS3, type RunningS3 } from '../support/s3.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { expectNoSeriousA11yViolations, shot } from './fixtures.ts';

// The wizard's environment step with S3 storage, against a real S3-compatible server (s3rver):
// Check storage with a wrong key, then a good one, saved and shown again on the way back.
let fresh: RunningServer;
let s3: RunningS3;
const test = base.extend<object, { freshServer: RunningServer }>({
  freshServer: [
    async ({}, use) => {
      s3 = await startS3();
      fresh = await startServer({ db: 'sqlite', installed: false, storage: 'local' });
      await use(fresh);
      await fresh.stop();
      await s3.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ freshServer }, use) => {
    await use(freshServer.url);
  },
});

const setupToken = () => /"setup_token":"([^"]+)"/.exec(fresh.logs.find((l) => l.includes('setup_token')) ?? '')![1]!;

async function continueTo(page: Page, next: string) {
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/setup-wizard/${next}$`));
}

/** Light, dark and phone width of the saved step (a reload shows what was saved). */
async function shots(page: Page, name: string) {
  for (const [scheme, viewport, suffix] of [['light', { width: 1280, height: 900 }, ''], ['dark', { width: 1280, height: 900 }, '-dark'], ['light', { width: 390, height: 844 }, '-phone']] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(viewport);
    await page.reload();
    await expect(page.getByLabel('Bucket')).toHaveValue(s3.bucket);
    await shot(page, `${name}${suffix}`);
    await expectNoSeriousA11yViolations(page, `${name}${suffix}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('the environment step checks and saves an S3 bucket', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await page.getByLabel('Setup token').fill(setupToken());
  await page.getByRole('button', { name: 'Start the setup' }).click();
  await expect(page.locator('[data-check="node"][data-ok="true"]')).toBeVisible();
  await continueTo(page, 'purchase-code');
  await page.getByLabel('I accept the licence').check();
  await continueTo(page, 'database');
  await page.getByRole('radio', { name: /Keep the current database/ }).check();
  await continueTo(page, 'environment');

  await page.getByLabel('Storage driver').selectOption('s3');
  await page.getByLabel('Endpoint').fill(s3.endpoint);
  await page.getByLabel('Bucket').fill(s3.bucket);
  await page.getByLabel('Request checksums').selectOption('when_required');
  await page.getByLabel('Access key ID').fill('WRONGKEY');
  await page.getByLabel('Secret access key').fill('wrong secret');
  await page.getByLabel('Path-style addressing').check();
  await page.getByRole('button', { name: 'Check storage' }).click();
  await expect(page.getByText(/refused the access key or its secret/)).toBeVisible();
  await shot(page, 'setup-storage-error');
  await expectNoSeriousA11yViolations(page, 'setup-storage-error');

  await page.getByLabel('Access key ID').fill(S3_KEY);
  await page.getByLabel('Secret access key').fill(S3_KEY);
  await page.getByRole('button', { name: 'Check storage' }).click();
  await expect(page.getByRole('status').filter({ hasText: `The bucket "${s3.bucket}" works` })).toBeVisible();
  await shot(page, 'setup-storage-ok');
  await page.getByLabel('Sender name').fill('Drive');
  await continueTo(page, 'app-setup');

  // Back: the bucket is shown as saved, the secret never comes back (kept, sealed, unless replaced).
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/environment$/);
  await expect(page.getByLabel('Storage driver')).toHaveValue('s3');
  await expect(page.getByLabel('Secret access key')).toHaveValue('');
  await expect(page.getByLabel('Secret access key')).toHaveAttribute('placeholder', 'Saved: leave empty to keep it');
  await shots(page, 'setup-storage');
  await continueTo(page, 'app-setup');
});
