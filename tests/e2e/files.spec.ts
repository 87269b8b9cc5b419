import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext, seedFiles } from './seed.ts';

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });

async function apiFolder(page: Page, name: string, parentId: string | null = null): Promise<string> {
  const res = await page.request.post('/api/create-folder', { data: { name, parent_id: parentId }, headers: headers() });
  expect(res.status()).toBe(201);
  return (await res.json()).data.id;
}

const item = (page: Page, name: string) => page.getByRole('option', { name, exact: true });

async function createFolderInUi(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New folder' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create a folder' });
  const field = dialog.getByLabel('Name');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('New Folder');
  await field.fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(item(page, name)).toBeVisible();
}

test('a person creates nested folders, renames, moves by picker and by drag, favourites, trashes, restores and empties the trash', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  await shot(page, 'files-empty-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-empty-light-desktop');

  await createFolderInUi(page, 'Projects');
  await createFolderInUi(page, 'Archive');
  await item(page, 'Projects').dblclick();
  await expect(page).toHaveURL(/\/platform\/files\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
  await createFolderInUi(page, 'Drafts');
  await createFolderInUi(page, 'Taxes 2026');

  // Rename with F2 from the keyboard.
  await item(page, 'Drafts').click();
  await page.keyboard.press('F2');
  const rename = page.getByRole('dialog', { name: 'Rename' });
  await rename.getByLabel('Name').fill('Taxes 2026');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename.getByText('already')).toBeVisible();
  await rename.getByLabel('Name').fill('Ideas');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(item(page, 'Ideas')).toBeVisible();

  // Colour and emoji a folder from the rename popup.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
  await page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: 'Files' }).click();
  await item(page, 'Archive').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const style = page.getByRole('dialog', { name: 'Rename' });
  await style.getByRole('button', { name: 'Choose an emoji' }).click();
  await page.getByRole('searchbox', { name: 'Search emoji' }).fill('package');
  await page.getByRole('button', { name: 'package', exact: true }).click();
  // Every swatch sits on one row: none wraps alone.
  const tops = await style.getByRole('radiogroup', { name: 'Colour' }).getByRole('radio').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  await style.getByRole('radio', { name: 'Green' }).click();
  await style.getByRole('button', { name: 'Save' }).click();
  await expect(style).toBeHidden();
  await expect(item(page, 'Archive')).toContainText('📦');
  await item(page, 'Projects').dblclick();
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);

  // Move by the picker: Ideas into Archive.
  await item(page, 'Ideas').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Move 1 item' });
  await picker.getByRole('radio', { name: 'Archive' }).click();
  await picker.getByRole('button', { name: 'Move here' }).click();
  await expect(item(page, 'Ideas')).toHaveCount(0);

  // Move by drag: Taxes 2026 onto the "Files" crumb (home).
  await item(page, 'Taxes 2026').dragTo(page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: 'Files' }));
  await expect(item(page, 'Taxes 2026')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();

  // Home: favourite Archive by dragging it onto Favourites.
  await page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: 'Files' }).click();
  await expect(item(page, 'Taxes 2026')).toBeVisible();
  await item(page, 'Archive').dragTo(page.getByTestId('favourites'));
  await expect(page.getByTestId('favourites').getByRole('link', { name: /Archive/ })).toBeVisible();
  await shot(page, 'files-list-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-list-light-desktop');

  // Search with Ctrl+K finds the folder moved into Archive and opens it.
  await page.keyboard.press('Control+k');
  const spotlight = page.getByRole('dialog', { name: 'Search' });
  await spotlight.getByRole('combobox').fill('ide');
  await expect(spotlight.getByRole('option', { name: /Ideas/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Ideas', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: 'Files' }).click();

  // Trash with the Delete key, restore from the trash, then empty it.
  await item(page, 'Taxes 2026').click();
  await page.keyboard.press('Delete');
  await expect(item(page, 'Taxes 2026')).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('link', { name: 'Trash' }).click();
  await expect(page).toHaveURL(/\/platform\/trash$/);
  await item(page, 'Taxes 2026').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Restore' }).click();
  await expect(page.getByRole('heading', { name: 'Your trash is empty' })).toBeVisible();
  // Home is the sidebar's Files entry: the file area's navigation follows it in the same column.
  await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Files', exact: true }).click();
  await item(page, 'Taxes 2026').click();
  await page.keyboard.press('Delete');
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('link', { name: 'Trash' }).click();
  await expect(item(page, 'Taxes 2026')).toBeVisible();
  await shot(page, 'trash-light-desktop');
  await expectNoSeriousA11yViolations(page, 'trash-light-desktop');
  await page.getByRole('button', { name: 'Empty trash' }).click();
  await page.getByRole('dialog', { name: 'Empty the trash?' }).getByRole('button', { name: 'Empty trash' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Your trash was successfully cleared.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your trash is empty' })).toBeVisible();
});

test('the view, sorting and details panel are remembered after a reload; multi-select works with the mouse', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  for (const name of ['Bravo', 'Alpha', 'Charlie', 'Delta']) await apiFolder(page, name);
  await page.reload();
  const names = () => page.getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
  await expect.poll(names).toEqual(['Delta', 'Charlie', 'Alpha', 'Bravo']);

  // Picking a field picks its natural direction: names A→Z, dates newest first.
  await page.getByRole('button', { name: 'Sort by', exact: true }).click();
  await page.getByRole('menuitemradio', { name: 'Name' }).click();
  await expect.poll(names).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
  await page.getByRole('button', { name: 'Sort by', exact: true }).click();
  await expect(page.getByRole('menuitemradio', { name: 'Ascending' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('menuitemradio', { name: 'Descending' })).toHaveAttribute('aria-checked', 'false');
  await page.getByRole('menuitemradio', { name: 'Descending' }).click();
  await expect.poll(names).toEqual(['Delta', 'Charlie', 'Bravo', 'Alpha']);
  await page.getByRole('button', { name: 'Sort by', exact: true }).click();
  await page.getByRole('menuitemradio', { name: 'Ascending' }).click();
  await expect.poll(names).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
  await page.getByRole('button', { name: 'Show as grid' }).click();
  await expect(page.getByTestId('items')).toHaveAttribute('data-view', 'grid');
  await page.getByRole('button', { name: 'Details' }).click();

  await item(page, 'Alpha').click();
  await item(page, 'Charlie').click({ modifiers: ['Shift'] });
  await expect(page.getByRole('option', { selected: true })).toHaveCount(3);
  await item(page, 'Bravo').click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByRole('option', { selected: true })).toHaveCount(2);
  await expect(page.getByTestId('info-panel')).toContainText('2 items selected');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('option', { selected: true })).toHaveCount(0);
  await shot(page, 'files-grid-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-grid-light-desktop');

  await page.reload();
  await expect(page.getByTestId('items')).toHaveAttribute('data-view', 'grid');
  await expect.poll(names).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
  await expect(page.getByTestId('info-panel')).toBeVisible();
});

test('names with markup, quotes, right-to-left text and emoji show as text; direction overrides are refused', async ({ page }) => {
  await signUpAndOpen(page);
  const tricky = '<img src=x onerror=alert(1)> "quoted" תמונה.png 🎉';
  await apiFolder(page, tricky);
  const spoof = await page.request.post('/api/create-folder', { data: { name: 'invoice\u202Egnp.exe', parent_id: null }, headers: headers() });
  expect(spoof.status()).toBe(422);
  await page.reload();
  await expect(page.getByRole('option').first()).toHaveAttribute('title', tricky);
  expect(await page.locator('img[src="x"]').count()).toBe(0);
});

test('keyboard: arrows move, Enter opens, Escape clears', async ({ page }) => {
  await signUpAndOpen(page);
  const inner = await apiFolder(page, 'Second');
  await apiFolder(page, 'Inner', inner);
  await apiFolder(page, 'Third');
  await page.reload();
  await page.getByRole('listbox', { name: 'Files and folders' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { selected: true })).toHaveAttribute('title', 'Second');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Second', level: 1 })).toBeVisible();
  await expect(item(page, 'Inner')).toBeVisible();
  await page.goBack();
  await expect(item(page, 'Third')).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`the file area renders in ${scheme} mode on ${label}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await signUpAndOpen(page);
      const photos = await apiFolder(page, 'Photos');
      await apiFolder(page, 'Holidays', photos);
      await apiFolder(page, 'Invoices');
      await apiFolder(page, 'Recipes');
      await page.reload();
      await expect(item(page, 'Photos')).toBeVisible();
      await shot(page, `files-${scheme}-${label}-list`);
      await expectNoSeriousA11yViolations(page, `files-${scheme}-${label}-list`);
      await page.goto('/platform/trash');
      await expect(page.getByRole('heading', { name: 'Your trash is empty' })).toBeVisible();
      await shot(page, `trash-empty-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(page, `trash-empty-${scheme}-${label}`);
      await page.goto('/platform/recent-uploads');
      await expect(page.getByRole('heading', { name: 'No uploads yet' })).toBeVisible();
      await shot(page, `recent-empty-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(page, `recent-empty-${scheme}-${label}`);
    });
  }
}

test('trashing the open folder from the tree goes back to where it was', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  const work = await apiFolder(page, 'Work');
  const reports = await apiFolder(page, 'Reports', work);
  await page.goto(`/platform/files/${reports}`);
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  const tree = page.getByRole('tree', { name: 'Folders' });
  await tree.getByRole('link', { name: 'Reports' }).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(page).toHaveURL(new RegExp(`/platform/files/${work}$`));
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
});

test('a folder that does not exist says so once, in the list, with a way home', async ({ page }) => {
  await signUpAndOpen(page, '/platform/files/00000000-0000-0000-0000-000000000000');
  await expect(page.getByText('This folder does not exist or was deleted.')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'This folder could not be opened' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await shot(page, 'files-missing-folder-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-missing-folder-light-desktop');
  await page.getByRole('link', { name: 'Open my files' }).click();
  await expect(page).toHaveURL(/\/platform\/files$/);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
});

test('an account that may not create folders gets the spec message instead of the popup', async ({ page }) => {
  const email = await signUpAndOpen(page);
  // No admin screen sets restrictions yet: flip the flag in the e2e server's own database.
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(`${process.env.E2E_DATA_DIR}/database.sqlite`);
  db.prepare('update users set restrictions = ? where email = ?').run(JSON.stringify({ canCreateFolder: false }), email);
  db.close();
  await page.reload();
  await page.getByRole('button', { name: 'New folder' }).first().click();
  await expect(page.getByRole('dialog')).toContainText('Creating folders is temporarily disabled on your account.');
  await expect(page.getByRole('dialog', { name: 'Create a folder' })).toHaveCount(0);
});

test('a folder of 1,500 files opens at once, renders only what is on screen, and pages in as you scroll', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await signUpAndOpen(page);
  const big = await apiFolder(page, 'Big');
  const ctx = await e2eContext();
  await seedFiles(ctx, email, big, 1500);
  await ctx.db.destroy();

  const pages: string[] = [];
  page.on('request', (r) => r.url().includes(`/api/browse/folders/${big}`) && pages.push(r.url()));
  await page.goto(`/platform/files/${big}`);
  await expect(page.getByRole('option').first()).toBeVisible();
  expect(await page.getByRole('option').count()).toBeLessThan(80);
  expect(pages).toHaveLength(1);
  expect(pages[0]).toContain('limit=200');

  for (let i = 0; i < 40 && !(await item(page, 'file-00000.txt').isVisible()); i++) await page.mouse.wheel(0, 6000);
  await expect(item(page, 'file-00000.txt')).toBeVisible();
  expect(pages.length).toBeGreaterThanOrEqual(8);
  expect(await page.getByRole('option').count()).toBeLessThan(80);
});

test('on a phone a long press selects and turns on multi-select', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpAndOpen(page);
  await apiFolder(page, 'Pocket');
  await apiFolder(page, 'Wallet');
  await page.reload();
  // A finger held on an item selects it (and turns on select mode), then opens its menu.
  const pocket = page.locator('[data-testid="item"][title="Pocket"]');
  await pocket.dispatchEvent('pointerdown', { pointerType: 'touch', isPrimary: true });
  await expect(page.getByTestId('item-menu').getByRole('menuitem', { name: 'Open' })).toBeVisible();
  await expect(pocket).toHaveAttribute('aria-selected', 'true');
  await pocket.dispatchEvent('pointerup', { pointerType: 'touch', isPrimary: true });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('item-menu')).toHaveCount(0);
  await expect(item(page, 'Pocket')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Select several' })).toHaveAttribute('aria-pressed', 'true');
  await item(page, 'Wallet').click();
  await expect(page.getByRole('option', { selected: true })).toHaveCount(2);
  await shot(page, 'files-multiselect-light-phone');
  await expectNoSeriousA11yViolations(page, 'files-multiselect-light-phone');
});

test.describe('on a touch screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a tap opens a folder and previews a file; the menu offers Open and shows no key hints', async ({ page }) => {
    const email = await signUpAndOpen(page);
    const folder = await apiFolder(page, 'Trips');
    const ctx = await e2eContext();
    await seedFiles(ctx, email, folder, 1, 'ticket');
    await ctx.db.destroy();
    await page.reload();

    const trips = item(page, 'Trips');
    await trips.scrollIntoViewIfNeeded();
    await trips.tap();
    await expect(page).toHaveURL(new RegExp(`/platform/files/${folder}$`));
    const file = page.getByRole('option').first();
    await expect(file).toBeVisible();
    await file.tap();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await file.dispatchEvent('pointerdown', { pointerType: 'touch', isPrimary: true });
    const menu = page.getByTestId('item-menu');
    await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeVisible();
    await expect(menu.getByTestId('shortcut').first()).toBeHidden();
    await shot(page, 'files-touch-menu-light-phone');
    await expectNoSeriousA11yViolations(page, 'files-touch-menu-light-phone');
    await menu.getByRole('menuitem', { name: 'Open' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
  });
});

test('emoji in names draw with the bundled emoji font, not as boxes', async ({ page }) => {
  await signUpAndOpen(page);
  await apiFolder(page, 'Holidays 🏖️ 2026');
  await page.reload();
  await expect(item(page, 'Holidays 🏖️ 2026')).toBeVisible();
  await expect.poll(() => page.evaluate(() => [...document.fonts].some((f) => f.family.replaceAll('"', '') === 'Twemoji Text' && f.status === 'loaded'))).toBe(true);
  await shot(page, 'files-emoji-name-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-emoji-name-light-desktop');
});

test('the toolbar never wraps: with the details panel open and an item selected, extra actions go into More', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  await apiFolder(page, 'A folder with a rather long name to crowd the header');
  await page.reload();
  await page.getByRole('button', { name: 'Details' }).click();
  await item(page, 'A folder with a rather long name to crowd the header').click();
  const toolbar = page.getByRole('toolbar', { name: 'File actions' });
  const rows = () => toolbar.locator('> *').evaluateAll((els) => new Set(els.filter((e) => (e as HTMLElement).offsetWidth > 0).map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))).size);
  await expect(toolbar.getByRole('button', { name: 'Move to trash' }).or(toolbar.getByRole('button', { name: 'More actions' })).first()).toBeVisible();
  expect(await rows()).toBe(1);
  // No button's label breaks over two lines either.
  for (const name of ['Upload', 'New folder']) expect((await toolbar.getByRole('button', { name, exact: true }).boundingBox())!.height).toBeLessThan(44);
  await shot(page, 'files-toolbar-selected-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-toolbar-selected-light-desktop');
  for (const width of [1280, 1100, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(rows).toBe(1);
  }
  // Whatever did not fit is one click away.
  await page.setViewportSize({ width: 390, height: 844 });
  await item(page, 'A folder with a rather long name to crowd the header').click();
  const more = toolbar.getByRole('button', { name: 'More actions' });
  if (await more.isVisible()) {
    await more.click();
    await expect(page.getByRole('menuitem').first()).toBeVisible();
    await shot(page, 'files-toolbar-more-light-phone');
    await expectNoSeriousA11yViolations(page, 'files-toolbar-more-light-phone');
    await page.keyboard.press('Escape');
  }
});

test('trash, move and favourite each offer Undo in their toast', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  await apiFolder(page, 'Keep');
  await apiFolder(page, 'Box');
  await page.reload();
  const undo = () => page.getByTestId('toast').getByRole('button', { name: 'Undo' });

  await item(page, 'Keep').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(item(page, 'Keep')).toHaveCount(0);
  await shot(page, 'files-undo-toast-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-undo-toast-light-desktop');
  await undo().click();
  await expect(item(page, 'Keep')).toBeVisible();

  await item(page, 'Keep').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Move 1 item' });
  await picker.getByRole('radio', { name: 'Box' }).click();
  await picker.getByRole('button', { name: 'Move here' }).click();
  await expect(item(page, 'Keep')).toHaveCount(0);
  await undo().first().click();
  await expect(item(page, 'Keep')).toBeVisible();

  await item(page, 'Box').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Add to favourites' }).click();
  const favourites = page.getByTestId('favourites');
  await expect(favourites.getByRole('link', { name: 'Box' })).toBeVisible();
  await undo().first().click();
  await expect(favourites.getByRole('link', { name: 'Box' })).toHaveCount(0);
});

test('each kind of file has its own icon; the details panel names the kind, the location and the sharing state', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await signUpAndOpen(page);
  const folder = await apiFolder(page, 'Mixed');
  const ctx = await e2eContext();
  const { Readable } = await import('node:stream');
  const { newBlobKey, createFileItem } = await import('../../src/server/files/service.ts');
  const { findUserByEmail } = await import('../../src/server/users/queries.ts');
  const user = (await findUserByEmail(ctx, email))!;
  const files: [string, string][] = [
    ['report.pdf', 'application/pdf'], ['notes.md', 'text/markdown'], ['data.csv', 'text/csv'],
    ['budget.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], ['photos.zip', 'application/zip'],
    ['song.mp3', 'audio/mpeg'], ['clip.mp4', 'video/mp4'], ['main.ts', 'text/plain'], ['todo.txt', 'text/plain'], ['shot.png', 'image/png'],
  ];
  for (const [name, mimetype] of files) {
    const blobKey = newBlobKey(user.id);
    const stat = await ctx.blobs.put(blobKey, Readable.from([Buffer.from(name)]));
    await createFileItem(ctx, { ownerId: user.id, parentId: folder, name, mimetype, size: stat.size, blobKey });
  }
  await ctx.db.destroy();
  await page.goto(`/platform/files/${folder}`);
  await expect(page.getByRole('option')).toHaveCount(files.length);
  const kinds = await page.locator('[data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
  expect(new Set(kinds)).toEqual(new Set(['pdf', 'markdown', 'csv', 'spreadsheet', 'archive', 'audio', 'video', 'code', 'text', 'image']));

  await page.getByRole('button', { name: 'Details' }).click();
  await item(page, 'shot.png').click();
  const panel = page.getByTestId('info-panel');
  await expect(panel).toContainText('PNG image');
  await expect(panel).toContainText('Files / Mixed');
  await expect(panel).toContainText('Not shared');
  await item(page, 'report.pdf').click();
  await expect(panel).toContainText('PDF document');
  await shot(page, 'files-kinds-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-kinds-light-desktop');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(page.getByRole('option')).toHaveCount(files.length);
  await shot(page, 'files-kinds-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'files-kinds-dark-desktop');
});

test('an empty folder offers Upload and New folder, and says files can be dropped', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  const empty = page.getByTestId('empty-actions');
  await expect(empty.getByRole('button', { name: 'Upload files' })).toBeVisible();
  await expect(empty.getByRole('button', { name: 'New folder' })).toBeVisible();
  await expect(page.getByText('Or drop files and folders anywhere on this page.')).toBeVisible();
  await shot(page, 'files-empty-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-empty-light-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'files-empty-light-phone');
  await expectNoSeriousA11yViolations(page, 'files-empty-light-phone');
  const chooser = page.waitForEvent('filechooser');
  await empty.getByRole('button', { name: 'Upload files' }).click();
  await (await chooser).setFiles({ name: 'first.txt', mimeType: 'text/plain', buffer: Buffer.from('my first file') });
  await expect(item(page, 'first.txt')).toBeVisible();
});

test('the trash shows and sorts by the date things went there', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  // Created in one order, trashed in the other.
  const ids: Record<string, string> = {};
  for (const name of ['Older', 'Newer']) ids[name] = await apiFolder(page, name);
  for (const name of ['Newer', 'Older']) {
    const res = await page.request.post('/api/remove', { data: { items: [{ id: ids[name], type: 'folder', force_delete: false }] }, headers: headers() });
    expect(res.status()).toBe(204);
  }
  await page.goto('/platform/trash');
  await expect(page.getByRole('button', { name: 'Sort by: Deleted' })).toBeVisible();
  const names = () => page.getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
  // Newest first by default: the last trashed leads.
  await expect.poll(names).toEqual(['Older', 'Newer']);
  await page.getByRole('button', { name: 'Sort by', exact: true }).click();
  await expect(page.getByRole('menuitemradio', { name: 'Date deleted' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('menuitemradio', { name: 'Ascending' }).click();
  await expect.poll(names).toEqual(['Newer', 'Older']);
  await shot(page, 'trash-sorted-light-desktop');
});
