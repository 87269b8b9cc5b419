import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { AppContext } from '../../src/server/context.ts';
import { findUserByEmail } from '../../src/server/users/queries.ts';
import { failPayments, insertPlan } from '../support/billing-ledger.ts';
import { dropSignIn, E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signIn, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext } from './seed.ts';

/** The Subscription tab of the admin's user screen: plan and state, balance, failed payments, gifting credit. */
let ctx: AppContext;
test.beforeAll(async () => {
  ctx = await e2eContext();
});
test.afterAll(async () => {
  await ctx?.db.destroy();
});

async function looks(page: Page, name: string, ready: () => Promise<void>) {
  for (const [mode, width, height] of [['light', 1280, 800], ['dark', 1280, 800], ['phone', 390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: mode === 'dark' ? 'dark' : 'light' });
    await page.reload();
    await ready();
    await shot(page, `${name}-${mode}`);
    await expectNoSeriousA11yViolations(page, `${name}-${mode}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function asAdmin(page: Page) {
  await dropSignIn(page);
  await page.addInitScript(() => localStorage.setItem('cookie_notice_dismissed', '1'));
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard|\/platform\/files/);
}

test('a subscriber with three failed payments: the admin sees plan, state, balance and the failures, and gifts credit', async ({ page }) => {
  const email = await signUpAndOpen(page, '/platform/files', 'Annie Easley');
  const user = (await findUserByEmail(ctx, email))!;
  const planId = await insertPlan(ctx, { type: 'fixed', name: `Team ${Date.now().toString(36)}`, amount_minor: 900, currency: 'EUR' });
  const at = new Date().toISOString();
  await ctx.db
    .insertInto('subscriptions')
    .values({ id: randomUUID(), user_id: user.id, plan_id: planId, status: 'active', driver: 'stripe', provider_ref: `sub_${randomUUID()}`, amount_minor: 900, currency: 'EUR', interval: 'month', current_period_start: at, current_period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(), ends_at: null, created_at: at, updated_at: at })
    .execute();
  await failPayments(ctx, user.id, 3);

  await asAdmin(page);
  await page.goto(`/admin/user/${user.id}/subscription`);
  await expect(page.getByTestId('admin-billing-plan')).toHaveText(/^Team /);
  await expect(page.getByTestId('admin-billing-state')).toHaveText('Active');
  await expect(page.getByTestId('admin-billing-balance')).toHaveText('€0.00');
  await expect(page.getByTestId('admin-billing-outstanding')).toHaveText('€27.00');
  await expect(page.getByTestId('admin-failed-payment')).toHaveCount(3);
  await expect(page.getByRole('heading', { name: 'Failed payments (3)' })).toBeVisible();
  await expect(page.getByText('The account is limited', { exact: false })).toBeVisible();
  await looks(page, 'billing-admin-user-subscription', () => expect(page.getByTestId('admin-failed-payment')).toHaveCount(3));

  // A bad amount is refused before anything is sent; a good one lands on the balance.
  await page.getByLabel('Amount (EUR)').fill('5.555');
  await page.getByRole('button', { name: 'Gift credit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'at most 2 decimals' })).toBeVisible();
  await page.getByLabel('Amount (EUR)').fill('12.50');
  await page.getByLabel('Note for the user (optional)').fill('Sorry for the trouble');
  const sent = page.waitForResponse((r) => r.url().endsWith(`/api/admin/users/${user.id}/credit`));
  await page.getByRole('button', { name: 'Gift credit' }).click();
  expect((await sent).status()).toBe(201);
  await expect(page.getByTestId('admin-billing-balance')).toHaveText('€12.50');
  const gift = await ctx.db.selectFrom('transactions').selectAll().where('user_id', '=', user.id).where('driver', '=', 'system').executeTakeFirstOrThrow();
  expect(gift).toMatchObject({ type: 'credit', status: 'completed', amount_minor: 1250, currency: 'EUR', note: 'Sorry for the trouble' });
});

test('a user without any billing: the tab says so and gifting asks for the currency', async ({ page }) => {
  const email = await signUpAndOpen(page, '/platform/files', 'Katherine Coleman');
  const user = (await findUserByEmail(ctx, email))!;
  await asAdmin(page);
  await page.goto(`/admin/user/${user.id}/subscription`);
  await expect(page.getByTestId('admin-billing-plan')).toHaveText('No plan');
  await expect(page.getByText('No open failed payments.')).toBeVisible();
  await expect(page.getByTestId('admin-billing-balance')).toHaveText('No billing account');
  await expect(page.getByLabel('Currency')).toHaveValue('EUR');
  await looks(page, 'billing-admin-user-empty', () => expect(page.getByText('No open failed payments.')).toBeVisible());
  await page.getByLabel('Currency').selectOption('USD');
  await page.getByLabel('Amount (USD)').fill('3');
  await page.getByRole('button', { name: 'Gift credit' }).click();
  await expect(page.getByTestId('admin-billing-balance')).toHaveText('$3.00');
});
