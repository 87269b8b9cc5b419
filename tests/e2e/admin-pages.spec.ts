import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signIn, test } from './fixtures.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function inScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
}

async function lookAt(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await inScheme(page, scheme);
    await shot(page, `${name}-${scheme}`);
    await expectNoSeriousA11yViolations(page, `${name}-${scheme}`);
  }
  await inScheme(page, 'light');
}

async function signInAsAdmin(page: Page) {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/platform\/files$/);
  // The cookie notice sits over the bottom of the screen, where the editor's buttons are.
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toBeHidden();
}

/** The API as the admin's browser calls it (same origin, the CSRF header). */
const apiHeaders = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });

test('an admin edits the terms page with a live preview and the public page changes', async ({ page, context }) => {
  // Four screenshots with an accessibility scan each.
  test.setTimeout(60_000);
  await page.setViewportSize(DESKTOP);
  await signInAsAdmin(page);
  const original = (await (await page.request.get('/api/admin/pages/terms-of-service', { headers: apiHeaders() })).json()).data.attributes;

  try {
    await page.goto('/admin/dashboard');
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Pages' }).click();
    await expect(page).toHaveURL(/\/admin\/pages$/);
    await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
    const terms = page.getByRole('row').filter({ hasText: 'Terms of Service' });
    await expect(terms).toContainText('/page/terms-of-service');
    await expect(terms).toContainText('Shown');
    await lookAt(page, 'admin-pages-list-desktop');

    await terms.getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(/\/admin\/pages\/terms-of-service$/);
    const preview = page.getByTestId('page-preview');
    await expect(preview.getByRole('heading', { name: 'Your account', level: 2 })).toBeVisible();
    await expect(page.getByLabel('Address')).toHaveAttribute('readonly', '');
    await expect(page.getByRole('button', { name: 'Delete page' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();

    const content = page.getByLabel('Content');
    await expect(content).toHaveCSS('font-family', /mono/i);
    await content.fill(`${original.content}\n\n## Refunds\n\nAsk within **14 days**. <b>raw</b> [bad](javascript:alert(1))`);
    await expect(preview.getByRole('heading', { name: 'Refunds', level: 2 })).toBeVisible();
    await expect(preview.locator('strong')).toHaveText('14 days');
    // Raw HTML shows as text and the script link is no link: as on the public page.
    await expect(preview).toContainText('<b>raw</b> [bad](javascript:alert(1))');
    await expect(preview.locator('a[href^="javascript"], b')).toHaveCount(0);
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await lookAt(page, 'admin-page-editor-desktop');

    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('toast')).toContainText('The page was saved.');
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();

    const visitor = await context.browser()!.newPage();
    await visitor.goto(`${process.env.E2E_BASE_URL}/page/terms-of-service`);
    await expect(visitor.getByRole('heading', { name: 'Refunds', level: 2 })).toBeVisible();
    await expect(visitor.locator('article strong')).toHaveText('14 days');
    await visitor.close();
  } finally {
    await page.request.post('/api/admin/pages/terms-of-service', { headers: apiHeaders(), data: { _method: 'patch', content: original.content } });
  }
});

test('an admin creates a page on a phone, finds it in the footer, and deletes it', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize(PHONE);
  await signInAsAdmin(page);
  await page.goto('/admin/pages');
  await expect(page.getByRole('row').filter({ hasText: 'Privacy Policy' })).toBeVisible();
  await lookAt(page, 'admin-pages-list-phone');

  await page.getByRole('link', { name: 'New page' }).click();
  await expect(page).toHaveURL(/\/admin\/pages\/new$/);
  await expect(page.getByRole('heading', { name: 'New page', level: 1 })).toBeVisible();
  await page.getByLabel('Title').fill('Press kit');
  await expect(page.getByLabel('Address')).toHaveValue('press-kit');
  const content = page.getByLabel('Content');
  await content.fill('Our logos and colours.\n\n- Logo in **SVG**\n- Brand colour `#4f46e5`');
  // On a phone the preview is one tap away, never beside the text.
  const preview = page.getByTestId('page-preview');
  await expect(preview).toBeHidden();
  await lookAt(page, 'admin-page-new-write-phone');
  await page.getByRole('tab', { name: 'Preview' }).click();
  await expect(preview.getByText('SVG')).toBeVisible();
  await expect(content).toBeHidden();
  await lookAt(page, 'admin-page-new-preview-phone');
  await page.getByRole('tab', { name: 'Write' }).click();
  await expect(content).toBeVisible();

  // The server's refusal shows at the field, and nothing is created.
  await page.getByLabel('Address').fill('Press Kit');
  await page.getByRole('button', { name: 'Create page' }).click();
  await expect(page.getByText('The slug must be lowercase.')).toBeVisible();
  await expect(page.getByLabel('Address')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/admin\/pages\/new$/);
  await page.getByLabel('Address').fill('press-kit');
  await expect(page.getByText('The slug must be lowercase.')).toHaveCount(0);

  await page.getByRole('button', { name: 'Create page' }).click();
  await expect(page.getByTestId('toast')).toContainText('The page was created.');
  await expect(page).toHaveURL(/\/admin\/pages\/press-kit$/);
  await expect(page.getByRole('button', { name: 'Delete page' })).toBeVisible();

  await page.goto('/');
  const footerLink = page.getByRole('navigation', { name: /footer|pages/i }).getByRole('link', { name: 'Press kit' });
  await expect(footerLink).toBeVisible();
  await footerLink.click();
  await expect(page.getByRole('heading', { name: 'Press kit', level: 1 })).toBeVisible();
  await expect(page.locator('article li').first()).toContainText('Logo in SVG');

  await page.goto('/admin/pages/press-kit');
  await page.getByRole('button', { name: 'Delete page' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('“Press kit” will be removed');
  await dialog.getByRole('button', { name: 'Delete page' }).click();
  await expect(page.getByTestId('toast')).toContainText('The page was deleted.');
  await expect(page).toHaveURL(/\/admin\/pages$/);
  await expect(page.getByRole('row').filter({ hasText: 'Press kit' })).toHaveCount(0);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Press kit' })).toHaveCount(0);
});
