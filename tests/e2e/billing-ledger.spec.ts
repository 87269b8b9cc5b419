import type { Page } from '@playwright/test';
import { newReference, recordPayment } from '../../src/server/billing/ledger.ts';
import { subscribeMetered } from '../../src/server/billing/metered.ts';
import type { AppContext } from '../../src/server/context.ts';
import { findUserByEmail } from '../../src/server/users/queries.ts';
import { failPayments, insertPlan, topUp } from '../support/billing-ledger.ts';
import { dropSignIn, E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext } from './seed.ts';

let ctx: AppContext;
test.beforeAll(async () => {
  ctx = await e2eContext();
});
test.afterAll(async () => {
  await ctx?.db.destroy();
});

async function userId(email: string): Promise<string> {
  return (await findUserByEmail(ctx, email))!.id;
}

async function lookBoth(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await shot(page, `${name}-light`);
  await expectNoSeriousA11yViolations(page, `${name}-light`);
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, `${name}-dark`);
  await expectNoSeriousA11yViolations(page, `${name}-dark`);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

test('three failed payments show the red bar; it leads to billing, where the open amount and the failed transactions are; paying lifts it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signUpAndOpen(page, '/platform/files');
  const id = await userId(email);
  await topUp(ctx, id, 2000);
  await failPayments(ctx, id, 3);
  await page.reload();
  const bar = page.getByRole('alert').filter({ hasText: 'Your account is limited' });
  await expect(bar).toBeVisible();
  await bar.getByRole('link', { name: 'Go to Billing' }).click();
  await expect(page).toHaveURL(/\/user\/settings\/billing$/);
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByTestId('outstanding-amount')).toHaveText('€27.00');
  await expect(page.getByTestId('balance-amount')).toHaveText('€20.00');
  await expect(page.getByText('3 failed payments are open.', { exact: false })).toBeVisible();
  const rows = page.getByTestId('transaction-row');
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: 'Error' })).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Completed' })).toContainText('+€20.00');
  await expect(rows.filter({ hasText: 'Error' }).first()).toContainText('−€9.00');
  await lookBoth(page, 'billing-ledger-restricted-desktop');

  await recordPayment(ctx, { userId: id, amountMinor: 2700, currency: 'EUR', driver: 'stripe', reference: newReference(), note: '', purpose: 'outstanding' });
  await page.reload();
  await expect(page.getByTestId('outstanding-amount')).toHaveText('€0.00');
  await expect(page.getByText('Your account is limited')).toHaveCount(0);
});

test('an invoice opens as a printable page with its PDF; another account gets the 404 page', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signUpAndOpen(page, '/user/settings/billing');
  const id = await userId(email);
  const { invoiceId } = await topUp(ctx, id, 1234);
  await page.reload();
  const invoiceRow = page.getByTestId('invoice-row');
  await expect(invoiceRow).toHaveCount(1);
  await expect(invoiceRow).toContainText('€12.34');
  await expect(invoiceRow).toContainText('Paid');
  await invoiceRow.getByRole('link', { name: /^View invoice/ }).click();
  await expect(page).toHaveURL(new RegExp(`/invoices/${invoiceId}$`));
  await expect(page.getByRole('heading', { name: 'Invoice', level: 1 })).toBeVisible();
  await expect(page.getByTestId('invoice-number')).toHaveText(/^\d{4}-\d{5}$/);
  await expect(page.getByTestId('invoice-total')).toHaveText('€12.34');
  await expect(page.getByText(email)).toBeVisible();
  await lookBoth(page, 'billing-ledger-invoice-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await lookBoth(page, 'billing-ledger-invoice-phone');
  const pdf = await page.request.get(`/invoices/${invoiceId}.pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');

  const stranger = await browser.newPage();
  await signUpAndOpen(stranger, `/invoices/${invoiceId}`);
  await expect(stranger.getByText('404')).toBeVisible();
  await stranger.close();
});

test('the billing page of a metered plan on a phone: balance, estimate, alert, transactions and invoices', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const email = await signUpAndOpen(page, '/platform/files');
  const id = await userId(email);
  const plan = await insertPlan(ctx, { type: 'metered', storage_gb_day_micros: 3300, bandwidth_gb_micros: 90_000, member_day_micros: 0, flat_fee_minor: 500 });
  const user = (await findUserByEmail(ctx, email))!;
  await subscribeMetered(ctx, user, { plan_id: plan });
  await topUp(ctx, id, 5000);
  await page.goto('/user/settings/billing');
  await expect(page.getByText('This month so far')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Billing alert' })).toBeVisible();
  await page.getByLabel('Alert me above (EUR)').fill('12.3.4');
  await page.getByRole('button', { name: 'Save alert' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Enter an amount above 0' })).toBeVisible();
  await page.getByLabel('Alert me above (EUR)').fill('25');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/billing/alert'));
  await page.getByRole('button', { name: 'Save alert' }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('Current alert: €25.00')).toBeVisible();
  await expect(page.getByTestId('transaction-row')).toHaveCount(1);
  await expect(page.getByTestId('invoice-row')).toHaveCount(1);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'no sideways scrolling').toBeLessThanOrEqual(390);
  await lookBoth(page, 'billing-ledger-metered-phone');
});

test('an empty billing page says what will appear', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpAndOpen(page, '/user/settings/billing');
  await expect(page.getByText('No transactions yet.', { exact: false })).toBeVisible();
  await expect(page.getByText('No invoices yet.', { exact: false })).toBeVisible();
  await expect(page.getByText('No billing account yet.', { exact: false })).toBeVisible();
  await lookBoth(page, 'billing-ledger-empty-desktop');
});

test('the admin finds invoices by email and lists transactions', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signUpAndOpen(page, '/platform/files');
  const id = await userId(email);
  await topUp(ctx, id, 4200);
  await dropSignIn(page);
  const octet = () => Math.floor(Math.random() * 254) + 1;
  const res = await page.request.post('/login', { data: E2E_ADMIN, headers: { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest', 'X-Forwarded-For': `198.18.${octet()}.${octet()}` } });
  expect(res.status()).toBe(200);
  await page.goto('/admin/invoices');
  await expect(page.getByRole('heading', { name: 'Invoices', level: 1 })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Invoice number or email' });
  await search.fill(email);
  const answered = page.waitForResponse((r) => r.url().includes('/api/admin/invoices') && r.url().includes('q='));
  await search.press('Enter');
  await answered;
  await expect(page.getByTestId('invoice-row')).toHaveCount(1);
  await expect(page.getByTestId('invoice-row')).toContainText(email);
  await expect(page.getByTestId('transaction-row').first()).toBeVisible();
  await lookBoth(page, 'billing-ledger-admin-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await lookBoth(page, 'billing-ledger-admin-phone');
});
