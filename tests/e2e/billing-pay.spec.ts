import { test as base, type Page } from '@playwright/test';
import { putSetting } from '../../src/server/settings/service.ts';
import { insertFixedPlan, PAY_ADMIN, startPayWorld, type PayWorld } from '../support/billing-pay.ts';
import { withSeed } from '../support/seed.ts';
import { e2eEmail, expect, expectNoSeriousA11yViolations, PASSWORD, shot } from './fixtures.ts';

// A server of its own, pointed at local fakes of Stripe, Paystack and PayPal, all three switched on.
const test = base.extend<{ planId: string }, { pay: PayWorld }>({
  pay: [
    async ({}, use) => {
      const world = await startPayWorld();
      await withSeed(world.server, (ctx) => putSetting(ctx, 'subscription_type', 'fixed'));
      await use(world);
      await world.stop();
    },
    { scope: 'worker' },
  ],
  planId: async ({ pay }, use) => {
    await use(await withSeed(pay.server, (ctx) => insertFixedPlan(ctx, { name: `One GB ${Date.now().toString(36)}`, amount_minor: 499, storage_bytes: 1024 ** 3 })));
  },
  baseURL: async ({ pay }, use) => {
    await use(pay.server.url);
  },
});
test.describe.configure({ mode: 'serial' });

async function signUp(page: Page, baseUrl: string, email = e2eEmail('billing'), password = PASSWORD) {
  const headers = { Origin: baseUrl, 'X-Requested-With': 'XMLHttpRequest' };
  expect((await page.request.post('/register', { data: { name: 'Katherine Johnson', email, password, password_confirmation: password }, headers })).status()).toBe(202);
  expect((await page.request.post('/login', { data: { email, password }, headers })).status()).toBe(200);
}

/** Light, dark and phone width, each looked at with axe. */
async function shots(page: Page, name: string, ready: () => Promise<void>) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, `${name}-light`);
  await expectNoSeriousA11yViolations(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await ready();
  await shot(page, `${name}-dark`);
  await expectNoSeriousA11yViolations(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await ready();
  await shot(page, `${name}-phone`);
  await expectNoSeriousA11yViolations(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the admin sees the providers with their secrets saved but never shown, and the billing details', async ({ page, pay }) => {
  const headers = { Origin: pay.server.url, 'X-Requested-With': 'XMLHttpRequest' };
  expect((await page.request.post('/login', { data: PAY_ADMIN, headers })).status()).toBe(200);
  await page.goto('/admin/payments/payments');
  const stripe = page.getByRole('region', { name: 'Stripe' });
  await expect(stripe.getByRole('switch', { name: /Stripe/ })).toBeChecked();
  await expect(stripe.getByLabel('Publishable key')).toHaveValue(pay.stripe.publicKey);
  await expect(stripe.getByText('Saved').first()).toBeVisible();
  expect(await page.content()).not.toContain(pay.stripe.secretKey);
  await shots(page, 'billing-pay-admin-payments', () => expect(stripe.getByLabel('Publishable key')).toHaveValue(pay.stripe.publicKey));

  await page.getByRole('link', { name: 'Billing details' }).click();
  await page.getByLabel('Company name').fill('Acme Cloud Ltd');
  await page.getByLabel('Country').selectOption('DE');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/payments/billings') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('Billing details saved.')).toBeVisible();
  await shots(page, 'billing-pay-admin-billings', () => expect(page.getByLabel('Company name')).toHaveValue('Acme Cloud Ltd'));
});

test('a user subscribes to the 1 GB plan through the fake Stripe checkout; the webhook makes it active', async ({ page, pay, planId }) => {
  test.setTimeout(90_000);
  await signUp(page, pay.server.url);
  await page.goto('/user/settings/billing');
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByText('You have no subscription. Choose a plan below.')).toBeVisible();
  const plan = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^One GB/ }) }).filter({ hasText: '$4.99 / month' }).first();
  await expect(plan.getByText('1.0 GB of storage')).toBeVisible();
  await shots(page, 'billing-pay-user-plans', () => expect(page.getByText('You have no subscription. Choose a plan below.')).toBeVisible());

  await plan.getByRole('button', { name: 'Choose this plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose how to pay' });
  await expect(dialog.getByRole('button')).toHaveText(['Card (Stripe)', 'Paystack', 'PayPal', 'Cancel']);
  await shot(page, 'billing-pay-user-method-popup');
  await expectNoSeriousA11yViolations(page, 'billing-pay-user-method-popup');

  await dialog.getByRole('button', { name: 'Card (Stripe)' }).click();
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  // Nothing is active before the provider confirms the payment.
  expect(await withSeed(pay.server, (ctx) => ctx.db.selectFrom('subscriptions').select('id').where('plan_id', '=', planId).execute())).toEqual([]);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/user\/settings\/billing(\?checkout=[A-Za-z0-9]{10})?$/);
  const current = page.getByRole('region', { name: 'Your subscription' });
  await expect(current.getByText('Active')).toBeVisible();
  await expect(current.getByText(/^One GB/)).toBeVisible();
  await expect(page.getByText('Your current plan')).toBeVisible();
  const row = await withSeed(pay.server, (ctx) => ctx.db.selectFrom('subscriptions').selectAll().where('plan_id', '=', planId).executeTakeFirstOrThrow());
  expect(row).toMatchObject({ status: 'active', driver: 'stripe' });
  await shots(page, 'billing-pay-user-subscribed', () => expect(current.getByText('Active')).toBeVisible());

  await current.getByRole('button', { name: 'Cancel at period end' }).click();
  await expect(current.getByText('Cancelled')).toBeVisible();
  await current.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(current.getByText('Active')).toBeVisible();
});
