import type { Page } from '@playwright/test';
import { expect, signUpAndOpen, test } from './fixtures.ts';

/**
 * The pages' Content-Security-Policy (src/server/http/csp.ts) must not break them: the theme script
 * runs before first paint, the islands hydrate, the PDF preview renders, and the browser reports no
 * violation on the way.
 */

const item = (page: Page, name: string) => page.getByRole('option', { name, exact: true });

function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
  });
  void page.exposeFunction('__cspViolation', (text: string) => violations.push(text));
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __cspViolation: (t: string) => void }).__cspViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

test('public pages and the file area work under the CSP, with the theme script and islands running and no violation', async ({ page }) => {
  const violations = watchViolations(page);
  await page.addInitScript(() => localStorage.setItem('theme_mode', 'dark'));

  const home = await page.goto('/');
  const csp = home!.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("frame-ancestors 'none'");
  // The inline theme script ran (allowed by its hash): the saved dark choice is applied.
  await expect(page.locator('html')).toHaveClass(/dark/);

  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.goto('/contact-us');
  await expect(page.locator('html')).toHaveClass(/dark/);

  await signUpAndOpen(page);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);

  const upload = await page.request.post('/api/upload', {
    data: PDF,
    headers: { 'Content-Type': 'application/octet-stream', 'X-File-Name': 'report.pdf', Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect(upload.status()).toBe(201);
  await page.reload();
  await item(page, 'report.pdf').dblclick();
  const frame = page.getByRole('dialog', { name: 'report.pdf' }).locator('iframe');
  await expect(frame).toBeVisible();
  // Chromium's PDF viewer loads inside the sandboxed preview (the blocked page would have no viewer frame).
  await expect.poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://'))).toBe(true);

  expect(violations).toEqual([]);
});
