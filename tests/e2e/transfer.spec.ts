import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const item = (page: import('@playwright/test').Page, name: string) => page.getByRole('option', { name, exact: true });

test('upload a file and a folder through the UI, preview an image, download a file and a zip, and get the same bytes back', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();

  const dir = mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-up-'));
  const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 79, g: 70, b: 229 } } }).png().toBuffer();
  writeFileSync(path.join(dir, 'sunset.png'), png);
  // Larger than one chunk (8 MiB by default), so it goes over tus in pieces.
  const big = randomBytes(20 * 1024 * 1024);
  writeFileSync(path.join(dir, 'backup.bin'), big);
  const album = path.join(dir, 'Album');
  mkdirSync(path.join(album, 'Day 2'), { recursive: true });
  writeFileSync(path.join(album, 'notes.txt'), 'first day\n');
  writeFileSync(path.join(album, 'Day 2', 'more.txt'), 'second day\n');

  await page.getByTestId('upload-files-input').setInputFiles([path.join(dir, 'sunset.png'), path.join(dir, 'backup.bin')]);
  const queue = page.getByTestId('upload-queue');
  await expect(queue).toBeVisible();
  await expect(item(page, 'sunset.png')).toBeVisible({ timeout: 30_000 });
  await expect(item(page, 'backup.bin')).toBeVisible({ timeout: 60_000 });

  await page.getByTestId('upload-folder-input').setInputFiles(album);
  await expect(item(page, 'Album')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('tree', { name: 'Folders' }).getByRole('link', { name: 'Album' })).toBeVisible();
  await shot(page, 'uploaded-light-desktop');
  await expectNoSeriousA11yViolations(page, 'uploaded-light-desktop');

  // Preview the image.
  await item(page, 'sunset.png').dblclick();
  const viewer = page.getByRole('dialog', { name: 'sunset.png' });
  const image = viewer.getByTestId('preview-image');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await shot(page, 'preview-image-desktop');
  await expectNoSeriousA11yViolations(page, 'preview-image-desktop');
  await page.keyboard.press('Escape');

  // Download one file: the same bytes.
  await item(page, 'backup.bin').click({ button: 'right' });
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download', exact: true }).click()]);
  expect(file.suggestedFilename()).toBe('backup.bin');
  expect(sha(readFileSync((await file.path())!))).toBe(sha(big));

  // Download the folder as a zip: folders as folders, the same bytes.
  await item(page, 'Album').click({ button: 'right' });
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download as zip' }).click()]);
  const out = path.join(dir, 'unzipped');
  execFileSync('unzip', ['-q', (await zip.path())!, '-d', out]);
  expect(readFileSync(path.join(out, 'Album', 'notes.txt'), 'utf8')).toBe('first day\n');
  expect(readFileSync(path.join(out, 'Album', 'Day 2', 'more.txt'), 'utf8')).toBe('second day\n');
});

test('the upload queue shows each file\'s progress while it is sent and marks the finished ones', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-up-'));
  writeFileSync(path.join(dir, 'small.txt'), 'small\n');
  // 20 MiB: three tus chunks of 8 MiB.
  writeFileSync(path.join(dir, 'large.bin'), randomBytes(20 * 1024 * 1024));
  // Hold the large file's second chunk until the queue has been read: by then the first 8 MiB are in.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let patches = 0;
  await page.route('**/api/upload/tus/**', async (route) => {
    if (route.request().method() === 'PATCH' && ++patches === 2) await held;
    await route.continue();
  });

  await page.getByTestId('upload-files-input').setInputFiles([path.join(dir, 'large.bin'), path.join(dir, 'small.txt')]);
  const queue = page.getByTestId('upload-queue');
  await queue.getByRole('button', { name: 'Show uploads' }).click();
  const rows = queue.getByTestId('upload-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('large.bin');
  // The first 8 MiB pass through the interception: slow on a busy machine.
  await expect.poll(() => patches, { timeout: 30_000 }).toBe(2);
  // The small file is done (and stays listed while the queue runs); the large one shows how far it got.
  await expect(rows.filter({ hasText: 'small.txt' })).toContainText('Uploaded');
  await expect(rows.filter({ hasText: 'large.bin' })).toContainText(/· [4-9]\d%$/);
  await expect(queue.getByTestId('upload-progress')).toHaveText(/^[4-9]\d%$/);
  await expect(queue.getByRole('status')).toContainText(/Uploading 1 file/);
  await shot(page, 'upload-queue-progress-light-desktop');
  await expectNoSeriousA11yViolations(page, 'upload-queue-progress-light-desktop');

  release();
  await expect(item(page, 'large.bin')).toBeVisible({ timeout: 60_000 });
  await expect(item(page, 'small.txt')).toBeVisible();
  // Once everything is in, the finished rows leave and the panel with them.
  await expect(queue).toHaveCount(0);
});

test('a refused upload stays listed with the reason and goes through on retry; a cancelled one is marked so', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await signUpAndOpen(page);
  const { default: Database } = await import('better-sqlite3');
  const setLimit = (bytes: number | null) => {
    const db = new Database(`${process.env.E2E_DATA_DIR}/database.sqlite`);
    db.prepare('update users set storage_limit_bytes = ? where email = ?').run(bytes, email);
    db.close();
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-up-'));
  writeFileSync(path.join(dir, 'small.txt'), 'small\n');
  const queue = page.getByTestId('upload-queue');

  // Over the storage limit: the server refuses (423); the row keeps the spec's message and a retry button.
  setLimit(1);
  await page.getByTestId('upload-files-input').setInputFiles(path.join(dir, 'small.txt'));
  const reason = 'You have reached your storage limit. Free some space or upgrade your plan.';
  await expect(page.getByRole('dialog', { name: 'The upload did not work' })).toContainText(reason);
  await page.getByRole('dialog').getByRole('button').click();
  const failed = queue.getByTestId('upload-row').filter({ hasText: 'small.txt' });
  await expect(failed).toContainText(reason);
  await expect(queue.getByRole('status')).toContainText('1 upload failed');
  setLimit(null);
  await failed.getByRole('button', { name: 'Retry small.txt' }).click();
  await expect(item(page, 'small.txt')).toBeVisible({ timeout: 30_000 });
  await expect(queue).toHaveCount(0);

  // Two files over tus, their chunks held: cancelling one marks it while the other carries on.
  for (const name of ['one.bin', 'two.bin']) writeFileSync(path.join(dir, name), randomBytes(9 * 1024 * 1024));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/upload/tus/**', async (route) => {
    if (route.request().method() === 'PATCH') await held;
    // The cancelled file's request is gone by then.
    await route.continue().catch(() => undefined);
  });
  await page.getByTestId('upload-files-input').setInputFiles([path.join(dir, 'one.bin'), path.join(dir, 'two.bin')]);
  await queue.getByRole('button', { name: 'Show uploads' }).click();
  await queue.getByRole('button', { name: 'Cancel one.bin' }).click();
  await expect(queue.getByTestId('upload-row').filter({ hasText: 'one.bin' })).toContainText('Cancelled');
  await expect(queue.getByRole('status')).toContainText(/Uploading 1 file/);
  release();
  await expect(item(page, 'two.bin')).toBeVisible({ timeout: 60_000 });
  await expect(queue).toHaveCount(0);
  await expect(item(page, 'one.bin')).toHaveCount(0);
});

test('an account that may not upload is told so before any byte is sent', async ({ page }) => {
  const email = await signUpAndOpen(page);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(`${process.env.E2E_DATA_DIR}/database.sqlite`);
  db.prepare('update users set restrictions = ? where email = ?').run(JSON.stringify({ canUpload: false }), email);
  db.close();
  await page.reload();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-up-'));
  writeFileSync(path.join(dir, 'ok.txt'), 'hello');
  const sent: string[] = [];
  page.on('request', (r) => r.url().includes('/api/upload') && sent.push(r.url()));
  await page.getByTestId('upload-files-input').setInputFiles(path.join(dir, 'ok.txt'));
  // With no subscriptions (the default) the spec's message is exceed_upload_limit.
  await expect(page.getByRole('dialog')).toContainText('You have used all your storage.');
  expect(sent).toEqual([]);
  await expect(page.getByTestId('upload-queue')).toHaveCount(0);
});

test('import from URL: the server fetches the address into the open folder', async ({ page }) => {
  const http = await import('node:http');
  const body = Buffer.from('imported over http\n');
  const origin = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length }).end(body));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const port = (origin.address() as import('node:net').AddressInfo).port;
  // Loopback is refused unless an admin allowlists it: allow this one test server.
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(`${process.env.E2E_DATA_DIR}/database.sqlite`);
  db.prepare("insert into settings (key, value) values ('remote_upload_allowlist', ?) on conflict(key) do update set value = excluded.value").run(JSON.stringify([`127.0.0.1:${port}`]));
  try {
    await signUpAndOpen(page);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Import from URL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import from URL' });
    await dialog.getByLabel('Addresses, one per line').fill(`http://127.0.0.1:${port}/notes.txt\nhttp://169.254.169.254/latest/meta-data`);
    await shot(page, 'import-url-light-desktop');
    await expectNoSeriousA11yViolations(page, 'import-url-light-desktop');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: '1 file imported' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('dialog')).toContainText('169.254.169.254');
    // One message per outcome: the failure popup replaces the "Importing…" toast.
    await expect(page.getByTestId('toast').filter({ hasText: 'Importing' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(item(page, 'notes.txt')).toBeVisible();
  } finally {
    db.prepare("delete from settings where key = 'remote_upload_allowlist'").run();
    db.close();
    origin.close();
  }
});
