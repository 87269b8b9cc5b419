import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

const CATEGORIES = [
  ['images', 'Images', 'rgb(15, 159, 110)'],
  ['videos', 'Videos', 'rgb(220, 38, 38)'],
  ['audios', 'Audio', 'rgb(217, 119, 6)'],
  ['documents', 'Documents', 'rgb(2, 132, 199)'],
  ['others', 'Other files', 'rgb(147, 51, 234)'],
] as const;

test('an empty account: 0 B of the limit, the whole bar free, a legend of zeros; reached from the settings tabs', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  const fontRequests: string[] = [];
  page.on('request', (r) => {
    if (/twemoji[^/]*\.woff2/.test(r.url())) fontRequests.push(r.url());
  });
  await signUpAndOpen(page, '/user/profile');
  const tabs = page.getByRole('navigation', { name: 'Settings' });
  await expect(tabs.getByRole('link')).toHaveText(['Profile', 'Password', 'Storage', 'Access tokens']);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await tabs.getByRole('link', { name: 'Storage' }).click();
  await expect(page).toHaveURL(/\/user\/settings\/storage$/);
  await expect(page.getByRole('heading', { name: 'Storage', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/^Storage · /);
  await expect(tabs.getByRole('link', { name: 'Storage' })).toHaveAttribute('aria-current', 'page');
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 'no full page load').toBe(42);

  await expect(page.getByTestId('storage-used')).toHaveText('0 B');
  await expect(page.getByText('of 5.0 GB')).toBeVisible();
  await expect(page.getByText('0% used')).toBeVisible();
  await expect(page.getByText('5.0 GB free')).toBeVisible();

  const bar = page.getByRole('meter', { name: 'Storage used' });
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  const segments = bar.locator('[data-segment]');
  await expect(segments).toHaveCount(1);
  await expect(segments.first()).toHaveAttribute('data-segment', 'empty');
  const [barBox, emptyBox] = [await bar.boundingBox(), await segments.first().boundingBox()];
  expect(Math.round(emptyBox!.width)).toBe(Math.round(barBox!.width));

  const legend = page.getByTestId('storage-legend');
  for (const [key, label, colour] of CATEGORIES) {
    const row = legend.locator(`[data-category="${key}"]`);
    await expect(row).toContainText(label);
    await expect(row).toContainText('0 B');
    await expect(row).toContainText('0%');
    // SPEC §9 colours: images success, videos danger, audios warning, documents info, others purple.
    await expect(row.locator('span').first()).toHaveCSS('background-color', colour);
  }
  await expect(legend.locator('[data-category="empty"]')).toContainText('Free space');
  await expect(legend.locator('[data-category="empty"]')).toContainText('100%');
  await expect(page.getByText('Files in the trash count until the trash is emptied.')).toBeVisible();
  await shot(page, 'storage-light-desktop');
  await expectNoSeriousA11yViolations(page, 'storage-light-desktop');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'storage-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'storage-dark-desktop');
  expect(fontRequests, 'nothing here draws an emoji').toEqual([]);
});

test('the storage page on a phone, light and dark', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpAndOpen(page, '/user/settings/storage');
  await expect(page.getByTestId('storage-used')).toHaveText('0 B');
  await expect(page.getByTestId('storage-legend').locator('li')).toHaveCount(6);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'no sideways scrolling').toBeLessThanOrEqual(390);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await shot(page, 'storage-light-phone');
  await expectNoSeriousA11yViolations(page, 'storage-light-phone');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'storage-dark-phone');
  await expectNoSeriousA11yViolations(page, 'storage-dark-phone');
});

test('a failed load says so and tries again', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  let fail = true;
  await page.route('**/api/user/storage', (route) => (fail ? route.fulfill({ status: 500, json: { message: 'boom' } }) : route.fallback()));
  await signUpAndOpen(page, '/user/settings/storage');
  await expect(page.getByRole('alert')).toHaveText('Your storage usage could not be loaded.');
  fail = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('storage-used')).toHaveText('0 B');
});

test('usage by kind: each category its share of the bar, in its colour', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const GB = 1024 ** 3;
  const meta = { images: 1.5 * GB, videos: 1 * GB, audios: 0.25 * GB, documents: 0.2 * GB, others: 0.05 * GB };
  await page.route('**/api/user/storage', (route) =>
    route.fulfill({
      json: {
        data: {
          id: 'x',
          type: 'storage',
          attributes: { used: 3 * GB, capacity: 5 * GB, percentage: 60 },
          meta: Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, { used: v, percentage: (v / (5 * GB)) * 100 }])),
        },
      },
    }),
  );
  await signUpAndOpen(page, '/user/settings/storage');
  await expect(page.getByTestId('storage-used')).toHaveText('3.0 GB');
  await expect(page.getByText('60% used')).toBeVisible();
  await expect(page.getByText('2.0 GB free')).toBeVisible();
  const segments = page.getByRole('meter').locator('[data-segment]');
  await expect(segments).toHaveCount(6);
  for (const [key, , colour] of CATEGORIES) await expect(page.getByRole('meter').locator(`[data-segment="${key}"]`)).toHaveCSS('background-color', colour);
  await expect(page.getByTestId('storage-legend').locator('[data-category="images"]')).toContainText('30%');
  await shot(page, 'storage-used-light-desktop');
  await expectNoSeriousA11yViolations(page, 'storage-used-light-desktop');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'storage-used-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'storage-used-dark-desktop');
});
