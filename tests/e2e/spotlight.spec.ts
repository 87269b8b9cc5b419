import type { Page } from '@playwright/test';
import { expect, shot, signUpAndOpen, test } from './fixtures.ts';

const HEADERS = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });

/** A name that would be markup, a quote, right-to-left text and an emoji if it were not text. (Names may not hold "/" or direction overrides.) */
const NASTY = '<img src=x onerror="window.__xss=1"><b>x "q" שלום 🎉';

async function createFolder(page: Page, name: string, parentId: string | null = null, emoji: unknown = null): Promise<string> {
  const res = await page.request.post('/api/create-folder', { data: { name, parent_id: parentId, emoji }, headers: HEADERS() });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** Signs a new user up and gives them a few folders to find. */
async function seed(page: Page): Promise<Record<string, string>> {
  await signUpAndOpen(page);
  const ids: Record<string, string> = {};
  ids['Projects 2024'] = await createFolder(page, 'Projects 2024', null, { char: '🚀', name: 'rocket' });
  ids.Reports = await createFolder(page, 'Reports', ids['Projects 2024']);
  ids.Prototypes = await createFolder(page, 'Prototypes');
  ids.Photos = await createFolder(page, 'Photos');
  const colour = await page.request.post(`/api/rename/${ids.Photos}`, { data: { color: '#ec4899', _method: 'patch' }, headers: HEADERS() });
  expect(colour.status()).toBe(200);
  ids[NASTY] = await createFolder(page, NASTY, ids.Prototypes);
  await expect(page.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible(); // the app is up and listens for Ctrl+K
  return ids;
}

const spotlight = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const input = (page: Page) => spotlight(page).getByRole('combobox', { name: 'Search files and folders' });
const options = (page: Page) => spotlight(page).getByRole('option');

async function open(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(input(page)).toBeFocused();
}

test('Ctrl+K searches as you type, arrows and Enter open a folder without a reload, Escape and the backdrop close it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const fontRequests: string[] = [];
  page.on('request', (r) => {
    if (/twemoji[^/]*\.woff2/.test(r.url())) fontRequests.push(r.url());
  });
  const ids = await seed(page);
  await expect(page.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  // The folder list already draws the 🚀 folder's emoji, so the Twemoji font has been asked for.
  await expect.poll(() => fontRequests.length).toBeGreaterThan(0);

  await open(page);
  await expect(spotlight(page).getByText('Type part of a name to find your files and folders.')).toBeVisible();
  await shot(page, 'spotlight-hint-light-desktop');

  await input(page).pressSequentially('pro', { delay: 30 });
  await expect(options(page)).toHaveCount(2);
  await expect(options(page).filter({ hasText: 'Projects 2024' })).toBeVisible();
  await expect(options(page).filter({ hasText: 'Prototypes' })).toBeVisible();
  await expect(options(page).first()).toHaveAttribute('aria-selected', 'true');
  // The rocket folder's emoji is drawn with Twemoji, which is fetched now that it is needed.
  await expect.poll(() => fontRequests.length).toBeGreaterThan(0);
  await shot(page, 'spotlight-results-light-desktop');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'spotlight-results-dark-desktop');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));

  // Typing on narrows the answer.
  await input(page).pressSequentially('ject', { delay: 30 });
  await expect(options(page)).toHaveCount(1);
  await expect(options(page).first()).toContainText('Projects 2024');

  // The location hint names the parent folders; arrows move the highlight; Enter opens.
  await input(page).fill('o');
  await expect(options(page).filter({ hasText: 'Reports' })).toContainText('Files / Projects 2024');
  const count = await options(page).count();
  expect(count).toBeGreaterThan(1);
  await page.keyboard.press('ArrowDown');
  const chosen = options(page).nth(1);
  await expect(chosen).toHaveAttribute('aria-selected', 'true');
  await expect(input(page)).toHaveAttribute('aria-activedescendant', (await chosen.getAttribute('id'))!);
  const chosenName = await chosen.locator('p').first().textContent();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(spotlight(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/platform/files/${ids[chosenName!]}$`));
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 'no full page load').toBe(42);

  // No results.
  await open(page);
  await expect(input(page)).toHaveValue('');
  await input(page).fill('zzz nothing here');
  await expect(spotlight(page).getByText('Nothing found')).toBeVisible();
  await expect(spotlight(page).getByText('No file or folder matches “zzz nothing here”.')).toBeVisible();
  await expect(options(page)).toHaveCount(0);
  await shot(page, 'spotlight-empty-light-desktop');

  // Escape closes; so does a click on the dimmed backdrop.
  await page.keyboard.press('Escape');
  await expect(spotlight(page)).toBeHidden();
  await open(page);
  await expect(spotlight(page).getByText('Find anything')).toBeVisible();
  // Radix starts listening for outside clicks a tick after opening; a person is never that quick.
  await page.waitForTimeout(100);
  await page.mouse.click(20, 780);
  await expect(spotlight(page)).toBeHidden();
  await page.keyboard.press('Meta+k');
  await expect(input(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(spotlight(page)).toBeHidden();
});

test('names show as text: markup, quotes, a right-to-left override and emoji', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const ids = await seed(page);
  await open(page);
  await input(page).fill('onerror');
  await expect(options(page)).toHaveCount(1);
  const row = options(page).first();
  await expect(row.locator('p').first()).toHaveText(NASTY);
  await expect(row.locator('p').nth(1)).toHaveText('Files / Prototypes');
  await expect(spotlight(page).locator('img, b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await shot(page, 'spotlight-nasty-name-light-desktop');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/platform/files/${ids[NASTY]}$`));
});

test('a file opens its parent folder, or home at the top', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const ids = await seed(page);
  // Uploads arrive with their own issue: the search answer is stubbed with two files.
  const file = (id: string, name: string, parent: string | null, mimetype: string, size: number) => ({
    id,
    type: 'file',
    attributes: { name, color: null, emoji: null, items: null, parent_id: parent, deleted_at: null, mimetype, file_url: `/file/${id}`, size, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z' },
    relationships: { shared: null },
  });
  await page.route('**/api/search?*', (route) =>
    route.fulfill({
      json: {
        data: [file('f1', 'Budget.pdf', ids.Reports!, 'application/pdf', 48_213), file('f2', 'notes.txt', null, 'text/plain', 512)],
        // Each result's folders from home, as the search answers them (the tree is loaded a level at a time).
        meta: { root: null, locations: { f1: [{ id: ids['Projects 2024'], name: 'Projects 2024' }, { id: ids.Reports, name: 'Reports' }], f2: [] } },
      },
    }),
  );
  await open(page);
  await input(page).fill('b');
  await expect(options(page)).toHaveCount(2);
  await expect(options(page).first()).toContainText('Files / Projects 2024 / Reports');
  await expect(options(page).first()).toContainText('47 KB');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/platform/files/${ids.Reports}$`));

  await open(page);
  await input(page).fill('n');
  await expect(options(page)).toHaveCount(2);
  await page.keyboard.press('ArrowUp'); // wraps to the last result
  await expect(options(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/platform\/files$/);
});

test('an answer to an older query is ignored, and a failed search says so', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await seed(page);
  let fail = false;
  await page.route('**/api/search?*', async (route) => {
    if (fail) return route.fulfill({ status: 500, json: { message: 'boom' } });
    const query = new URL(route.request().url()).searchParams.get('query');
    const response = await route.fetch();
    if (query === 'pro') await new Promise((r) => setTimeout(r, 1200)); // the slow, older answer
    await route.fulfill({ response });
  });
  await open(page);
  const slow = page.waitForRequest((r) => r.url().includes('query=pro') && !r.url().includes('query=proj'));
  await input(page).fill('pro');
  await slow;
  await input(page).fill('proj');
  await expect(options(page)).toHaveCount(1);
  await page.waitForTimeout(1500); // the answer for "pro" (two folders) has arrived by now
  await expect(options(page)).toHaveCount(1);
  await expect(options(page).first()).toContainText('Projects 2024');

  fail = true;
  await input(page).fill('photo');
  await expect(spotlight(page).getByText('The search did not work. Please try again.')).toBeVisible();
});

test('on a phone the spotlight fills the width; with the Apple emoji set Twemoji is never fetched', async ({ page: seeding, context }) => {
  await seed(seeding);
  const saved = await seeding.request.post('/api/user/settings', { data: { emoji_type: 'applemoji', _method: 'patch' }, headers: HEADERS() });
  expect(saved.status()).toBe(200);
  // A new page, listened to from its start: a font request of the old page (which drew Twemoji)
  // can reach the test after any later point on the same page, and must not be counted.
  const url = seeding.url();
  await seeding.close();
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const fontRequests: string[] = [];
  page.on('request', (r) => {
    if (/twemoji[^/]*\.woff2/.test(r.url())) fontRequests.push(r.url());
  });
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible();
  await open(page);
  await input(page).fill('p');
  const projects = options(page).filter({ has: page.locator('p').first().filter({ hasText: /^Projects 2024$/ }) });
  await expect(projects).toBeVisible();
  await expect(projects.locator('.emoji-applemoji')).toHaveText('🚀');
  const box = (await spotlight(page).boundingBox())!;
  expect(box.width).toBeGreaterThan(350);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await shot(page, 'spotlight-results-light-phone');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'spotlight-results-dark-phone');
  expect(fontRequests).toEqual([]);
});

test('a file found by the spotlight is selected and focused in its folder, and Enter previews it', async ({ page }) => {
  const ids = await seed(page);
  const email = await page.evaluate(async () => (await (await fetch('/api/user', { headers: { Accept: 'application/json' } })).json()).data.attributes.email as string);
  const { e2eContext, seedFiles } = await import('./seed.ts');
  const ctx = await e2eContext();
  // Newest first: the file found sits at the end of a long folder, below the fold.
  await seedFiles(ctx, email, ids.Reports!, 1, 'quarterly');
  await seedFiles(ctx, email, ids.Reports!, 40, 'filler');
  await ctx.db.destroy();

  await open(page);
  await input(page).fill('quarterly');
  await expect(options(page)).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/platform/files/${ids.Reports}$`));
  const found = page.getByRole('option', { name: 'quarterly-00000.txt' });
  await expect(found).toHaveAttribute('aria-selected', 'true');
  await expect(found).toBeInViewport();
  await expect(page.getByRole('listbox', { name: 'Files and folders' })).toBeFocused();
  await shot(page, 'spotlight-file-revealed-light-desktop');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toContainText('quarterly-00000.txt');
});
