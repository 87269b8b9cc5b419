import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

/**
 * Live updates: two tabs of one account; what one changes shows in the other's open listing and
 * navigation tree without a reload, and a notification stored on the server lands in the bell at
 * once, with its chime (counted by wrapping WebAudio) unless the sound is muted in the settings.
 */

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });
const item = (page: Page, name: string) => page.getByRole('option', { name, exact: true });

/** Counts the chimes the page starts (each is two oscillators). */
async function countChimes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __oscillators: number };
    w.__oscillators = 0;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.__oscillators += 1;
      return create.call(this);
    };
  });
}
const oscillators = (page: Page) => page.evaluate(() => (window as unknown as { __oscillators: number }).__oscillators);

/** A file arriving through an upload request: the server stores a `file-request` notification for the owner. */
async function fileRequestArrives(page: Page, name: string): Promise<void> {
  const created = await page.request.post('/api/upload-request', { data: { name: `Inbox ${name}` }, headers: headers() });
  expect(created.status()).toBe(201);
  const token = (await created.json()).data.attributes.token as string;
  const guest = await page.context().browser()!.newContext({ baseURL: process.env.E2E_BASE_URL });
  const up = await guest.request.post(`/api/upload-request/${token}/upload`, { multipart: { file: { name, mimeType: 'text/plain', buffer: Buffer.from('hello') } }, headers: { Origin: process.env.E2E_BASE_URL! } });
  expect(up.status()).toBe(201);
  await guest.close();
}

test('a change made in one tab shows in the other tab’s open listing and tree without a reload', async ({ page, context }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  const other = await context.newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await other.goto('/platform/files');
  await expect(other.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  // A reload would lose this mark: it must still be there at the end.
  await other.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });

  // Created in the UI of the first tab.
  await page.getByRole('button', { name: 'New folder' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create a folder' });
  await dialog.getByLabel('Name').fill('Live reports');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(item(other, 'Live reports')).toBeVisible();
  const tree = other.getByRole('tree').first();
  await expect(tree.getByRole('treeitem', { name: 'Live reports' })).toBeVisible();

  // Selected in the second tab; the selection survives the refreshes that follow.
  await item(other, 'Live reports').click();
  await expect(item(other, 'Live reports')).toHaveAttribute('aria-selected', 'true');

  // Uploaded and renamed through the API (as the first tab's upload queue and rename do).
  const upload = await page.request.post('/api/upload', { multipart: { file: { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') } }, headers: headers() });
  expect(upload.status()).toBe(201);
  await expect(item(other, 'notes.txt')).toBeVisible();
  await expect(other.getByTestId('sidebar-scroll').getByTestId('storage-meter')).toContainText('5 B of 5.0 GB used');
  const folderId = (await (await page.request.get('/api/browse/folders/all', { headers: headers() })).json()).data.find((i: { attributes: { name: string } }) => i.attributes.name === 'Live reports').id;
  const renamed = await page.request.post(`/api/rename/${folderId}`, { data: { _method: 'patch', name: 'Quarterly reports' }, headers: headers() });
  expect(renamed.status()).toBe(200);
  await expect(item(other, 'Quarterly reports')).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: 'Quarterly reports' })).toBeVisible();
  await expect(item(other, 'Live reports')).toHaveCount(0);
  await expect(item(other, 'Quarterly reports')).toHaveAttribute('aria-selected', 'true');
  await shot(other, 'live-listing-light-desktop');

  // Trashed in the first tab: gone from the second.
  const removed = await page.request.post('/api/remove', { data: { items: [{ id: folderId, type: 'folder' }] }, headers: headers() });
  expect(removed.status()).toBeLessThan(300);
  await expect(item(other, 'Quarterly reports')).toHaveCount(0);
  await expect(tree.getByRole('treeitem', { name: 'Quarterly reports' })).toHaveCount(0);
  expect(await other.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test('a notification stored on the server appears in the bell at once, with a chime unless muted', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await countChimes(page);
  await signUpAndOpen(page);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  const sidebar = page.getByRole('region', { name: 'Account' });
  await expect(sidebar.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  // The page gets a click first, as a person's would: browsers start audio only after one.
  await page.getByRole('heading', { name: 'This folder is empty' }).click();

  await fileRequestArrives(page, 'scan.pdf');
  const bell = sidebar.getByRole('button', { name: 'Notifications (1 Unread)' });
  await expect(bell).toBeVisible();
  await expect.poll(() => oscillators(page)).toBe(2);
  await shot(page, 'live-bell-unread-light-desktop');

  // With the panel open, the next one joins it at the top, highlighted.
  await bell.click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByText('Files were uploaded for your request')).toHaveCount(1);
  await fileRequestArrives(page, 'invoice.pdf');
  await expect(panel.getByText('Files were uploaded for your request')).toHaveCount(2);
  await expect(panel.getByText(/"invoice.pdf" arrived/)).toBeVisible();
  await shot(page, 'live-bell-open-light-desktop');
  await expectNoSeriousA11yViolations(page, 'live-bell-open-light-desktop');
  await page.keyboard.press('Escape');
  await expect.poll(() => oscillators(page)).toBe(4);

  // Muted in the settings (kept in the account): the bell still updates, silently.
  await page.goto('/user/profile');
  const sound = page.getByLabel('Notification sound');
  await expect(sound).toHaveValue('on');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/settings') && r.status() === 200);
  await sound.selectOption('off');
  await saved;
  await shot(page, 'live-settings-light-desktop');
  await expectNoSeriousA11yViolations(page, 'live-settings-light-desktop');
  await page.goto('/platform/files');
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeHidden();
  await page.getByRole('main').click({ position: { x: 5, y: 5 } });
  const before = await oscillators(page);
  await fileRequestArrives(page, 'quiet.pdf');
  await expect(sidebar.getByRole('button', { name: 'Notifications (1 Unread)' })).toBeVisible();
  expect(await oscillators(page)).toBe(before);

  await page.goto('/user/profile');
  await expect(page.getByLabel('Notification sound')).toHaveValue('off');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'live-settings-dark-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'live-settings-dark-phone');
});
