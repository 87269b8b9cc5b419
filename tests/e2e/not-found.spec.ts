import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

test('an unknown path answers 404', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expectNoSeriousA11yViolations(page, '404');
});
