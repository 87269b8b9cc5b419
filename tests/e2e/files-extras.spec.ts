import type { Page } from '@playwright/test';
import { Readable } from 'node:stream';
import { createFileItem, newBlobKey } from '../../src/server/files/service.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { findUserByEmail } from '../../src/server/users/queries.ts';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext } from './seed.ts';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });
const item = (page: Page, name: string) => page.getByRole('option', { name, exact: true });
const names = (page: Page) => page.getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
/** Switches the page to light or dark as the theme toggle does, without saving it to the account. */
const useScheme = (page: Page, scheme: 'light' | 'dark') => page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
const marker = (page: Page) => page.evaluate(() => (window as unknown as { marker?: number }).marker);

async function apiFolder(page: Page, name: string, parentId: string | null = null): Promise<string> {
  const res = await page.request.post('/api/create-folder', { data: { name, parent_id: parentId }, headers: headers() });
  expect(res.status()).toBe(201);
  return (await res.json()).data.id;
}

async function apiTrash(page: Page, ...items: [string, 'folder' | 'file'][]): Promise<void> {
  const res = await page.request.post('/api/remove', { data: { items: items.map(([id, type]) => ({ id, type, force_delete: false })) }, headers: headers() });
  expect(res.status()).toBe(204);
}

/** Files with chosen names, written as uploads write them; answers their ids by name. */
async function seedNamedFiles(email: string, files: { name: string; parentId: string | null }[]): Promise<Record<string, string>> {
  const ctx = await e2eContext();
  try {
    const user = (await findUserByEmail(ctx, email))!;
    const ids: Record<string, string> = {};
    for (const { name, parentId } of files) {
      const blobKey = newBlobKey(user.id);
      const stat = await ctx.blobs.put(blobKey, Readable.from([Buffer.from(`bytes of ${name}`)]));
      ids[name] = (await createFileItem(ctx, { ownerId: user.id, parentId, name, mimetype: 'text/plain', size: stat.size, blobKey })).id;
    }
    return ids;
  } finally {
    await ctx.db.destroy();
  }
}

/** A trash with one item from each kind of place: a nested folder, home, and a folder trashed since. */
async function trashFromEverywhere(page: Page, email: string) {
  const projects = await apiFolder(page, 'Projects');
  const year = await apiFolder(page, '2026', projects);
  const archive = await apiFolder(page, 'Archive');
  const ids = await seedNamedFiles(email, [
    { name: 'report.txt', parentId: year },
    { name: 'loose.txt', parentId: null },
    { name: 'memo.txt', parentId: archive },
  ]);
  await apiTrash(page, [ids['report.txt']!, 'file'], [ids['loose.txt']!, 'file'], [ids['memo.txt']!, 'file']);
  await apiTrash(page, [archive, 'folder']);
  return { year };
}

test.describe('the trash shows where each item was', () => {
  test('as a column, sortable, and in the details panel with a link to the folder', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const email = await signUpAndOpen(page);
    const { year } = await trashFromEverywhere(page, email);
    await page.goto('/platform/trash');
    await expect(item(page, 'report.txt')).toBeVisible();

    const locationOf = (name: string) => item(page, name).locator('xpath=..').getByTestId('item-location');
    await expect(locationOf('report.txt')).toHaveText('Files / Projects / 2026');
    await expect(locationOf('loose.txt')).toHaveText('Files');
    await expect(locationOf('memo.txt')).toHaveText('Files / Archive (in the trash)');
    await expect(locationOf('Archive')).toHaveText('Files');
    // Screen readers hear it with the item.
    await expect(item(page, 'report.txt')).toHaveAccessibleDescription(/Files \/ Projects \/ 2026/);

    await page.getByRole('button', { name: 'Sort by: Original location' }).click();
    await expect.poll(() => names(page)).toEqual(['Archive', 'loose.txt', 'memo.txt', 'report.txt']);
    await page.getByRole('button', { name: 'Sort by: Original location' }).click();
    await expect.poll(() => names(page)).toEqual(['Archive', 'report.txt', 'memo.txt', 'loose.txt']);
    await page.getByRole('button', { name: 'Sort by', exact: true }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Original location' })).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Details' }).click();
    const panel = page.getByTestId('info-panel');
    await item(page, 'memo.txt').click();
    await expect(panel.getByTestId('original-location')).toContainText('Files / Archive (in the trash)');
    await expect(panel).toContainText('That folder is in the trash too: restoring this puts it in Files.');
    await item(page, 'report.txt').click();
    const link = panel.getByRole('link', { name: 'Files / Projects / 2026' });
    await expect(link).toHaveAttribute('href', `/platform/files/${year}`);
    await shot(page, 'trash-location-light-desktop');
    await expectNoSeriousA11yViolations(page, 'trash-location-light-desktop');
    await useScheme(page, 'dark');
    await shot(page, 'trash-location-dark-desktop');
    await expectNoSeriousA11yViolations(page, 'trash-location-dark-desktop');

    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 3));
    await link.click();
    await expect(page.getByRole('heading', { name: '2026', level: 1 })).toBeVisible();
    expect(await marker(page)).toBe(3);
    // Outside the trash there is no location to sort by: the list opens by date, and the menu does not offer it.
    await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
    await page.getByRole('button', { name: 'Sort by', exact: true }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Original location' })).toHaveCount(0);
    await expect(page.getByRole('menuitemradio', { name: 'Date created' })).toHaveAttribute('aria-checked', 'true');
  });

  test('on a phone the location leads the line under each name', async ({ page }) => {
    await page.setViewportSize(PHONE);
    const email = await signUpAndOpen(page);
    await trashFromEverywhere(page, email);
    await page.goto('/platform/trash');
    await expect(item(page, 'report.txt')).toBeVisible();
    await expect(page.locator('[data-line^="Files / Projects / 2026 · "]')).toHaveCount(1);
    await expect(page.locator('[data-line^="Files / Archive (in the trash) · "]')).toHaveCount(1);
    for (const scheme of ['light', 'dark'] as const) {
      await useScheme(page, scheme);
      await shot(page, `trash-location-${scheme}-phone`);
      await expectNoSeriousA11yViolations(page, `trash-location-${scheme}-phone`);
    }
  });
});

test.describe('the storage meter', () => {
  test('shows used of the limit in the navigation panel, links to the storage screen, and follows uploads and deletes without a reload', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signUpAndOpen(page);
    const meter = page.getByRole('navigation', { name: 'Folders' }).getByTestId('storage-meter');
    await expect(meter).toHaveText(/Storage\s*0 B of 5\.0 GB used/);
    await expect(meter).toHaveAttribute('href', '/user/settings/storage');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 9));

    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('empty-actions').getByRole('button', { name: 'Upload files' }).click();
    await (await chooser).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.alloc(2048, 'a') });
    await expect(item(page, 'notes.txt')).toBeVisible();
    await expect(meter.getByTestId('storage-meter-text')).toHaveText('2.0 KB of 5.0 GB used');
    await expect(meter.locator('[data-segment="documents"]')).toBeVisible();
    await shot(page, 'storage-meter-light-desktop');
    await expectNoSeriousA11yViolations(page, 'storage-meter-light-desktop');
    await useScheme(page, 'dark');
    await shot(page, 'storage-meter-dark-desktop');
    await expectNoSeriousA11yViolations(page, 'storage-meter-dark-desktop');

    // The trash still holds the bytes; deleting for good frees them.
    await item(page, 'notes.txt').click();
    await page.keyboard.press('Delete');
    await expect(item(page, 'notes.txt')).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('link', { name: 'Trash' }).click();
    await expect(meter.getByTestId('storage-meter-text')).toHaveText('2.0 KB of 5.0 GB used');
    await item(page, 'notes.txt').click();
    await page.keyboard.press('Delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click();
    await expect(meter.getByTestId('storage-meter-text')).toHaveText('0 B of 5.0 GB used');
    expect(await marker(page)).toBe(9);

    await meter.click();
    await expect(page).toHaveURL(/\/user\/settings\/storage$/);
    await expect(page.getByTestId('storage-used')).toHaveText('0 B');
    expect(await marker(page)).toBe(9);
  });

  test('says so when there is no limit', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const ctx = await e2eContext();
    try {
      await putSetting(ctx, 'default_storage_limit_bytes', 0);
      await signUpAndOpen(page);
      const meter = page.getByRole('navigation', { name: 'Folders' }).getByTestId('storage-meter');
      await expect(meter.getByTestId('storage-meter-text')).toHaveText('0 B used · No storage limit');
      await expect(meter.getByTestId('storage-meter-bar')).toHaveCount(0);
      await shot(page, 'storage-meter-unlimited-light-desktop');
    } finally {
      await putSetting(ctx, 'default_storage_limit_bytes', 5 * 1024 ** 3);
      await ctx.db.destroy();
    }
  });

  test('on a phone it sits under the places and opens the storage screen', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signUpAndOpen(page);
    const meter = page.getByTestId('storage-meter').filter({ visible: true });
    await expect(meter).toHaveCount(1);
    await expect(meter).toHaveAccessibleName('Storage: 0 B of 5.0 GB used');
    const places = await page.getByRole('navigation', { name: 'Places' }).boundingBox();
    const box = await meter.boundingBox();
    expect(box!.y).toBeGreaterThan(places!.y + places!.height - 1);
    for (const scheme of ['light', 'dark'] as const) {
      await useScheme(page, scheme);
      await shot(page, `storage-meter-${scheme}-phone`);
      await expectNoSeriousA11yViolations(page, `storage-meter-${scheme}-phone`);
    }
    await meter.click();
    await expect(page).toHaveURL(/\/user\/settings\/storage$/);
  });
});

test.describe('selecting', () => {
  test('the list header box selects all, shows mixed, clears; the toolbar counts and clears; Ctrl+A still selects all', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signUpAndOpen(page);
    for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta']) await apiFolder(page, name);
    await page.reload();
    const all = page.getByRole('checkbox', { name: 'Select all' }).filter({ visible: true });
    const toolbar = page.getByRole('toolbar', { name: 'File actions' });
    const count = toolbar.getByTestId('selection-count');
    await expect(all).toHaveCount(1);
    await expect(all).not.toBeChecked();
    await expect(count).toHaveCount(0);

    await item(page, 'Bravo').click();
    await expect(all).toBeChecked({ indeterminate: true });
    await expect(count).toHaveText('1 selected');
    await item(page, 'Delta').click({ modifiers: ['ControlOrMeta'] });
    await expect(count).toHaveText('2 selected');
    await shot(page, 'select-some-light-desktop');
    await expectNoSeriousA11yViolations(page, 'select-some-light-desktop');

    // From the keyboard: Tab reaches the box, Space selects everything, Space again clears.
    await all.focus();
    await page.keyboard.press('Space');
    await expect(all).toBeChecked();
    await expect(page.getByRole('option', { selected: true })).toHaveCount(4);
    await expect(count).toHaveText('4 selected');
    await useScheme(page, 'dark');
    await shot(page, 'select-all-dark-desktop');
    await expectNoSeriousA11yViolations(page, 'select-all-dark-desktop');
    await page.keyboard.press('Space');
    await expect(page.getByRole('option', { selected: true })).toHaveCount(0);
    await expect(all).not.toBeChecked();

    await page.getByRole('listbox', { name: 'Files and folders' }).focus();
    await page.keyboard.press('ControlOrMeta+a');
    await expect(page.getByRole('option', { selected: true })).toHaveCount(4);
    await expect(all).toBeChecked();
    await toolbar.getByRole('button', { name: 'Clear selection' }).click();
    await expect(page.getByRole('option', { selected: true })).toHaveCount(0);
    await expect(count).toHaveCount(0);

    // In select mode the box sits over the rows' checkboxes.
    await toolbar.getByRole('button', { name: 'Select several' }).click();
    await item(page, 'Alpha').click();
    await expect(all).toBeChecked({ indeterminate: true });
    const boxX = (await all.boundingBox())!;
    const rowCheck = (await page.locator('[data-testid="item"][title="Alpha"]').locator('xpath=..').locator('span[aria-hidden]').first().boundingBox())!;
    expect(Math.abs(boxX.x + boxX.width / 2 - (rowCheck.x + rowCheck.width / 2))).toBeLessThan(2);
  });

  test('in a grid the toolbar holds the select-all box', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signUpAndOpen(page);
    for (const name of ['One', 'Two', 'Three']) await apiFolder(page, name);
    await page.reload();
    await page.getByRole('button', { name: 'Show as grid' }).click();
    await expect(page.getByTestId('items')).toHaveAttribute('data-view', 'grid');
    const toolbar = page.getByRole('toolbar', { name: 'File actions' });
    const all = toolbar.getByRole('checkbox', { name: 'Select all' });
    await expect(all).toBeVisible();
    await expect(page.getByTestId('list-header')).toHaveCount(0);
    await all.click();
    await expect(page.getByRole('option', { selected: true })).toHaveCount(3);
    await expect(toolbar.getByTestId('selection-count')).toHaveText('3 selected');
    await item(page, 'Two').click({ modifiers: ['ControlOrMeta'] });
    await expect(all).toBeChecked({ indeterminate: true });
    await shot(page, 'select-grid-light-desktop');
    await expectNoSeriousA11yViolations(page, 'select-grid-light-desktop');
    await all.click();
    await expect(all).toBeChecked();
    await all.click();
    await expect(page.getByRole('option', { selected: true })).toHaveCount(0);
  });

  test('on a phone the toolbar holds the box, the count and the clear button on one row', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signUpAndOpen(page);
    for (const name of ['Pocket', 'Wallet']) await apiFolder(page, name);
    await page.reload();
    const toolbar = page.getByRole('toolbar', { name: 'File actions' });
    const all = toolbar.getByRole('checkbox', { name: 'Select all' });
    await expect(all).toBeVisible();
    await all.click();
    await expect(toolbar.getByTestId('selection-count')).toHaveText('2 selected');
    const rows = await toolbar.locator('> *').evaluateAll((els) => new Set(els.filter((e) => (e as HTMLElement).offsetWidth > 0).map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))).size);
    expect(rows).toBe(1);
    for (const scheme of ['light', 'dark'] as const) {
      await useScheme(page, scheme);
      await shot(page, `select-all-${scheme}-phone`);
      await expectNoSeriousA11yViolations(page, `select-all-${scheme}-phone`);
    }
    await toolbar.getByRole('button', { name: 'Clear selection' }).click();
    await expect(page.getByRole('option', { selected: true })).toHaveCount(0);
  });
});

test.describe('toasts', () => {
  const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  /** Trashes each group in one go, so each toast says how many went ("1 item…", "2 items…"). */
  async function trashGroups(page: Page, groups: string[][]) {
    for (const group of groups) {
      await item(page, group[0]!).click();
      for (const name of group.slice(1)) await item(page, name).click({ modifiers: ['ControlOrMeta'] });
      await page.keyboard.press('Delete');
      for (const name of group) await expect(item(page, name)).toHaveCount(0);
    }
  }

  test('on a wide screen: bottom right, at most three, the newest at the bottom, clear of the toolbar', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signUpAndOpen(page);
    const groups = [['A1'], ['B1', 'B2'], ['C1', 'C2', 'C3'], ['D1', 'D2', 'D3', 'D4']];
    for (const name of groups.flat()) await apiFolder(page, name);
    await page.reload();
    await trashGroups(page, groups);
    const toasts = page.getByTestId('toast');
    await expect(toasts).toHaveCount(3);
    await expect(toasts).toContainText(['2 items moved to trash', '3 items moved to trash', '4 items moved to trash']);
    // They are announced politely, from one live region.
    await expect(page.locator('[aria-live="polite"]').filter({ has: toasts.first() })).toHaveCount(1);
    const boxes = await Promise.all([0, 1, 2].map(async (n) => (await toasts.nth(n).boundingBox())!));
    // Stacked downwards, the newest nearest the bottom edge, near the right edge.
    expect(boxes[0]!.y).toBeLessThan(boxes[1]!.y);
    expect(boxes[1]!.y).toBeLessThan(boxes[2]!.y);
    expect(DESKTOP.height - (boxes[2]!.y + boxes[2]!.height)).toBeLessThanOrEqual(32);
    expect(DESKTOP.width - (boxes[2]!.x + boxes[2]!.width)).toBeLessThanOrEqual(32);
    const toolbar = (await page.getByRole('toolbar', { name: 'File actions' }).boundingBox())!;
    for (const box of boxes) expect(overlaps(box, toolbar)).toBe(false);
    await shot(page, 'toasts-light-desktop');
    await expectNoSeriousA11yViolations(page, 'toasts-light-desktop');
    await useScheme(page, 'dark');
    await shot(page, 'toasts-dark-desktop');
    await expectNoSeriousA11yViolations(page, 'toasts-dark-desktop');
  });

  test('on a phone: bottom centre, nearly full width, at the bottom edge, clear of the toolbar and of the cookie notice', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signUpAndOpen(page);
    await apiFolder(page, 'Pocket');
    await page.reload();
    // The cookie notice is in the page's flow above the list: the toasts never have to clear it.
    const cookie = page.getByRole('region', { name: 'Cookie notice' });
    await expect(cookie).toBeVisible();
    await trashGroups(page, [['Pocket']]);
    const toast = page.getByTestId('toast');
    await expect(toast).toHaveCount(1);
    const box = (await toast.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - PHONE.width / 2)).toBeLessThanOrEqual(1);
    expect(box.width).toBeGreaterThanOrEqual(PHONE.width - 40);
    expect(PHONE.height - (box.y + box.height)).toBeLessThanOrEqual(20);
    expect(overlaps(box, (await cookie.boundingBox())!)).toBe(false);
    expect(overlaps(box, (await page.getByRole('toolbar', { name: 'File actions' }).boundingBox())!)).toBe(false);
    await shot(page, 'toasts-cookie-light-phone');
    await expectNoSeriousA11yViolations(page, 'toasts-cookie-light-phone');
    await useScheme(page, 'dark');
    await shot(page, 'toasts-dark-phone');
    await expectNoSeriousA11yViolations(page, 'toasts-dark-phone');
  });
});
