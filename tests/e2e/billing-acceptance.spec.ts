import { test as base, type Browser, type Page } from '@playwright/test';
import { runBillingDay } from '../../src/server/billing/usage-job.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { at } from '../support/billing-ledger.ts';
import { PAY_ADMIN, startPayWorld, type PayWorld } from '../support/billing-pay.ts';
import { withSeed } from '../support/seed.ts';
import { e2eEmail, expect, PASSWORD, shot } from './fixtures.ts';

/**
 * Issue 15's acceptance, one story per test, on a server of its own pointed at the local fakes of
 * Stripe, Paystack and PayPal: everything the user does goes through the pages and the fakes'
 * hosted pages; payment state changes only through the fakes' signed webhooks.
 */
const test = base.extend<object, { pay: PayWorld }>({
  pay: [
    async ({}, use) => {
      const world = await startPayWorld();
      await withSeed(world.server, (ctx) => putSetting(ctx, 'subscription_type', 'fixed'));
      await use(world);
      await world.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ pay }, use) => {
    await use(pay.server.url);
  },
});
test.describe.configure({ mode: 'serial' });

const GiB = 1024 ** 3;
const item = (page: Page, name: string) => page.getByRole('option', { name, exact: true });

async function signInAs(page: Page, baseUrl: string, credentials: { email: string; password: string }) {
  await page.addInitScript(() => localStorage.setItem('cookie_notice_dismissed', '1'));
  const headers = { Origin: baseUrl, 'X-Requested-With': 'XMLHttpRequest' };
  expect((await page.request.post('/login', { data: credentials, headers })).status()).toBe(200);
}

/** A new account in a browser context of its own, signed in. */
async function newUser(browser: Browser, baseUrl: string, name: string): Promise<{ page: Page; id: string; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  const email = e2eEmail('accept');
  const headers = { Origin: baseUrl, 'X-Requested-With': 'XMLHttpRequest' };
  expect((await page.request.post('/register', { data: { name, email, password: PASSWORD, password_confirmation: PASSWORD }, headers })).status()).toBe(202);
  await signInAs(page, baseUrl, { email, password: PASSWORD });
  const me = await page.request.get('/api/user', { headers: { Accept: 'application/json' } });
  return { page, id: ((await me.json()) as { data: { id: string } }).data.id, close: () => context.close() };
}

/** The admin's plan form (/admin/plan/create/…), filled and sent; the new plan's id. */
async function createPlanInUi(page: Page, type: 'fixed' | 'metered', fill: () => Promise<void>): Promise<string> {
  await page.goto('/admin/plans');
  await page.getByRole('link', { name: type === 'fixed' ? 'New fixed plan' : 'New metered plan' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/plan/create/${type}$`));
  await fill();
  const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/plans') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Create plan' }).click();
  const res = await created;
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

test('a fixed 1 GB plan through the fake Stripe: storage, invoice, three failed renewals restrict, paying lifts it', async ({ page, browser, pay }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The admin creates a fixed 1 GB plan and a metered plan on the plan screens.
  await signInAs(page, pay.server.url, PAY_ADMIN);
  const fixedId = await createPlanInUi(page, 'fixed', async () => {
    await page.getByLabel('Name').fill(`Personal ${suffix}`);
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByLabel('Price', { exact: true }).fill('4.99');
    await page.getByLabel('Storage', { exact: true }).fill('1');
    await page.getByLabel('Storage unit').selectOption('GB');
    await page.getByLabel('Team members').fill('3');
  });
  await createPlanInUi(page, 'metered', async () => {
    await page.getByLabel('Name').fill(`Pay as you go ${suffix}`);
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByLabel('Storage, per GB a day').fill('1');
    await page.getByLabel('Flat fee per month').fill('2');
  });

  // A user subscribes to it through the fake Stripe checkout; the webhook makes it active.
  const user = await newUser(browser, pay.server.url, 'Mary Jackson');
  const u = user.page;
  await u.setViewportSize({ width: 1280, height: 800 });
  await u.goto('/user/settings/billing');
  const plan = u.getByRole('listitem').filter({ has: u.getByRole('heading', { name: `Personal ${suffix}` }) });
  await plan.getByRole('button', { name: 'Choose this plan' }).click();
  await u.getByRole('dialog', { name: 'Choose how to pay' }).getByRole('button', { name: 'Card (Stripe)' }).click();
  await expect(u.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await u.getByRole('button', { name: 'Pay' }).click();
  await expect(u).toHaveURL(/\/user\/settings\/billing/);
  const current = u.getByRole('region', { name: 'Your subscription' });
  await expect(current.getByText('Active')).toBeVisible();
  const subscription = await withSeed(pay.server, (ctx) => ctx.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow());
  expect(subscription).toMatchObject({ plan_id: fixedId, status: 'active', driver: 'stripe', amount_minor: 499, currency: 'USD' });

  // The plan's 1 GB is the storage.
  await u.goto('/user/settings/storage');
  await expect(u.getByText('of 1.0 GB').first()).toBeVisible();
  const storage = await u.request.get('/api/user/storage', { headers: { Accept: 'application/json' } });
  expect(((await storage.json()) as { data: { attributes: { capacity: number } } }).data.attributes.capacity).toBe(GiB);

  // The first period's invoice is on the billing page and opens at /invoices/{id}.
  await u.goto('/user/settings/billing');
  const invoiceRow = u.getByTestId('invoice-row');
  await expect(invoiceRow).toHaveCount(1);
  await expect(invoiceRow).toContainText('$4.99');
  await invoiceRow.getByRole('link', { name: /^View invoice/ }).click();
  await expect(u).toHaveURL(/\/invoices\/[\w-]+$/);
  await expect(u.getByRole('heading', { name: 'Invoice', level: 1 })).toBeVisible();
  await expect(u.getByTestId('invoice-total')).toHaveText('$4.99');

  // Three renewals fail: Stripe sends invoice.payment_failed, signed, for each attempt.
  const renewal = `in_renewal_${suffix}`;
  for (const attempt of [1, 2, 3]) {
    const sent = await pay.stripe.sendEvent('invoice.payment_failed', pay.stripe.invoicePaymentFailed(subscription.provider_ref!, { attempt, invoiceId: renewal }));
    expect(sent.status).toBe(200);
  }
  await u.goto('/platform/files');
  const bar = u.getByRole('alert').filter({ hasText: 'Your account is limited' });
  await expect(bar).toBeVisible();
  await shot(u, 'billing-acceptance-restricted');
  const restrictions = async () => ((await (await u.request.get('/api/user', { headers: { Accept: 'application/json' } })).json()) as { data: { meta: { restrictions: Record<string, boolean> } } }).data.meta.restrictions;
  expect(await restrictions()).toEqual({ canUpload: false, canDownload: false, canCreateFolder: false, canCreateTeamFolder: false });
  await bar.getByRole('link', { name: 'Go to Billing' }).click();
  await expect(u).toHaveURL(/\/user\/settings\/billing$/);
  await expect(u.getByTestId('outstanding-amount')).toHaveText('$4.99');

  // Paying the outstanding amount: the select-payment-method popup, the fake provider's page, its webhook.
  await u.getByRole('button', { name: 'Pay outstanding amount' }).click();
  await u.getByRole('dialog').getByRole('button', { name: 'Card (Stripe)' }).click();
  await expect(u.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await expect(u.getByText('Amount: 499 (payment)')).toBeVisible();
  await u.getByRole('button', { name: 'Pay' }).click();
  await expect(u).toHaveURL(/\/user\/settings\/billing/);
  await expect(u.getByTestId('outstanding-amount')).toHaveText('$0.00');
  await u.goto('/platform/files');
  await expect(u.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  await expect(u.getByText('Your account is limited')).toHaveCount(0);
  expect(await restrictions()).toEqual({ canUpload: true, canDownload: true, canCreateFolder: true, canCreateTeamFolder: true });
  await u.getByTestId('upload-files-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('paid up') });
  await expect(item(u, 'notes.txt')).toBeVisible();
  await user.close();
});

test('a metered user tops up through the fake PayPal, stores files for two simulated days and is charged from the balance', async ({ page, browser, pay }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, pay.server.url, PAY_ADMIN);
  const meteredId = await createPlanInUi(page, 'metered', async () => {
    await page.getByLabel('Name').fill(`Metered ${suffix}`);
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByLabel('Storage, per GB a day').fill('1');
    await page.getByLabel('Flat fee per month').fill('2');
  });

  // The instance sells metered plans now (admin settings, others tab).
  await page.goto('/admin/settings/others');
  await page.getByRole('combobox', { name: 'Subscriptions' }).selectOption('metered');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/settings/others') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await saved).status()).toBe(200);

  // The user picks the metered plan on the billing page: paid from the balance, no provider.
  const user = await newUser(browser, pay.server.url, 'Dorothy Vaughan');
  const u = user.page;
  await u.setViewportSize({ width: 1280, height: 800 });
  await u.goto('/user/settings/billing');
  const card = u.getByRole('listitem').filter({ has: u.getByRole('heading', { name: `Metered ${suffix}` }) });
  await expect(card).toContainText('$2.00 / month + usage');
  await expect(card).toContainText('$1.00 per GB stored a day');
  await card.getByRole('button', { name: 'Choose this plan' }).click();
  const current = u.getByRole('region', { name: 'Your subscription' });
  await expect(current.getByText('Active')).toBeVisible();
  await expect(current.getByText(`Metered ${suffix}`)).toBeVisible();
  await expect(current).toContainText('Paid from your balance · renews on');
  expect(await withSeed(pay.server, (ctx) => ctx.db.selectFrom('subscriptions').select(['plan_id', 'driver']).where('user_id', '=', user.id).execute())).toEqual([{ plan_id: meteredId, driver: 'balance' }]);
  await shot(u, 'billing-acceptance-metered-plan');

  // Top-up: the form on the billing page, the popup, the fake PayPal's page; the capture's webhook credits it.
  await u.getByLabel('Top up (USD)').fill('10');
  await u.getByRole('button', { name: 'Top up' }).click();
  await u.getByRole('dialog').getByRole('button', { name: 'PayPal' }).click();
  await expect(u.getByRole('heading', { name: 'Fake PayPal' })).toBeVisible();
  await expect(u.getByText('Pay 10.00 USD')).toBeVisible();
  await u.getByRole('button', { name: 'Pay Now' }).click();
  await expect(u).toHaveURL(/\/user\/settings\/billing/);
  await expect(u.getByTestId('balance-amount')).toHaveText('$10.00');

  // 10 MB stored; two days of usage recorded by the daily job with its clock set to each day's end.
  await u.goto('/platform/files');
  await u.getByTestId('upload-files-input').setInputFiles({ name: 'data.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(10_000_000, 7) });
  await expect(item(u, 'data.bin')).toBeVisible();
  const sub = await withSeed(pay.server, async (ctx) => {
    const row = await ctx.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    // The subscription is minutes old; the story is its month's last two days, so it began with the month.
    await ctx.db.updateTable('subscriptions').set({ created_at: row.current_period_start }).where('id', '=', row.id).execute();
    return row;
  });
  const end = Date.parse(sub.current_period_end);
  const dayEnds = [end - 86_400_000, end].map((t) => new Date(t + 30 * 60_000).toISOString());
  const runs = await withSeed(pay.server, async (ctx) => [await runBillingDay(at(ctx, dayEnds[0]!)), await runBillingDay(at(ctx, dayEnds[1]!)), await runBillingDay(at(ctx, dayEnds[1]!))]);
  expect(runs.map((r) => [r.usage, r.charged])).toEqual([
    [1, 0],
    [1, 1],
    [0, 0],
  ]);

  // One invoice for the month: $2.00 fee + 0.02 GB-days × $1.00, paid from the balance.
  await u.goto('/user/settings/billing');
  const invoices = u.getByTestId('invoice-row').filter({ hasText: '$2.02' });
  await expect(invoices).toHaveCount(1);
  await expect(invoices).toContainText('Paid');
  await expect(u.getByTestId('balance-amount')).toHaveText('$7.98');
  await expect(u.getByTestId('transaction-row').filter({ hasText: '−$2.02' })).toHaveCount(1);
  await shot(u, 'billing-acceptance-metered');
  await user.close();
});
