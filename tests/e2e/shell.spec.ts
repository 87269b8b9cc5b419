import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, shot, signIn, signUpAndOpen, test } from './fixtures.ts';

test('the shell: sidebar entries, in-app navigation without a reload, and the empty Files screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpAndOpen(page);
  const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
  await expect(sidebar.getByRole('link', { name: 'Files' })).toHaveAttribute('aria-current', 'page');
  await expect(sidebar.getByRole('link', { name: 'Profile' })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  await expect(page).toHaveTitle(/^Files · /);

  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await sidebar.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Password' }).click();
  await expect(page).toHaveURL(/\/user\/settings\/password$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/user\/profile$/);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
});

test('the notification centre opens from the bell with its empty state and closes on Escape', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpAndOpen(page);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  await page.getByRole('button', { name: 'Notifications' }).click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(panel.getByText('There are no notifications yet.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Clear all' })).toHaveCount(0);
  expect((await panel.boundingBox())?.width).toBe(360);
  await shot(page, 'notifications-light-desktop');
  await expectNoSeriousA11yViolations(page, 'notifications-light-desktop');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

test('notifications: the bell shows unread ones, opening marks them read, an action link opens its place, clear all empties it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signUpAndOpen(page);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(`${process.env.E2E_DATA_DIR}/database.sqlite`);
  const userId = (db.prepare('select id from users where email = ?').get(email) as { id: string }).id;
  const insert = db.prepare('insert into notifications (id, user_id, category, title, description, action, read_at, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)');
  const action = JSON.stringify({ type: 'route', params: { id: null, route: 'Files', button: 'Show files' } });
  insert.run(crypto.randomUUID(), userId, 'remote-upload-done', 'Older news', 'Read a while ago.', null, '2026-01-02T10:00:00.000Z', '2026-01-01T10:00:00.000Z');
  insert.run(crypto.randomUUID(), userId, 'remote-upload-done', 'Your files were imported', '2 of 2 files were imported.', action, null, new Date().toISOString());
  db.close();
  await page.goto('/user/profile');
  // The bell is in the account block at the sidebar's foot.
  const sidebar = page.getByRole('region', { name: 'Account' });
  const bell = sidebar.getByRole('button', { name: 'Notifications (1 Unread)' });
  await expect(bell).toBeVisible();

  const marked = page.waitForResponse((r) => r.url().endsWith('/api/user/notifications/read'));
  await bell.click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByRole('region', { name: 'Unread', exact: true })).toContainText('Your files were imported');
  await expect(panel.getByRole('region', { name: 'Read', exact: true })).toContainText('Older news');
  await shot(page, 'notifications-list-light-desktop');
  await expectNoSeriousA11yViolations(page, 'notifications-list-light-desktop');
  expect((await marked).status()).toBe(204);
  await expect(sidebar.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  await panel.getByRole('link', { name: 'Show files' }).click();
  await expect(page).toHaveURL(/\/platform\/files$/);
  await expect(panel).toBeHidden();

  await page.reload();
  await sidebar.getByRole('button', { name: 'Notifications', exact: true }).click();
  await expect(panel.getByRole('region', { name: 'Unread', exact: true })).toHaveCount(0);
  await expect(panel.getByRole('region', { name: 'Read', exact: true })).toContainText('Your files were imported');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shot(page, 'notifications-list-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'notifications-list-dark-desktop');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Notifications', exact: true }).filter({ visible: true }).click();
  await expect(panel.getByRole('region', { name: 'Read', exact: true })).toBeVisible();
  const box = (await panel.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await shot(page, 'notifications-list-light-phone');
  await expectNoSeriousA11yViolations(page, 'notifications-list-light-phone');

  const cleared = page.waitForResponse((r) => r.url().endsWith('/api/user/notifications'));
  await panel.getByRole('button', { name: 'Clear all' }).click();
  expect((await cleared).status()).toBe(204);
  await expect(panel.getByText('There are no notifications yet.')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Notifications', exact: true }).filter({ visible: true }).click();
  await expect(panel.getByText('There are no notifications yet.')).toBeVisible();
});

test('the theme toggle switches dark mode and keeps it after a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await signUpAndOpen(page);
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/settings') && r.status() === 200);
  await page.getByRole('button', { name: 'Switch between light and dark mode' }).click();
  await expect(html).toHaveClass(/dark/);
  await saved;
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(html).toHaveClass(/dark/);
});

test('the cookie notice stays away once dismissed', async ({ page }) => {
  await signUpAndOpen(page);
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  await expect(notice).toBeVisible();
  // In the page's flow above the screen, never fixed over its buttons.
  await expect(page.locator('main').getByRole('region', { name: 'Cookie notice' })).toBeVisible();
  expect(await notice.evaluate((el) => getComputedStyle(el).position)).toBe('static');
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  await expect(notice).toHaveCount(0);
});

test('signing out goes to the homepage and the app is closed again', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpAndOpen(page);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/platform/files');
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fplatform%2Ffiles$/);
});

test('a session that ends while the page is open sends the user to sign-in with the way back', async ({ page, context }) => {
  await signUpAndOpen(page, '/user/profile');
  await expect(page.getByLabel('Display name')).toBeVisible();
  await context.clearCookies();
  await page.getByLabel('Display name').fill('Nobody');
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fuser%2Fprofile$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('the mobile menu opens from the top bar, navigates and closes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpAndOpen(page);
  await expect(page.getByRole('complementary', { name: 'Main navigation' })).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog');
  await expect(menu.getByRole('link', { name: 'Files' })).toBeVisible();
  await shot(page, 'mobile-menu-light-phone');
  await expectNoSeriousA11yViolations(page, 'mobile-menu-light-phone');
  await menu.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);
  await expect(menu).toBeHidden();
});

test('an admin sees the Dashboard entry and the instance figures', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/platform\/files$/);
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText('Uploads today')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Newest accounts' }).getByRole('link').first()).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
    await shot(page, `admin-dashboard-entry-${scheme}-desktop`);
    await expectNoSeriousA11yViolations(page, `admin-dashboard-entry-${scheme}-desktop`);
  }
});

for (const scheme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`signed-in screens render in ${scheme} mode on ${label}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await signUpAndOpen(page, '/platform/files', 'Katherine Johnson');
      for (const [name, path, heading] of [
        ['files', '/platform/files', 'Files'],
        ['profile', '/user/profile', 'Profile'],
        ['password', '/user/settings/password', 'Password'],
        ['tokens', '/user/settings/tokens', 'Access tokens'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
        await shot(page, `${name}-${scheme}-${label}`);
        await expectNoSeriousA11yViolations(page, `${name}-${scheme}-${label}`);
      }
    });
  }
}

test('the app speaks German when the locale is German', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await context.addCookies([{ name: 'locale', value: 'de', url: process.env.E2E_BASE_URL! }]);
  await signUpAndOpen(page);
  await expect(page.getByRole('complementary', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Dateien' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'Dieser Ordner ist leer' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();
  await shot(page, 'files-de-light-desktop');
  await expectNoSeriousA11yViolations(page, 'files-de-light-desktop');
});

test('a screen whose script cannot be loaded says so, with the address and a reload button', async ({ page }) => {
  await signUpAndOpen(page);
  await page.route(/\/_astro\/ProfileScreen[^/]*\.js$/, (route) => route.abort());
  await page.goto('/user/profile');
  const error = page.getByTestId('chunk-load-error');
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute('data-kind', 'missing');
  await expect(error).toContainText(/missing: http:\/\/\S+\/_astro\/ProfileScreen/);
  await expect(error.getByRole('button', { name: 'Reload' })).toBeVisible();
  await shot(page, 'chunk-load-error-light-desktop');
  await expectNoSeriousA11yViolations(page, 'chunk-load-error-light-desktop');
  // The rest of the app still works.
  await page.unroute(/\/_astro\/ProfileScreen[^/]*\.js$/);
  await page.getByRole('link', { name: 'Files' }).first().click();
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
});

test('the app data answered 403 signs the user out of the page', async ({ page }) => {
  await signUpAndOpen(page);
  // The document normally carries the user; without it the app asks /api/user, which refuses.
  let stripped = false;
  await page.route('**/platform/files', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/<script type="application\/json" id="app-user">.*?<\/script>/s, () => {
      stripped = true;
      return '';
    });
    await route.fulfill({ response, body });
  });
  await page.route('**/api/user', (route) => (route.request().method() === 'GET' ? route.fulfill({ status: 403, contentType: 'application/json', body: '{"message":"Forbidden"}' }) : route.continue()));
  // The page goes to sign-in (which, the session being fine, sends it straight back).
  const toSignIn = page.waitForRequest((r) => r.isNavigationRequest() && /\/sign-in\?redirect=%2Fplatform%2Ffiles$/.test(r.url()));
  await page.goto('/platform/files');
  await toSignIn;
  expect(stripped).toBe(true);
  await page.unroute('**/api/user');
  await page.unroute('**/platform/files');
});

test('on large screens the file area has one sidebar: the sections, then places, favourites and folders, scrolling on its own', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  const headers = { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' };
  const ids: string[] = [];
  for (let i = 1; i <= 30; i++) {
    const res = await page.request.post('/api/create-folder', { data: { name: `Project ${String(i).padStart(2, '0')}`, parent_id: null }, headers });
    ids.push((await res.json()).data.id);
  }
  await page.request.post('/api/folders/favourites', { data: { folders: ids.slice(0, 2) }, headers });
  await page.goto('/platform/files');
  const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
  const files = sidebar.getByRole('navigation', { name: 'Folders' });
  await expect(files.getByRole('tree', { name: 'Folders' }).getByRole('treeitem', { name: 'Project 30' })).toBeAttached();

  // One column: the sections first, then the file area's navigation, "Files" once.
  await expect(sidebar.getByRole('navigation', { name: 'Sections' }).getByRole('link')).toHaveText(['Files', 'Profile']);
  await expect(sidebar.getByRole('link', { name: 'Files', exact: true })).toHaveCount(1);
  await expect(files.getByRole('list', { name: 'Places' }).getByRole('link')).toHaveText(['Recent uploads', 'Team folders', 'Shared with me', 'My shared items', 'Trash']);
  await expect(files.getByTestId('favourites').getByRole('link')).toHaveText(['Project 01', 'Project 02']);
  const sidebarBox = (await sidebar.boundingBox())!;
  const mainBox = (await page.locator('main').boundingBox())!;
  expect(sidebarBox.width).toBe(264);
  expect(mainBox.x).toBe(sidebarBox.x + sidebarBox.width);
  await expect(page.locator('main').getByRole('navigation', { name: 'Folders' })).toHaveCount(0);

  // The long tree scrolls inside the sidebar; the account block stays on screen below it.
  const scroller = page.getByTestId('sidebar-scroll');
  expect(await scroller.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  const account = page.getByRole('region', { name: 'Account' });
  await expect(account.getByRole('button', { name: 'Log out' })).toBeInViewport();
  // The storage usage stays pinned above the account block, in view and uncovered, however long the tree.
  const meter = page.getByTestId('sidebar-storage');
  await expect(meter.getByTestId('storage-meter-text')).toContainText(/ of .* used/);
  const meterBox = (await meter.boundingBox())!;
  expect(meterBox.y + meterBox.height).toBeLessThanOrEqual((await account.boundingBox())!.y + 1);
  const uncovered = (el: Element) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && el.contains(hit);
  };
  expect(await meter.evaluate(uncovered)).toBe(true);
  await sidebar.getByRole('treeitem', { name: 'Project 30' }).scrollIntoViewIfNeeded();
  expect(await meter.evaluate(uncovered)).toBe(true);
  await expect(sidebar.getByRole('treeitem', { name: 'Project 30' })).toBeInViewport();
  const last = (await sidebar.getByRole('treeitem', { name: 'Project 30' }).boundingBox())!;
  expect(last.y + last.height).toBeLessThanOrEqual((await account.boundingBox())!.y);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
    await shot(page, `sidebar-files-${scheme}-desktop`);
    await expectNoSeriousA11yViolations(page, `sidebar-files-${scheme}-desktop`);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));

  // A place and a folder open from it; the sidebar stays the same column.
  await sidebar.getByRole('link', { name: 'Trash' }).click();
  await expect(page).toHaveURL(/\/platform\/trash$/);
  await expect(sidebar.getByRole('link', { name: 'Trash' })).toHaveAttribute('aria-current', 'page');
  await sidebar.getByRole('link', { name: 'My shared items' }).click();
  await expect(page.getByRole('heading', { name: 'My shared items', level: 1 })).toBeVisible();
  await expect(files).toBeVisible();

  // Other areas keep the sidebar to the sections alone.
  await sidebar.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await expect(sidebar.getByRole('navigation', { name: 'Folders' })).toHaveCount(0);
  await shot(page, 'sidebar-profile-light-desktop');

  // Phones are as before: the top bar and the places as tabs.
  await page.goto('/platform/files');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(sidebar).toBeHidden();
  const places = page.getByRole('navigation', { name: 'Places' });
  await expect(places.getByRole('link', { name: 'Trash' })).toBeAttached();
  // The tabs do not fit: the strip fades out where more of it is, and the fade follows the scroll.
  await expect(places).toHaveAttribute('data-more', 'after');
  await places.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(places).toHaveAttribute('data-more', 'before');
  await expect(places.getByRole('link', { name: 'Trash' })).toBeInViewport();
  await places.evaluate((el) => el.scrollTo({ left: 0 }));
  await expect(places).toHaveAttribute('data-more', 'after');
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
    await shot(page, `sidebar-files-${scheme}-phone`);
    await expectNoSeriousA11yViolations(page, `sidebar-files-${scheme}-phone`);
  }
});

test('an admin’s sidebar has Files, Profile and Dashboard above the file area’s navigation', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/platform\/files$/);
  const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
  await expect(sidebar.getByRole('navigation', { name: 'Sections' }).getByRole('link')).toHaveText(['Files', 'Profile', 'Dashboard']);
  await expect(sidebar.getByRole('navigation', { name: 'Folders' })).toBeVisible();
  await shot(page, 'sidebar-admin-light-desktop');
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(sidebar.getByRole('navigation', { name: 'Folders' })).toHaveCount(0);
});
