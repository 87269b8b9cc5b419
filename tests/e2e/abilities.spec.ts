import type { Page } from '@playwright/test';
import { expect, shot, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext, seedFiles } from './seed.ts';

/** The share and request pages offer what each item's abilities (from the server) allow, and nothing more. */

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });

async function post(page: Page, path: string, data: Record<string, unknown>): Promise<any> {
  const res = await page.request.post(path, { data, headers: headers() });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data;
}

/** An owner's folder Box holding the owner's file `mine-00000.txt`. */
async function box(page: Page): Promise<string> {
  const email = await signUpAndOpen(page);
  const folder = (await post(page, '/api/create-folder', { name: 'Box', parent_id: null })).id as string;
  const ctx = await e2eContext();
  await seedFiles(ctx, email, folder, 1, 'mine');
  await ctx.db.destroy();
  return folder;
}

test('a share visitor may only download; an editor may also upload, make folders, rename and remove', async ({ page, browser }) => {
  const folder = await box(page);
  const visitorLink = (await post(page, `/api/share/${folder}`, { type: 'folder', permission: 'visitor' })).attributes.link as string;
  const editorFolder = (await post(page, '/api/create-folder', { name: 'Team box', parent_id: folder })).id as string;
  const editorLink = (await post(page, `/api/share/${editorFolder}`, { type: 'folder', permission: 'editor' })).attributes.link as string;

  const guest = await (await browser.newContext()).newPage();
  await guest.goto(visitorLink);
  await expect(guest.getByRole('link', { name: 'Download mine-00000.txt' })).toBeVisible();
  await expect(guest.getByRole('link', { name: 'Download all' })).toBeVisible();
  for (const name of ['Rename mine-00000.txt', 'Remove mine-00000.txt', 'Rename Team box', 'New folder']) await expect(guest.getByRole('button', { name })).toHaveCount(0);
  await expect(guest.getByText('Upload', { exact: true })).toHaveCount(0);

  await guest.goto(editorLink);
  await expect(guest.getByRole('heading', { name: 'Team box' })).toBeVisible();
  await expect(guest.getByRole('button', { name: 'New folder' })).toBeVisible();
  await guest.locator('input[type=file]').setInputFiles({ name: 'theirs.txt', mimeType: 'text/plain', buffer: Buffer.from('theirs') });
  await expect(guest.getByTestId('shared-item')).toHaveCount(1);
  await expect(guest.getByRole('button', { name: 'Rename theirs.txt' })).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Remove theirs.txt' })).toBeVisible();
  await expect(guest.getByRole('link', { name: 'Download theirs.txt' })).toBeVisible();
  await shot(guest, 'abilities-share-editor-light-desktop');
});

test('an upload request holder may rename and remove only what they uploaded, and download nothing', async ({ page, browser }) => {
  const folder = await box(page);
  const link = (await post(page, '/api/upload-request', { folder_id: folder })).attributes.link as string;
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(link);
  await expect(guest.getByTestId('shared-item')).toHaveCount(1);
  await expect(guest.getByRole('button', { name: 'Rename mine-00000.txt' })).toHaveCount(0);
  await expect(guest.getByRole('button', { name: 'Remove mine-00000.txt' })).toHaveCount(0);
  await guest.locator('input[type=file]').setInputFiles({ name: 'sent.txt', mimeType: 'text/plain', buffer: Buffer.from('sent') });
  await expect(guest.getByTestId('shared-item')).toHaveCount(2);
  await expect(guest.getByRole('button', { name: 'Rename sent.txt' })).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Remove sent.txt' })).toBeVisible();
  await expect(guest.getByRole('link', { name: /^Download/ })).toHaveCount(0);
  await shot(guest, 'abilities-request-light-desktop');
});
