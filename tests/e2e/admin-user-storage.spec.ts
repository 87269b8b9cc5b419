import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signIn, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext, seedFiles } from './seed.ts';

/**
 * The Storage and Delete tabs of the admin's user screen (/admin/user/:id/storage and /delete), with
 * the user signed in beside the admin in a second browser context.
 */

async function signInAdmin(page: Page): Promise<void> {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard|\/platform\/files/);
}

/** A new account signed in in a browser context of its own, on its file area. */
async function newUser(browser: Browser): Promise<{ page: Page; email: string; id: string }> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signUpAndOpen(page, '/platform/files', 'Rosalind Franklin');
  const me = await page.request.get('/api/user', { headers: { Accept: 'application/json' } });
  return { page, email, id: ((await me.json()) as { data: { id: string } }).data.id };
}

async function filesOnDisk(userId: string): Promise<string[]> {
  const dir = path.join(process.env.E2E_DATA_DIR!, 'blobs', 'files', userId);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

test('a 1 MB limit and uploads switched off: the user sees each refusal with its message', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const user = await newUser(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await signInAdmin(page);
  await page.goto(`/admin/user/${user.id}/storage`);

  await expect(page.getByTestId('storage-used')).toHaveText('0 B');
  await expect(page.getByText('of 5.0 GB')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Instance default (5.0 GB)' })).toBeChecked();
  await page.getByRole('radio', { name: 'A limit of its own' }).check();
  await page.getByLabel('Limit', { exact: true }).fill('1');
  await page.getByLabel('Unit').selectOption('MB');
  await page.getByRole('button', { name: 'Save limit' }).click();
  await expect(toast(page, 'The storage limit was saved.')).toBeVisible();
  await expect(page.getByText('of 1.0 MB')).toBeVisible();

  const uploads = page.getByRole('switch', { name: 'Upload files' });
  await expect(uploads).toHaveAttribute('aria-checked', 'true');
  await uploads.click();
  await expect(uploads).toHaveAttribute('aria-checked', 'false');
  await expect(toast(page, 'Upload files: switched off.')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Download files' })).toHaveAttribute('aria-checked', 'true');
  await shot(page, 'admin-user-storage-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-user-storage-light-desktop');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'admin-user-storage-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-user-storage-dark-desktop');

  // The user, freshly loaded: uploading is refused before a byte is sent (no subscriptions: exceed_upload_limit).
  await user.page.reload();
  await user.page.getByTestId('upload-files-input').setInputFiles({ name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(user.page.getByRole('dialog')).toContainText('You have used all your storage. Delete some files to upload more.');
  await user.page.keyboard.press('Escape');

  // Uploads on again: a 2 MB file goes to the server, which refuses it over the 1 MB limit (423: SPEC §8's exceed-limit popup).
  await uploads.click();
  await expect(uploads).toHaveAttribute('aria-checked', 'true');
  await user.page.reload();
  await user.page.getByTestId('upload-files-input').setInputFiles({ name: 'two-megabytes.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2 * 1024 * 1024, 7) });
  await expect(user.page.getByRole('dialog')).toContainText('You have reached your storage limit. Free some space or upgrade your plan.');
  expect(await filesOnDisk(user.id)).toEqual([]);
  await user.page.context().close();
});

test('a limit below what the user stores is saved with a warning', async ({ page, browser }) => {
  const user = await newUser(browser);
  const ctx = await e2eContext();
  try {
    await seedFiles(ctx, user.email, null, 3, 'kept');
  } finally {
    await ctx.db.destroy();
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAdmin(page);
  await page.goto(`/admin/user/${user.id}/storage`);
  await expect(page.getByTestId('storage-used')).toHaveText('30 B');
  await page.getByRole('radio', { name: 'A limit of its own' }).check();
  await page.getByLabel('Limit', { exact: true }).fill('0.00001');
  await page.getByLabel('Unit').selectOption('MB');
  await page.getByRole('button', { name: 'Save limit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'This limit is below what the user stores now (30 B).' })).toBeVisible();
  await expect(page.getByText('This user is over their storage limit')).toBeVisible();
  await page.getByRole('radio', { name: 'No limit' }).check();
  await page.getByRole('button', { name: 'Save limit' }).click();
  await expect(page.getByText('No storage limit')).toBeVisible();
  await expect(page.getByText('This user is over their storage limit')).toHaveCount(0);
  // The storage tab on a phone, light and dark.
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'no sideways scrolling').toBeLessThanOrEqual(390);
  await shot(page, 'admin-user-storage-light-phone');
  await expectNoSeriousA11yViolations(page, 'admin-user-storage-light-phone');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'admin-user-storage-dark-phone');
  await user.page.context().close();
});

test('deleting the user: confirmed by their email, their files gone from disk, their session ended', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const user = await newUser(browser);
  const ctx = await e2eContext();
  try {
    await seedFiles(ctx, user.email, null, 3, 'doomed');
  } finally {
    await ctx.db.destroy();
  }
  expect(await filesOnDisk(user.id)).toHaveLength(3);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await signInAdmin(page);
  await page.goto(`/admin/user/${user.id}/delete`);

  await expect(page.getByRole('heading', { name: 'Delete this account' })).toBeVisible();
  const holds = page.getByTestId('deletion-counts');
  await expect(holds).toContainText('Files3');
  const confirm = page.getByLabel(`Type ${user.email} to confirm`);
  const button = page.getByRole('button', { name: 'Delete account' });
  await expect(button).toBeDisabled();
  await confirm.fill('someone.else@example.test');
  await expect(button).toBeDisabled();
  await shot(page, 'admin-user-delete-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-user-delete-light-desktop');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'admin-user-delete-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-user-delete-dark-desktop');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));

  await confirm.fill(user.email);
  await expect(button).toBeEnabled();
  await button.click();
  const progress = page.getByTestId('deletion-progress');
  await expect(progress).toHaveAttribute('data-state', 'done');
  await expect(page.getByRole('heading', { name: 'The account was deleted' })).toBeVisible();
  const removed = progress.getByTestId('deletion-counts');
  await expect(removed).toContainText('Files3');
  await expect(removed).toContainText('Folders0');
  await expect(removed).toContainText('Share links0');
  expect(await filesOnDisk(user.id)).toEqual([]);
  await expect(page.getByRole('link', { name: 'Back to the users' })).toHaveAttribute('href', '/admin/users');
  await shot(page, 'admin-user-deleted-light-desktop');
  await expectNoSeriousA11yViolations(page, 'admin-user-deleted-light-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'admin-user-deleted-light-phone');
  await expectNoSeriousA11yViolations(page, 'admin-user-deleted-light-phone');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'admin-user-deleted-dark-phone');
  await expectNoSeriousA11yViolations(page, 'admin-user-deleted-dark-phone');

  // The user's open page: the next load finds no session and goes to sign-in.
  await user.page.reload();
  await expect(user.page).toHaveURL(/\/sign-in/);
  await user.page.context().close();
});

test('an admin is not offered to delete their own account', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAdmin(page);
  const me = await page.request.get('/api/user', { headers: { Accept: 'application/json' } });
  const id = ((await me.json()) as { data: { id: string } }).data.id;
  await page.goto(`/admin/user/${id}/delete`);
  await expect(page.getByRole('alert')).toHaveText(/last administrator|your own account/);
  await expect(page.getByRole('button', { name: 'Delete account' })).toHaveCount(0);
  await shot(page, 'admin-user-delete-self-light-phone');
  await expectNoSeriousA11yViolations(page, 'admin-user-delete-self-light-phone');
});
