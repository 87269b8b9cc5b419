import { putSetting } from '../../src/server/settings/service.ts';
import { e2eEmail, expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext } from './seed.ts';

const PASSWORD = 'e2e password 123';

test('sign up with the form asks to check the email, then signs in', async ({ page }) => {
  const email = e2eEmail('signup');
  await page.goto('/sign-up');
  await page.getByLabel('Full name').fill('Edith Clarke');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('status')).toContainText('Check your email to continue');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/platform\/files$/);
});

test('an unverified account sees why uploads are held back, and can have the link sent again', async ({ page }) => {
  const ctx = await e2eContext();
  await putSetting(ctx, 'email_verification_required', true);
  try {
    const email = await signUpAndOpen(page);
    const bar = page.getByTestId('verify-email-bar');
    await expect(bar).toContainText(`Confirm your email address (${email})`);
    await bar.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(page.getByText(`A new verification link is on its way to ${email}.`)).toBeVisible();
    await shot(page, 'verify-email-bar');
    await expectNoSeriousA11yViolations(page, 'verify-email-bar');
  } finally {
    await putSetting(ctx, 'email_verification_required', false);
    await ctx.db.destroy();
  }
});

test('a refused sign-up shows the field error and keeps the typed name', async ({ page }) => {
  await page.goto('/sign-up');
  await page.getByLabel('Full name').fill('Edith Clarke');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill('something else');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByText('The email must be a valid email address.')).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveValue('Edith Clarke');
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'sign-up-errors');
  await expectNoSeriousA11yViolations(page, 'sign-up-errors');
});

test('the guard sends a visitor to sign-in and back to the page they wanted', async ({ page, request }) => {
  const email = e2eEmail('guard');
  const created = await request.post('/register', {
    data: { name: 'Guard Test', email, password: PASSWORD, password_confirmation: PASSWORD },
    headers: { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect(created.status()).toBe(202);

  await page.goto('/user/profile?tab=1');
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fuser%2Fprofile%3Ftab%3D1$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').or(page.getByText('These credentials do not match our records.'))).toBeVisible();
  await expect(page).toHaveURL(/redirect=%2Fuser%2Fprofile/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/user\/profile\?tab=1$/);
});

test('forgotten password answers without telling whether the address exists', async ({ page }) => {
  await page.goto('/forgotten-password');
  await page.getByLabel('Email').fill(e2eEmail('nobody'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If that address has an account');
  await shot(page, 'forgotten-password-sent');
  await expectNoSeriousA11yViolations(page, 'forgotten-password-sent');
});

for (const scheme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`public screens render in ${scheme} mode on ${label}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, path] of [['home', '/'], ['sign-in', '/sign-in'], ['sign-up', '/sign-up'], ['forgotten-password', '/forgotten-password'], ['create-new-password', '/create-new-password?token=t&email=ada%40example.test'], ['verified', '/successfully-verified'], ['sent', '/successfully-send'], ['not-found', '/nope']] as const) {
        await page.goto(path);
        await expect(page.locator('h1')).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
        await shot(page, `${name}-${scheme}-${label}`);
        await expectNoSeriousA11yViolations(page, `${name}-${scheme}-${label}`);
      }
    });
  }
}

test('the sign-in form works with the keyboard alone', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Keep me signed in')).toBeFocused();
});
