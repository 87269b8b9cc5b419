import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext, seedFiles } from './seed.ts';

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });

// The counts below are a returning visitor's: a first visit's cookie notice adds its one button at
// the top of the page until dismissed (tests/e2e/shell.spec.ts).
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('cookie_notice_dismissed', '1'));
});

async function apiFolder(page: Page, name: string, parentId: string | null = null): Promise<string> {
  const res = await page.request.post('/api/create-folder', { data: { name, parent_id: parentId }, headers: headers() });
  expect(res.status()).toBe(201);
  return (await res.json()).data.id;
}

/** A home with a few folders (several nested, one favourited) so the tree and favourites have entries to tab through. */
async function seedHome(page: Page): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta']) ids[name] = await apiFolder(page, name);
  for (const name of ['Alpha one', 'Alpha two']) ids[name] = await apiFolder(page, name, ids.Alpha);
  const fav = await page.request.post('/api/folders/favourites', { data: { folders: [ids.Bravo, ids.Charlie] }, headers: headers() });
  expect(fav.ok()).toBe(true);
  return ids;
}

/** The listing's order (folders by name unless the sorting says otherwise). */
const order = (page: Page) => page.getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('title')!));
const firstItem = async (page: Page) => (await order(page))[0];
const list = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' });
const activeItemName = (page: Page) =>
  page.evaluate(() => {
    const box = document.activeElement;
    const id = box?.getAttribute('aria-activedescendant');
    return id ? document.getElementById(id)?.getAttribute('title') ?? null : null;
  });

async function openFresh(page: Page): Promise<Record<string, string>> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  const ids = await seedHome(page);
  await page.goto('/platform/files');
  await expect(page.getByRole('option', { name: 'Delta', exact: true })).toBeVisible();
  await expect(page.getByRole('tree', { name: 'Folders' })).toBeVisible();
  return ids;
}

test('from a fresh page the keyboard reaches the file list within 5 presses, through Skip to content', async ({ page }) => {
  await openFresh(page);
  let presses = 0;
  // Tab from the top of the page; Enter on the skip link follows it, as a person would.
  while (presses < 5) {
    const onSkip = await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Skip to content');
    await page.keyboard.press(onSkip ? 'Enter' : 'Tab');
    presses += 1;
    if (await list(page).evaluate((el) => el === document.activeElement)) break;
  }
  await expect(list(page)).toBeFocused();
  expect(presses).toBeLessThanOrEqual(5);
  // The first item is the active one, and it shows a focus ring.
  expect(await activeItemName(page)).toBe(await firstItem(page));
  await shot(page, 'keyboard-list-focused');
  await expectNoSeriousA11yViolations(page, 'keyboard-list-focused');
});

test('Tab alone, from the top of the page, reaches the file list in at most 10 presses', async ({ page }) => {
  await openFresh(page);
  const path: string[] = [];
  while (path.length < 20 && !(await list(page).evaluate((el) => el === document.activeElement))) {
    await page.keyboard.press('Tab');
    path.push(await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return `${el?.getAttribute('role') ?? el?.tagName.toLowerCase()}:${(el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim().slice(0, 24)}`;
    }));
  }
  // Skip link, the sidebar's Files and Profile, the places, the favourites, the folder tree, the
  // storage meter and the toolbar (one stop each), the list's select-all box, the list.
  expect(path.length, path.join(' → ')).toBeLessThanOrEqual(10);
  await expect(list(page)).toBeFocused();
  expect(await activeItemName(page)).toBe(await firstItem(page));
  await shot(page, 'keyboard-tab-alone-list');
});

test('Skip to content lands in the file list; arrows move the active item', async ({ page }) => {
  await openFresh(page);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(list(page)).toBeFocused();
  const names = await order(page);
  expect(names).toHaveLength(4);
  expect(await activeItemName(page)).toBe(names[0]);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await activeItemName(page)).toBe(names[2]);
  await page.keyboard.press('ArrowUp');
  expect(await activeItemName(page)).toBe(names[1]);
  await page.keyboard.press('End');
  expect(await activeItemName(page)).toBe(names[3]);
});

for (const key of ['Shift+F10', 'ContextMenu']) {
  test(`${key} opens the item's menu; Rename opens the dialog; closing it returns focus to the same item`, async ({ page }) => {
    await openFresh(page);
    const names = await order(page);
    const [, second, third] = names;
    await list(page).focus(); // the first item
    await page.keyboard.press('ArrowDown');
    expect(await activeItemName(page)).toBe(second);

    // Escape closes the menu and gives focus back to the item.
    await page.keyboard.press(key);
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await shot(page, `keyboard-menu-${key === 'ContextMenu' ? 'key' : 'shift-f10'}`);
    await expectNoSeriousA11yViolations(page, `keyboard-menu-${key === 'ContextMenu' ? 'key' : 'shift-f10'}`);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(list(page)).toBeFocused();
    expect(await activeItemName(page)).toBe(second);

    // Rename from the menu, then cancel with Escape: focus is back on the same item.
    await page.keyboard.press(key);
    await expect(menu).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Rename' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rename' });
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(list(page)).toBeFocused();
    expect(await activeItemName(page)).toBe(second);

    // And with the Cancel button, after moving to another item.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('F2');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(list(page)).toBeFocused();
    expect(await activeItemName(page)).toBe(third);
  });
}

test('a dialog opened from a toolbar button gives focus back to that button', async ({ page }) => {
  await openFresh(page);
  const button = page.getByRole('button', { name: 'New folder' }).first();
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Create a folder' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
});

test('the favourites are one tab stop: Down and Up move between them, Delete on one takes it off', async ({ page }) => {
  await openFresh(page);
  const favourites = page.getByTestId('favourites');
  const link = (name: string) => favourites.getByRole('link', { name, exact: true });
  await link('Bravo').focus();
  // The next Tab leaves the favourites for the folder tree.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('treeitem', { name: 'Alpha', exact: true })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(link('Bravo')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(link('Charlie')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(link('Bravo')).toBeFocused();
  await page.keyboard.press('End');
  await expect(link('Charlie')).toBeFocused();
  // The stop stays on the favourite last focused.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(link('Charlie')).toBeFocused();
  await page.keyboard.press('Home');
  await page.keyboard.press('Delete');
  await expect(link('Bravo')).toHaveCount(0);
  await expect(link('Charlie')).toBeFocused();
});

test('the places are one tab stop, starting on the open one; Enter opens the place focused', async ({ page }) => {
  await openFresh(page);
  await page.goto('/platform/trash');
  const places = page.getByRole('list', { name: 'Places' });
  const place = (name: string) => places.getByRole('link', { name, exact: true });
  await expect(place('Trash')).toHaveAttribute('aria-current', 'page');
  expect(await places.evaluate((el) => [...el.querySelectorAll<HTMLElement>('a')].filter((a) => a.tabIndex === 0).map((a) => a.textContent))).toEqual(['Trash']);
  await page.getByRole('link', { name: 'Profile', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(place('Trash')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(place('My shared items')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(place('Recent uploads')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/platform\/recent-uploads$/);
  await expect(place('Recent uploads')).toHaveAttribute('aria-current', 'page');
});

test('the toolbar is one tab stop; Left, Right, Home and End move along its buttons', async ({ page }) => {
  await openFresh(page);
  const toolbar = page.getByRole('toolbar', { name: 'File actions' });
  const upload = toolbar.getByRole('button', { name: 'Upload' });
  await page.getByRole('tree', { name: 'Folders' }).getByRole('treeitem').first().focus();
  // The storage meter under the tree, then the toolbar.
  await page.keyboard.press('Tab');
  await expect(page.locator('a[href="/user/settings/storage"]:visible')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(upload).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(toolbar.getByRole('button', { name: 'New folder' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(toolbar.getByRole('button', { name: 'Details' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(toolbar.getByRole('button', { name: 'Select several' })).toBeFocused();
  // Tab leaves the toolbar for the list's select-all box, then the list; Shift+Tab comes back to the button last used.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: 'Select all' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(list(page)).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(toolbar.getByRole('button', { name: 'Select several' })).toBeFocused();
  // Its menus still open from the keyboard, and close back onto their button.
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Upload files' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(upload).toBeFocused();
});

test('the preview returns focus to the list, on the last file it showed', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await signUpAndOpen(page);
  const ctx = await e2eContext();
  await seedFiles(ctx, email, null, 3, 'note');
  await ctx.db.destroy();
  await page.goto('/platform/files');
  await expect(page.getByRole('option')).toHaveCount(3);
  const names = await order(page);
  await list(page).focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog', { name: names[0] });
  await expect(viewer).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: names[1] })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(list(page)).toBeFocused();
  expect(await activeItemName(page)).toBe(names[1]);
});

test('the folder tree is one tab stop; arrows move in it, Right and Left expand and collapse, Enter opens', async ({ page }) => {
  const ids = await openFresh(page);
  const tree = page.getByRole('tree', { name: 'Folders' });
  const treeitem = (name: string) => tree.getByRole('treeitem', { name, exact: true });
  await treeitem('Alpha').focus();
  await expect(treeitem('Alpha')).toBeFocused();
  // One tab stop: the next Tab leaves the tree.
  const tabStops = await tree.evaluate((el) => [...el.querySelectorAll<HTMLElement>('a, button, [tabindex]')].filter((e) => e.tabIndex >= 0).length);
  expect(tabStops).toBe(1);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role=tree]'))).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(treeitem('Alpha')).toBeFocused();

  await page.keyboard.press('ArrowDown');
  await expect(treeitem('Bravo')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(treeitem('Alpha')).toBeFocused();
  await expect(treeitem('Alpha')).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(treeitem('Alpha')).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(treeitem('Alpha one')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(treeitem('Alpha two')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(treeitem('Alpha')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(treeitem('Alpha')).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('End');
  await expect(treeitem('Delta')).toBeFocused();
  await shot(page, 'keyboard-tree-focused');
  await expectNoSeriousA11yViolations(page, 'keyboard-tree-focused');
  // The folder's menu from the keyboard; Rename, then Escape, comes back to the same tree item.
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(treeitem('Delta')).toBeFocused();
  await page.keyboard.press('Shift+F10');
  await menu.getByRole('menuitem', { name: 'Rename' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Rename' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(treeitem('Delta')).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/platform/files/${ids.Delta}$`));
  await expect(page.getByRole('heading', { name: 'Delta', level: 1 })).toBeVisible();
});
