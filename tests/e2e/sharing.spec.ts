import type { Page } from '@playwright/test';
import { putSetting } from '../../src/server/settings/service.ts';
import { findUserByEmail } from '../../src/server/users/queries.ts';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';
import { e2eContext, seedFiles } from './seed.ts';

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });

async function apiFolder(page: Page, name: string): Promise<string> {
  const res = await page.request.post('/api/create-folder', { data: { name, parent_id: null }, headers: headers() });
  expect(res.status()).toBe(201);
  return (await res.json()).data.id;
}

const item = (page: Page, name: string) => page.getByRole('option', { name, exact: true });

async function openMenu(page: Page, name: string, action: string): Promise<void> {
  await item(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

test('an owner shares a folder with a password and expiry; a visitor browses, downloads, edits, and loses it on revoke', async ({ page, browser }) => {
  // A long story in two browsers with several accessibility scans: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await signUpAndOpen(page);
  const folder = await apiFolder(page, 'Holiday');
  const ctx = await e2eContext();
  await seedFiles(ctx, email, folder, 3, 'photo');
  await ctx.db.destroy();
  await page.reload();

  // The owner makes a visitor link with a password and a one-day expiry.
  await openMenu(page, 'Holiday', 'Share');
  const dialog = page.getByRole('dialog', { name: 'Share Holiday' });
  await dialog.getByLabel('Expires after').selectOption('24');
  await dialog.getByLabel('Password (optional)').fill('letmein please');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const linkField = dialog.getByLabel('Link', { exact: true });
  await expect(linkField).toHaveValue(/\/share\/[a-z2-7]{39}\/files$/);
  await expect(dialog.getByTestId('share-qr').locator('svg')).toBeVisible();
  await expect(dialog.getByText('Protected by a password')).toBeVisible();
  await shot(page, 'share-dialog-light-desktop');
  await expectNoSeriousA11yViolations(page, 'share-dialog-light-desktop');
  const link = await linkField.inputValue();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shared-icon')).toHaveCount(1);

  // A second browser opens the link: first the password gate.
  const visitorContext = await browser.newContext({ acceptDownloads: true });
  const guest = await visitorContext.newPage();
  await guest.setViewportSize({ width: 1280, height: 800 });
  await guest.goto(link);
  await expect(guest.getByRole('heading', { name: 'This link is protected' })).toBeVisible();
  await expect(guest).toHaveTitle(/^This link is protected/);
  await shot(guest, 'share-gate-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-gate-light-desktop');
  await guest.getByLabel('Password').fill('wrong guess');
  await guest.getByRole('button', { name: 'Open' }).click();
  await expect(guest.getByRole('alert')).toContainText('not correct');
  await guest.getByLabel('Password').fill('letmein please');
  await guest.getByRole('button', { name: 'Open' }).click();
  await expect(guest.getByRole('heading', { name: 'Holiday' })).toBeVisible();
  await expect(guest.getByTestId('shared-item')).toHaveCount(3);
  await expect(guest.getByRole('button', { name: 'Upload' })).toHaveCount(0);
  await shot(guest, 'share-browser-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-browser-light-desktop');

  // It downloads everything as a zip.
  const [zip] = await Promise.all([guest.waitForEvent('download'), guest.getByRole('link', { name: 'Download all' }).click()]);
  expect(zip.suggestedFilename()).toBe('Holiday.zip');

  // The owner makes the link an editor's; the visitor uploads and renames.
  await openMenu(page, 'Holiday', 'Share');
  await dialog.getByLabel('Permission').selectOption('editor');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Link saved').last()).toBeVisible();
  await page.keyboard.press('Escape');

  await guest.reload();
  // The upload goes over tus with the link's token in a header, like the file area's large files:
  // its first PATCH is cut off, and it resumes from where the server stands (a HEAD, then PATCH).
  const token = /\/share\/([a-z2-7]{39})\//.exec(link)![1]!;
  const plainUploads: string[] = [];
  guest.on('request', (r) => {
    if (r.url().includes('/api/editor/upload/')) plainUploads.push(r.url());
  });
  let cut = false;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await guest.route('**/api/upload/tus/*', async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    if (!cut) {
      cut = true;
      return route.abort('connectionreset');
    }
    await held;
    await route.continue();
  });
  const creation = guest.waitForRequest((r) => r.url().endsWith('/api/upload/tus') && r.method() === 'POST');
  const resumed = guest.waitForRequest((r) => r.url().includes('/api/upload/tus/') && r.method() === 'HEAD');
  await guest.locator('input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('from the visitor') });
  expect(await (await creation).headerValue('x-share-token')).toBe(token);
  expect(await (await resumed).headerValue('x-share-token')).toBe(token);
  const progress = guest.getByTestId('scoped-upload-progress');
  await expect(progress).toContainText('notes.txt');
  await expect(progress.getByRole('progressbar')).toBeVisible();
  await shot(guest, 'share-editor-uploading-light-desktop');
  release();
  await expect(guest.getByTestId('shared-item').filter({ hasText: 'notes.txt' })).toBeVisible();
  await expect(progress).toHaveCount(0);
  await guest.unroute('**/api/upload/tus/*');
  expect(plainUploads).toEqual([]);
  await guest.getByRole('button', { name: 'Rename notes.txt' }).click();
  await guest.getByLabel('New name').fill('trip notes.txt');
  await guest.getByRole('button', { name: 'Save' }).click();
  await expect(guest.getByTestId('shared-item').filter({ hasText: 'trip notes.txt' })).toBeVisible();
  await shot(guest, 'share-editor-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-editor-light-desktop');

  // Dark and phone views of the public browser.
  await guest.emulateMedia({ colorScheme: 'dark' });
  await guest.reload();
  await expect(guest.getByTestId('shared-item')).toHaveCount(4);
  await shot(guest, 'share-editor-dark-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-editor-dark-desktop');
  await guest.setViewportSize({ width: 390, height: 844 });
  await shot(guest, 'share-editor-dark-phone');
  await expectNoSeriousA11yViolations(guest, 'share-editor-dark-phone');
  await guest.emulateMedia({ colorScheme: 'light' });
  await guest.reload();
  await expect(guest.getByTestId('shared-item')).toHaveCount(4);
  await shot(guest, 'share-editor-light-phone');
  await expectNoSeriousA11yViolations(guest, 'share-editor-light-phone');
  await guest.setViewportSize({ width: 1280, height: 800 });

  // The owner sees the upload, and the link in My shared items.
  await item(page, 'Holiday').dblclick();
  await expect(item(page, 'trip notes.txt')).toBeVisible();
  // A signed-in person opening an editor link works through it too (their session needs the CSRF header).
  await page.goto(link);
  await page.getByLabel('Password').fill('letmein please');
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('From the owner');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('shared-item').filter({ hasText: 'From the owner' })).toBeVisible();

  await page.goto('/platform/my-shared-items');
  await expect(page.getByRole('heading', { name: 'My shared items' })).toBeVisible();
  await expect(page.getByText('Can edit and upload · Protected by a password')).toBeVisible();
  // It is a place of the file area: the same navigation, and the app's one date format (no seconds).
  const nav = page.getByRole('navigation', { name: 'Folders' });
  await expect(nav.getByRole('link', { name: 'My shared items' })).toHaveClass(/bg-brand-soft/);
  await expect(nav.getByRole('link', { name: 'Holiday' })).toBeVisible();
  await expect(page.getByText(/expires [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M$/)).toBeVisible();
  await shot(page, 'my-shared-items-light-desktop');
  await expectNoSeriousA11yViolations(page, 'my-shared-items-light-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('navigation', { name: 'Places' }).getByRole('link', { name: 'My shared items' })).toHaveAttribute('aria-current', 'page');
  await shot(page, 'my-shared-items-light-phone');
  await expectNoSeriousA11yViolations(page, 'my-shared-items-light-phone');
  await page.setViewportSize({ width: 1440, height: 900 });

  // The owner revokes; the visitor's next click lands on the 404 page.
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('dialog', { name: 'Share Holiday' }).getByRole('button', { name: 'Stop sharing' }).click();
  await expect(page.getByText('Nothing shared yet')).toBeVisible();
  await guest.getByRole('button', { name: 'Rename trip notes.txt' }).click();
  await guest.getByLabel('New name').fill('again.txt');
  await guest.getByRole('button', { name: 'Save' }).click();
  await expect(guest.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await visitorContext.close();
});

test('an owner asks for files; the recipient uploads, tidies and hands them over; the owner is told', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await signUpAndOpen(page, '/platform/files', 'Ada Lovelace');
  await apiFolder(page, 'Inbox');
  await page.reload();

  await openMenu(page, 'Inbox', 'Request files');
  const dialog = page.getByRole('dialog', { name: 'Request files' });
  await dialog.getByLabel('Message (optional)').fill('Please send the signed contract.');
  await dialog.getByRole('button', { name: 'Create request' }).click();
  const ready = page.getByRole('dialog', { name: 'Upload request ready' });
  const link = await ready.getByLabel('Link', { exact: true }).inputValue();
  expect(link).toMatch(/\/request\/[a-z2-7]{39}\/upload$/);
  await shot(page, 'request-dialog-light-desktop');
  await expectNoSeriousA11yViolations(page, 'request-dialog-light-desktop');
  await ready.getByRole('button', { name: 'Done' }).click();

  const other = await browser.newContext();
  const guest = await other.newPage();
  await guest.setViewportSize({ width: 1280, height: 800 });
  await guest.goto(link);
  await expect(guest.getByRole('heading', { name: 'Ada Lovelace asks you to upload files' })).toBeVisible();
  await expect(guest.getByText('Please send the signed contract.')).toBeVisible();
  // Both files go over tus with the request's token in a header.
  const requestToken = /\/request\/([a-z2-7]{39})\//.exec(link)![1]!;
  const tusCreations: (string | null)[] = [];
  guest.on('request', (r) => {
    if (r.url().endsWith('/api/upload/tus') && r.method() === 'POST') tusCreations.push(r.headers()['x-upload-request-token'] ?? null);
  });
  const firstCreation = guest.waitForRequest((r) => r.url().endsWith('/api/upload/tus') && r.method() === 'POST');
  await guest.locator('input[type=file]').setInputFiles([
    { name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 signed') },
    { name: 'draft.txt', mimeType: 'text/plain', buffer: Buffer.from('old draft') },
  ]);
  await firstCreation;
  await expect(guest.getByTestId('shared-item')).toHaveCount(2);
  expect(tusCreations).toEqual([requestToken, requestToken]);
  // A refusal shows the server's message as before, and the progress goes.
  const settings = await e2eContext();
  await putSetting(settings, 'mimetypes_blacklist', ['exe']);
  try {
    await guest.locator('input[type=file]').setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ tool') });
    await expect(guest.getByRole('alert')).toContainText('Files of type "exe" are not allowed.');
  } finally {
    await putSetting(settings, 'mimetypes_blacklist', []);
    await settings.db.destroy();
  }
  await expect(guest.getByTestId('scoped-upload-progress')).toHaveCount(0);
  await shot(guest, 'request-page-refused-light-desktop');
  await expect(guest.getByTestId('shared-item')).toHaveCount(2);
  await guest.getByRole('button', { name: 'Remove draft.txt' }).click();
  await expect(guest.getByTestId('shared-item')).toHaveCount(1);
  await guest.getByRole('button', { name: 'Rename contract.pdf' }).click();
  await guest.getByLabel('New name').fill('contract-signed.pdf');
  await guest.getByRole('button', { name: 'Save' }).click();
  await expect(guest.getByTestId('shared-item').filter({ hasText: 'contract-signed.pdf' })).toBeVisible();
  await shot(guest, 'request-page-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'request-page-light-desktop');
  await guest.setViewportSize({ width: 390, height: 844 });
  await guest.emulateMedia({ colorScheme: 'dark' });
  await guest.reload();
  await expect(guest.getByTestId('shared-item')).toHaveCount(1);
  await shot(guest, 'request-page-dark-phone');
  await expectNoSeriousA11yViolations(guest, 'request-page-dark-phone');
  await guest.setViewportSize({ width: 1280, height: 800 });
  await guest.emulateMedia({ colorScheme: 'light' });

  // Upload leads; "I'm done" follows, quieter, and asks before it closes the request.
  const actions = guest.locator('main header').last().locator('label, button');
  await expect(actions.first()).toContainText('Upload');
  await expect(actions.first()).toHaveClass(/btn-primary/);
  await expect(guest.getByRole('button', { name: "I'm done" })).toHaveClass(/btn-secondary/);
  await guest.getByRole('button', { name: "I'm done" }).click();
  const confirm = guest.getByRole('alertdialog', { name: 'Hand the files over?' });
  await expect(confirm).toBeVisible();
  await shot(guest, 'request-confirm-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'request-confirm-light-desktop');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(guest.getByTestId('shared-item')).toHaveCount(1);
  await guest.getByRole('button', { name: "I'm done" }).click();
  await guest.getByRole('alertdialog').getByRole('button', { name: 'Hand over' }).click();
  await expect(guest.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await guest.reload();
  await expect(guest.getByTestId('request-closed')).toBeVisible();
  await shot(guest, 'request-filled-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'request-filled-light-desktop');
  await other.close();

  await item(page, 'Inbox').dblclick();
  await expect(item(page, 'contract-signed.pdf')).toBeVisible();
  const ctx = await e2eContext();
  const owner = await findUserByEmail(ctx, email);
  const notes = await ctx.db.selectFrom('notifications').select(['category', 'count']).where('user_id', '=', owner!.id).execute();
  await ctx.db.destroy();
  // The two files of one upload session gather into one notice (notifications/service.ts addGroupedNotification).
  expect(notes.filter((n) => n.category === 'file-request').map((n) => Number(n.count))).toEqual([2]);
});

test('a link made with the dialog’s defaults never expires, and clearing an expiry makes it never expire again', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  await apiFolder(page, 'Forever');
  await page.reload();

  await openMenu(page, 'Forever', 'Share');
  const dialog = page.getByRole('dialog', { name: 'Share Forever' });
  await expect(dialog.getByLabel('Expires after')).toHaveValue('');
  // The longest permission fits its field (text, padding and the arrow), at desktop and phone width.
  const fits = () =>
    dialog.getByLabel('Permission').evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const widest = Math.max(...[...select.options].map((o) => context.measureText(o.text).width));
      const arrow = 24; // the native select arrow, drawn beside the text
      return widest + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + arrow <= select.clientWidth;
    });
  expect(await fits()).toBe(true);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await fits()).toBe(true);
  await shot(page, 'share-dialog-light-phone');
  await expectNoSeriousA11yViolations(page, 'share-dialog-light-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(dialog.getByLabel('Link', { exact: true })).toHaveValue(/\/share\/[a-z2-7]{39}\/files$/);
  await expect(dialog.getByRole('alert')).toHaveCount(0);

  await dialog.getByLabel('Expires after').selectOption('24');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/· expires /)).toBeVisible();
  await dialog.getByLabel('Expires after').selectOption('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/· expires /)).toHaveCount(0);
});

test('the instance logo shows in the app sidebar, on the share password gate and on the request page', async ({ page, browser }) => {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(`${process.env.E2E_DATA_DIR}/database.sqlite`);
  const setLogo = (value: string) => db.prepare("insert into settings (key, value) values ('logo_horizontal', ?) on conflict(key) do update set value = excluded.value").run(JSON.stringify(value));
  setLogo('/favicon.svg');
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signUpAndOpen(page);
    await expect(page.locator('aside').getByTestId('logo-image').locator('img')).toHaveAttribute('src', '/favicon.svg');
    const folder = await apiFolder(page, 'Branded');
    const link = await page.request.post(`/api/share/${folder}`, { data: { type: 'folder', password: 'brand new secret' }, headers: headers() });
    expect(link.status()).toBe(201);
    const request = await page.request.post('/api/upload-request', { data: { folder_id: folder }, headers: headers() });
    expect(request.status()).toBe(201);

    const visitor = await browser.newContext();
    const guest = await visitor.newPage();
    await guest.goto((await link.json()).data.attributes.link);
    await expect(guest.getByLabel('Password')).toBeVisible();
    await expect(guest.getByTestId('logo-image').locator('img')).toHaveAttribute('src', '/favicon.svg');
    await shot(guest, 'share-gate-logo-light-desktop');
    await expectNoSeriousA11yViolations(guest, 'share-gate-logo-light-desktop');
    await guest.goto((await request.json()).data.attributes.link);
    await expect(guest.getByRole('button', { name: "I'm done" })).toBeVisible();
    await expect(guest.getByTestId('logo-image').locator('img')).toHaveAttribute('src', '/favicon.svg');
    await visitor.close();
  } finally {
    setLogo('');
    db.close();
  }
});
