import type { Page } from '@playwright/test';
import { expect, shot, signUpAndOpen, test } from './fixtures.ts';

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });
const item = (page: Page, name: string) => page.getByRole('option', { name, exact: true });
/** The lazy chunk with the emoji list (integrations/emoji-data.mjs). */
const DATA_CHUNK = /\/_astro\/_virtual_emoji-data-(en|de)\.[\w-]+\.js$/;

async function folderPage(page: Page, name: string): Promise<string[]> {
  await signUpAndOpen(page);
  const res = await page.request.post('/api/create-folder', { data: { name, parent_id: null }, headers: headers() });
  expect(res.status()).toBe(201);
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (DATA_CHUNK.test(new URL(r.url()).pathname)) fetched.push(r.url());
  });
  await page.reload();
  await expect(item(page, name)).toBeVisible();
  return fetched;
}

async function openRename(page: Page, name: string) {
  await item(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  return page.getByRole('dialog', { name: 'Rename' });
}

test('the picker loads the full set on opening, searches, remembers recent picks, jumps to a group and works by keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const fetched = await folderPage(page, 'Launches');
  // The emoji list is not part of the page: nothing fetched it yet.
  expect(fetched).toEqual([]);

  let rename = await openRename(page, 'Launches');
  await rename.getByRole('button', { name: 'Choose an emoji' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose an emoji' });
  const search = picker.getByRole('searchbox', { name: 'Search emoji' });
  await expect(search).toBeFocused();
  const grid = picker.getByRole('group', { name: 'Emoji' });
  await expect(grid.getByRole('button', { name: 'grinning face', exact: true })).toBeVisible();
  expect(fetched.length).toBe(1);
  // Nothing picked yet: no "Recently used", the groups start with smileys.
  await expect(picker.getByRole('button', { name: 'Recently used' })).toHaveCount(0);
  await expect(picker.getByRole('toolbar', { name: 'Emoji groups' }).getByRole('button')).toHaveCount(9);

  await search.fill('rocket');
  await expect(grid.getByRole('button').first()).toHaveAccessibleName('rocket');
  await shot(page, 'emoji-picker-search-light-desktop');
  await grid.getByRole('button', { name: 'rocket', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(rename.getByRole('button', { name: 'Choose an emoji' })).toContainText('🚀');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename).toBeHidden();
  await expect(item(page, 'Launches')).toContainText('🚀');

  // Next time "Recently used" comes first, with the rocket first in it and marked as the current one.
  rename = await openRename(page, 'Launches');
  await rename.getByRole('button', { name: 'Choose an emoji' }).click();
  await expect(grid.getByText('Recently used')).toBeVisible();
  await expect(grid.getByRole('button').first()).toHaveAccessibleName('rocket');
  await expect(grid.getByRole('button').first()).toHaveAttribute('aria-pressed', 'true');
  await expect(picker.getByRole('button', { name: 'Recently used' })).toHaveAttribute('aria-current', 'true');

  // The jump bar scrolls to the flags.
  const flags = picker.getByRole('button', { name: 'Flags', exact: true });
  await flags.click();
  await expect(grid.getByRole('button', { name: 'chequered flag' })).toBeInViewport();
  await expect(flags).toHaveAttribute('aria-current', 'true');
  await expect(grid.getByText('Recently used')).toHaveCount(0); // scrolled out and not rendered
  await shot(page, 'emoji-picker-flags-light-desktop');
  // Tab from the jump bar enters the grid where it shows: at the first flag.
  await flags.focus();
  await page.keyboard.press('Tab');
  await expect(grid.getByRole('button', { name: 'chequered flag', exact: true })).toBeFocused();
  // The chunk came once: a second opening reuses it.
  expect(fetched.length).toBe(1);

  // Escape closes the picker and leaves the dialog open.
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(rename).toBeVisible();

  // Keyboard only: open, type, arrow into the grid, move, Enter picks.
  const trigger = rename.getByRole('button', { name: 'Choose an emoji' });
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(search).toBeFocused();
  await page.keyboard.type('pizza');
  await expect(grid.getByRole('button').first()).toHaveAccessibleName('pizza');
  await page.keyboard.press('ArrowDown');
  await expect(grid.getByRole('button', { name: 'pizza', exact: true })).toBeFocused();
  await search.fill('');
  await page.keyboard.press('Tab'); // from the search box into the jump bar…
  await search.focus();
  await page.keyboard.press('ArrowDown'); // …and back: ArrowDown enters the grid at its first cell
  await expect(grid.getByRole('button', { name: 'rocket', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowDown'); // over the "Smileys & emotion" heading
  await expect(grid.getByRole('button', { name: 'grinning face', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(grid.getByRole('button', { name: 'grinning face with big eyes', exact: true })).toBeFocused();
  // Far down the virtualised list: End reaches the last flag, rendered as the grid scrolls to it.
  await page.keyboard.press('End');
  await expect(grid.getByRole('button', { name: 'flag: Wales', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /^flag: /);
  await shot(page, 'emoji-picker-keyboard-light-desktop');
  await page.keyboard.press('Home');
  await expect(grid.getByRole('button', { name: 'rocket', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(grid.getByRole('button', { name: 'grinning face with big eyes', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(picker).toBeHidden();
  await expect(trigger).toBeFocused();
  await expect(trigger).toContainText('😃');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(item(page, 'Launches')).toContainText('😃');
  // The newest pick leads the recent list (kept in localStorage).
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('emoji-recent') ?? '[]'))).toEqual(['😃', '🚀']);
});

for (const scheme of ['light', 'dark'] as const) {
  for (const [width, height, label] of [
    [1440, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    test(`the picker reads well (${scheme}, ${label})`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await page.addInitScript(() => localStorage.setItem('emoji-recent', JSON.stringify(['🚀', '📦', '🎉'])));
      await folderPage(page, 'Holidays');
      const rename = await openRename(page, 'Holidays');
      await rename.getByRole('button', { name: 'Choose an emoji' }).click();
      const picker = page.getByRole('dialog', { name: 'Choose an emoji' });
      await expect(picker.getByRole('group', { name: 'Emoji' }).getByRole('button', { name: 'party popper' })).toBeVisible();
      // The popover fits the screen.
      const box = (await picker.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await shot(page, `emoji-picker-${scheme}-${label}`);
    });
  }
}

test('on a German page the picker loads and searches the German names and keywords', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await context.addCookies([{ name: 'locale', value: 'de', url: process.env.E2E_BASE_URL! }]);
  const fetched = await folderPage(page, 'Reisen');
  await item(page, 'Reisen').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Umbenennen' }).click();
  const rename = page.getByRole('dialog', { name: 'Umbenennen' });
  await rename.getByRole('button', { name: 'Emoji auswählen' }).click();
  const picker = page.getByRole('dialog', { name: 'Emoji auswählen' });
  await expect(picker.getByRole('button', { name: 'Flaggen', exact: true })).toBeVisible();
  await picker.getByRole('searchbox', { name: 'Emoji suchen' }).fill('rakete');
  await expect(picker.getByRole('group', { name: 'Emoji' }).getByRole('button').first()).toHaveAccessibleName('Rakete');
  expect(fetched.map((url) => DATA_CHUNK.exec(new URL(url).pathname)?.[1])).toEqual(['de']);
  await shot(page, 'emoji-picker-de-light-desktop');
});

test('in a short window the grid gives way so the whole picker stays on screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 640 });
  await folderPage(page, 'Short');
  const rename = await openRename(page, 'Short');
  await rename.getByRole('button', { name: 'Choose an emoji' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose an emoji' });
  await expect(picker.getByRole('button', { name: 'grinning face', exact: true })).toBeVisible();
  await expect(picker.getByRole('button', { name: 'No emoji' })).toBeInViewport({ ratio: 1 });
  await shot(page, 'emoji-picker-short-light-desktop');
});

test('in the Twemoji set the picker offers no sequence the browser draws as two pictures; the system set offers them', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await folderPage(page, 'Pride');
  let rename = await openRename(page, 'Pride');
  await rename.getByRole('button', { name: 'Choose an emoji' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose an emoji' });
  const search = picker.getByRole('searchbox', { name: 'Search emoji' });
  const grid = picker.getByRole('group', { name: 'Emoji' });
  // Sequences the font joins stay offered…
  await search.fill('family: man, woman, girl');
  await expect(grid.getByRole('button', { name: 'family: man, woman, girl', exact: true })).toBeVisible();
  // …those Chromium draws apart in Twemoji (a text-style part such as U+2695 or U+FE0F) are not.
  for (const name of ['rainbow flag', 'health worker', 'keycap: #']) {
    await search.fill(name);
    await expect(picker.getByText('No emoji matches.')).toBeVisible();
  }
  // Every offered emoji is one picture wide: measure what the grid shows for a broad search.
  await search.fill('man');
  await expect(grid.getByRole('button').first()).toBeVisible();
  const widths = await grid.locator('button > span').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
  expect(widths.length).toBeGreaterThan(20);
  expect(Math.max(...widths)).toBeLessThan(Math.min(...widths) * 1.5);
  await page.keyboard.press('Escape');
  await rename.getByRole('button', { name: 'Cancel' }).click();

  // In the system's emoji set the same sequences are offered.
  const saved = await page.request.post('/api/user/settings', { data: { emoji_type: 'applemoji', _method: 'patch' }, headers: headers() });
  expect(saved.ok()).toBe(true);
  await page.reload();
  rename = await openRename(page, 'Pride');
  await rename.getByRole('button', { name: 'Choose an emoji' }).click();
  await search.fill('rainbow flag');
  await expect(grid.getByRole('button', { name: 'rainbow flag', exact: true })).toBeVisible();
});
