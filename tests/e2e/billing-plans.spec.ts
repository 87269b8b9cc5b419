import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import type { AppContext } from '../../src/server/context.ts';
import { putSettings } from '../../src/server/settings/service.ts';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signIn, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext } from './seed.ts';

/**
 * The admin's plan screens (/admin/plans, /admin/plan/create/{fixed,metered}, a plan's tabs,
 * /admin/subscriptions) and the homepage pricing table. Subscriptions are written as rows: the
 * payment flow that makes them is tested in billing-pay.spec.ts.
 */

const GiB = 1024 ** 3;
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

async function signInAdmin(page: Page): Promise<void> {
  // The cookie notice is the shell's, tested elsewhere: dismissed so it does not cover the forms.
  await page.addInitScript(() => localStorage.setItem('cookie_notice_dismissed', '1'));
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard|\/platform\/files/);
}

/** A new account signed in in a browser context of its own. */
async function newUser(browser: Browser): Promise<{ page: Page; id: string }> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signUpAndOpen(page, '/platform/files', 'Ada Lovelace');
  const me = await page.request.get('/api/user', { headers: { Accept: 'application/json' } });
  return { page, id: ((await me.json()) as { data: { id: string } }).data.id };
}

/** A subscription row as PAY's verified webhook writes it, the plan's price copied onto it. */
async function subscribe(ctx: AppContext, userId: string, planId: string): Promise<void> {
  const plan = await ctx.db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  await ctx.db
    .insertInto('subscriptions')
    .values({
      id: randomUUID(),
      user_id: userId,
      plan_id: planId,
      status: 'active',
      driver: 'stripe',
      provider_ref: 'sub_e2e',
      amount_minor: plan.amount_minor,
      currency: plan.currency,
      interval: plan.interval,
      current_period_start: at,
      current_period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      ends_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** Light and dark at desktop size, then phone width, each screenshotted and checked with axe. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await shot(page, `${name}-light-desktop`);
  await expectNoSeriousA11yViolations(page, `${name}-light-desktop`);
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, `${name}-dark-desktop`);
  await expectNoSeriousA11yViolations(page, `${name}-dark-desktop`);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-light-phone`);
  await expectNoSeriousA11yViolations(page, `${name}-light-phone`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the plan list shows its empty state', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signInAdmin(page);
  // Plans are instance-wide: the empty list is answered here so the state shows whatever exists.
  await page.route('**/api/admin/plans', (route) => route.fulfill({ json: { data: [] } }));
  await page.goto('/admin/plans');
  await expect(page.getByRole('heading', { name: 'No plans yet' })).toBeVisible();
  await shots(page, 'billing-plans-empty');
});

test('an admin creates a fixed 1 GB plan and a metered plan; a subscriber gets 1 GB; deleting is refused, archiving works', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const ctx = await e2eContext();
  const suffix = Date.now().toString(36);
  const fixedName = `Personal ${suffix}`;
  const meteredName = `Pay as you go ${suffix}`;
  try {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAdmin(page);
    await page.goto('/admin/plans');
    await expect(page.getByRole('heading', { name: 'Plans', exact: true })).toBeVisible();

    // The fixed plan: a price with too many decimals is refused before anything is sent.
    await page.getByRole('link', { name: 'New fixed plan' }).click();
    await expect(page).toHaveURL(/\/admin\/plan\/create\/fixed$/);
    await page.getByLabel('Name').fill(fixedName);
    await page.getByLabel('Description').fill('Room for one person’s files.');
    await expect(page.getByLabel('Currency').locator('option[value="EUR"]')).toHaveCount(1);
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByLabel('Price', { exact: true }).fill('4.999');
    await page.getByLabel('Storage', { exact: true }).fill('1');
    await page.getByLabel('Storage unit').selectOption('GB');
    await page.getByLabel('Team members').fill('3');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await expect(page.getByText('Enter a number with at most 2 decimals.')).toBeVisible();
    await shots(page, 'billing-plans-create-fixed');
    await page.getByLabel('Price', { exact: true }).fill('4.99');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/plans') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create plan' }).click();
    const fixed = (await (await created).json()) as { data: { id: string; attributes: Record<string, unknown> } };
    expect(fixed.data.attributes).toMatchObject({ amount_minor: 499, currency: 'EUR', storage_bytes: GiB, max_team_members: 3, interval: 'month' });
    await expect(toast(page, 'The plan was created.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin/plan/${fixed.data.id}/fixed/settings$`));

    // Its subscribers tab, empty, then with one subscriber written as PAY would.
    await page.getByRole('link', { name: 'Subscribers' }).click();
    await expect(page.getByText('Nobody subscribes to this plan yet.')).toBeVisible();
    const user = await newUser(browser);
    await subscribe(ctx, user.id, fixed.data.id);
    await page.reload();
    await expect(page.getByRole('cell', { name: /Ada Lovelace/ })).toBeVisible();
    await expect(page.getByRole('cell', { name: /€4\.99/ })).toBeVisible();
    await shots(page, 'billing-plans-subscribers');
    // A link with the other plan type lands on the plan's own.
    await page.goto(`/admin/plan/${fixed.data.id}/metered/subscribers`);
    await expect(page).toHaveURL(new RegExp(`/admin/plan/${fixed.data.id}/fixed/subscribers$`));
    await expect(page.getByRole('cell', { name: /Ada Lovelace/ })).toBeVisible();

    // The metered plan.
    await page.goto('/admin/plans');
    await page.getByRole('link', { name: 'New metered plan' }).click();
    await expect(page).toHaveURL(/\/admin\/plan\/create\/metered$/);
    await page.getByLabel('Name').fill(meteredName);
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByLabel('Storage, per GB a day').fill('0.0033');
    await page.getByLabel('Bandwidth, per GB downloaded').fill('0.01');
    await page.getByLabel('Team member, per day').fill('0.05');
    await page.getByLabel('Flat fee per month').fill('2');
    await shots(page, 'billing-plans-create-metered');
    const createdMetered = page.waitForResponse((r) => r.url().endsWith('/api/admin/plans') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create plan' }).click();
    const metered = (await (await createdMetered).json()) as { data: { id: string; attributes: Record<string, unknown> } };
    expect(metered.data.attributes).toMatchObject({ storage_gb_day_micros: 3300, bandwidth_gb_micros: 10_000, member_day_micros: 50_000, flat_fee_minor: 200, currency: 'USD' });
    await expect(page).toHaveURL(new RegExp(`/admin/plan/${metered.data.id}/metered/settings$`));
    await expect(page.getByLabel('Storage, per GB a day')).toHaveValue('0.0033');
    await expect(page.getByLabel('Archived')).not.toBeChecked();
    await shots(page, 'billing-plans-settings');

    // Both in the list, with their status.
    await page.goto('/admin/plans');
    const fixedRow = page.getByRole('row').filter({ hasText: fixedName });
    await expect(fixedRow).toContainText('€4.99 / month');
    await expect(fixedRow).toContainText('Active');
    await expect(page.getByRole('row').filter({ hasText: meteredName })).toContainText('$2.00 / month + usage');
    await shots(page, 'billing-plans-list');

    // The admin switches the instance to fixed plans in the settings' others tab.
    await page.goto('/admin/settings/others');
    await page.getByRole('combobox', { name: 'Subscriptions' }).selectOption('fixed');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/settings/others') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await saved).status()).toBe(200);

    // With fixed plans on, the subscriber's storage is the plan's 1 GB, and the homepage lists the plan.
    await putSettings(ctx, { home_show_pricing: true });
    const storage = await user.page.request.get('/api/user/storage', { headers: { Accept: 'application/json' } });
    expect(((await storage.json()) as { data: { attributes: { capacity: number } } }).data.attributes.capacity).toBe(GiB);
    await page.goto('/');
    const pricing = page.locator('[data-section="pricing"]');
    await expect(pricing.getByRole('heading', { name: fixedName })).toBeVisible();
    await expect(pricing.getByRole('heading', { name: meteredName })).toHaveCount(0);
    await pricing.scrollIntoViewIfNeeded();
    await shots(page, 'billing-plans-homepage-pricing');
    // The public pricing page, linked from the site's header while there are plans to sell.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole('heading', { name: 'Plans and pricing', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: fixedName })).toBeVisible();
    await shots(page, 'billing-plans-pricing-page');

    // All subscriptions, filtered by the plan.
    await page.goto('/admin/subscriptions');
    await page.getByLabel('Plan', { exact: true }).selectOption(fixed.data.id);
    await expect(page.getByRole('row').filter({ hasText: 'Ada Lovelace' })).toBeVisible();
    await page.getByLabel('State').selectOption('completed');
    await expect(page.getByText('No subscriptions match these filters.')).toBeVisible();
    await page.getByLabel('State').selectOption('active');
    await expect(page.getByRole('row').filter({ hasText: 'Ada Lovelace' })).toBeVisible();
    await shots(page, 'billing-plans-subscriptions');

    // Deleting a plan with a subscriber is refused; archiving is offered and works.
    await page.goto(`/admin/plan/${fixed.data.id}/fixed/delete`);
    await expect(page.getByRole('alert')).toContainText('cannot be deleted');
    await shots(page, 'billing-plans-delete');
    await page.getByRole('button', { name: 'Archive instead' }).click();
    await expect(toast(page, 'The plan was archived.')).toBeVisible();
    await expect(page.locator('header').getByText('Archived', { exact: true })).toBeVisible();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: fixedName })).toHaveCount(0);
    await user.page.context().close();
  } finally {
    await putSettings(ctx, { subscription_type: 'none', home_show_pricing: true });
    await ctx.db.destroy();
  }
});
