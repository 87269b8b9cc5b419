import type { Page } from '@playwright/test';
import { E2E_ADMIN, e2eEmail, expect, expectNoSeriousA11yViolations, shot, test } from './fixtures.ts';

const STRONG = 'mellow canyon 7 quiet';
const ADMIN_STRONG = 'lantern orchard velvet 42';

function headers() {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest', 'X-Forwarded-For': `198.18.${octet()}.${octet()}` };
}

async function signInAsAdmin(page: Page, path: string): Promise<void> {
  const res = await page.request.post('/login', { data: E2E_ADMIN, headers: headers() });
  expect(res.status()).toBe(200);
  await page.goto(path);
}

/** Makes a few accounts through the admin API, so the list has rows to page and sort. */
async function seedUsers(page: Page, tag: string, names: string[]): Promise<void> {
  for (const name of names) {
    const res = await page.request.post('/api/admin/users', { data: { name, email: e2eEmail(`${tag}.${name.split(' ')[0]!.toLowerCase()}`), password: STRONG, password_confirmation: STRONG }, headers: headers() });
    expect(res.status()).toBe(201);
  }
}

test('an admin creates a user, finds them by search, changes their role and sets their password', async ({ page, playwright }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsAdmin(page, '/admin/dashboard');
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();

  await page.getByRole('link', { name: 'Create user' }).click();
  await expect(page).toHaveURL(/\/admin\/user\/create$/);
  const tag = `e2e${Date.now().toString(36)}`;
  const email = `lin.${tag}@example.test`;
  await page.getByLabel('Name', { exact: true }).fill('Lin Tester');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('password1234');
  await expect(page.getByTestId('password-strength')).toContainText('Too easy to guess');
  await page.getByLabel('Password', { exact: true }).fill(STRONG);
  await page.getByLabel('Confirm password').fill(STRONG);
  await page.getByLabel('Storage limit').selectOption('custom');
  await page.getByLabel('Limit', { exact: true }).fill('1');
  await page.getByLabel('Unit').selectOption('MB');
  await shot(page, 'admin-user-create-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-user-create-light-desktop');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'The account was created.' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/user\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Lin Tester' })).toBeVisible();
  await page.getByRole('link', { name: 'Storage' }).click();
  await expect(page.getByRole('radio', { name: 'A limit of its own' })).toBeChecked();
  await expect(page.getByLabel('Limit', { exact: true })).toHaveValue('1');

  // A taken address is refused on the field.
  await page.goto('/admin/user/create');
  await page.getByLabel('Name', { exact: true }).fill('Lin Again');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG);
  await page.getByLabel('Confirm password').fill(STRONG);
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByText('The email has already been taken.')).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  await seedUsers(page, tag, ['Avery Stone', 'Blake River', 'Casey Maple']);
  await page.getByRole('link', { name: 'All users' }).click();
  await page.getByLabel('Search users').fill(tag);
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('row')).toHaveCount(5); // the header and four accounts
  await page.getByLabel('Sort by').selectOption('name');
  await expect(table.getByRole('row').nth(1)).toContainText('Avery Stone');
  await expect(table.getByRole('row').nth(4)).toContainText('Lin Tester');
  await page.getByRole('button', { name: /Ascending order/ }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('Lin Tester');
  await shot(page, 'admin-users-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-users-light-desktop');
  await page.getByLabel('Search users').fill(`lin.${tag}`);
  await expect(table.getByRole('row')).toHaveCount(2);
  // The whole row opens the user, not only the name: a click on the email does.
  await table.getByRole('row').nth(1).getByText(`lin.${tag}`).click();

  // Details: the role becomes admin.
  await expect(page.getByRole('heading', { name: 'Lin Tester' })).toBeVisible();
  const sections = page.getByRole('navigation', { name: 'User sections' });
  await expect(sections.getByRole('link', { name: 'Details' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Email not verified')).toBeVisible();
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'The changes were saved.' })).toBeVisible();
  await expect(page.locator('header').getByText('Admin', { exact: true })).toBeVisible();
  await shot(page, 'admin-user-details-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-user-details-light-desktop');

  // Subscription: no plan, no billing account yet (billing-admin-user.spec.ts has the rest).
  await sections.getByRole('link', { name: 'Subscription' }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByRole('heading', { name: 'Plan and billing' })).toBeVisible();
  await expect(page.getByTestId('admin-billing-plan')).toHaveText('No plan');

  // Password: an admin account needs the admin bar; then it is set.
  await sections.getByRole('link', { name: 'Password' }).click();
  await expect(page).toHaveURL(/\/password$/);
  await page.getByLabel('New password').fill('bluehouse12');
  await page.getByLabel('Confirm password').fill('bluehouse12');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('The admin password is too easy to guess: use a few unrelated words or a longer phrase.')).toBeVisible();
  await page.getByLabel('New password').fill(ADMIN_STRONG);
  await page.getByLabel('Confirm password').fill(ADMIN_STRONG);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'The password was set.' })).toBeVisible();
  await expect(page.getByLabel('New password')).toHaveValue('');
  await shot(page, 'admin-user-password-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-user-password-light-desktop');

  const them = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  expect((await them.post('/login', { data: { email, password: STRONG }, headers: headers() })).status()).toBe(422);
  expect((await them.post('/login', { data: { email, password: ADMIN_STRONG }, headers: headers() })).status()).toBe(200);
  expect((await them.get('/api/admin/users', { headers: headers() })).status()).toBe(200);
  await them.dispose();
});

test('an unknown user shows a clear message instead of the tabs', async ({ page }) => {
  await signInAsAdmin(page, '/admin/user/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'This user does not exist' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'User sections' })).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`the user screens render in ${scheme} mode on ${label}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await signInAsAdmin(page, '/admin/users');
      const tag = `shot${scheme}${label}${Date.now().toString(36)}`;
      await seedUsers(page, tag, ['Morgan Quinlan-Whitfield', 'Rae Ito']);
      await page.getByLabel('Search users').fill(tag);
      const table = page.getByRole('table', { name: 'Users' });
      await expect(table.getByRole('row')).toHaveCount(3);
      await shot(page, `admin-users-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(page, `admin-users-${scheme}-${label}`);

      await page.getByLabel('Search users').fill(`${tag}-nobody`);
      await expect(page.getByText(`No user’s name or email contains “${tag}-nobody”.`)).toBeVisible();
      await shot(page, `admin-users-no-match-${scheme}-${label}`);
      await page.getByLabel('Search users').fill(tag);

      await table.getByRole('link', { name: 'Morgan Quinlan-Whitfield' }).click();
      await expect(page.getByRole('heading', { name: 'Morgan Quinlan-Whitfield' })).toBeVisible();
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Morgan Quinlan-Whitfield');
      await shot(page, `admin-user-details-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(page, `admin-user-details-${scheme}-${label}`);

      await page.getByRole('navigation', { name: 'User sections' }).getByRole('link', { name: 'Password' }).click();
      await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
      await shot(page, `admin-user-password-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(page, `admin-user-password-${scheme}-${label}`);

      await page.goto('/admin/user/create');
      await page.getByRole('radio', { name: /Send an invitation/ }).check();
      await expect(page.getByText('We email a link that stays valid for 7 days.', { exact: false })).toBeVisible();
      await shot(page, `admin-user-create-invite-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(page, `admin-user-create-invite-${scheme}-${label}`);
    });
  }
}
