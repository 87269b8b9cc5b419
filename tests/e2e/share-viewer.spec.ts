import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });

const picture = (format: 'png' | 'jpeg', r: number, g: number, b: number) => sharp({ create: { width: 1200, height: 800, channels: 3, background: { r, g, b } } })[format]().toBuffer();

/** A tenth of a second of silence as an 8 kHz WAV. */
function wav(): Buffer {
  const n = 800;
  const b = Buffer.alloc(44 + n, 128);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + n, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(n, 40);
  return b;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

async function upload(page: Page, name: string, data: Buffer, parentId: string): Promise<string> {
  const res = await page.request.post(`/api/upload?parent_id=${parentId}`, { data, headers: { ...headers(), 'Content-Type': 'application/octet-stream', 'X-File-Name': name } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data.id;
}

/**
 * An owner's folder Trip with a subfolder, two pictures (thumbnails made by the server after the
 * upload), a text, a song and a PDF, shared by a visitor link; answers the link and the ids.
 */
async function sharedTrip(page: Page) {
  await signUpAndOpen(page);
  const folder = await page.request.post('/api/create-folder', { data: { name: 'Trip', parent_id: null }, headers: headers() });
  const trip = (await folder.json()).data.id as string;
  await page.request.post('/api/create-folder', { data: { name: 'Day one', parent_id: trip }, headers: headers() });
  const ids = {
    beach: await upload(page, 'beach.jpg', await picture('jpeg', 40, 140, 200), trip),
    notes: await upload(page, 'notes.txt', Buffer.from('Bring sun cream.\nThe ferry leaves at nine.\n'), trip),
    song: await upload(page, 'song.wav', wav(), trip),
    sunset: await upload(page, 'sunset.png', await picture('png', 230, 110, 40), trip),
    tickets: await upload(page, 'tickets.pdf', PDF, trip),
  };
  // The pictures' thumbnails are made in the background after the upload.
  await expect
    .poll(async () => {
      const listing = await (await page.request.get(`/api/browse/folders/${trip}`, { headers: headers() })).json();
      return listing.data.filter((i: { attributes: { thumbnail: unknown } }) => i.attributes.thumbnail).length;
    })
    .toBe(2);
  const link = await page.request.post(`/api/share/${trip}`, { data: { type: 'folder', permission: 'visitor' }, headers: headers() });
  expect(link.status()).toBe(201);
  return { link: (await link.json()).data.attributes.link as string, ids };
}

async function visitorPage(browser: Browser, width = 1440, height = 900): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width, height } });
  return context.newPage();
}

const opener = (page: Page, name: string) => page.getByTestId('shared-items').getByRole('button', { name, exact: true });
const viewer = (page: Page) => page.getByRole('dialog');
/** Every picture on the page has loaded (a broken thumbnail has no natural width). */
const picturesLoaded = (page: Page) => page.getByTestId('shared-thumbnail').evaluateAll((imgs) => (imgs as HTMLImageElement[]).every((i) => i.complete && i.naturalWidth > 0));

test('a visitor sees thumbnails and opens pictures, text, audio and PDF in the viewer, with next, previous and download', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const { link, ids } = await sharedTrip(page);
  const guest = await visitorPage(browser);
  await guest.goto(link);
  await expect(guest.getByRole('heading', { name: 'Trip' })).toBeVisible();

  // Pictures are here: the folder opens as a grid of thumbnails, served under the link's token.
  const items = guest.getByTestId('shared-items');
  await expect(items).toHaveAttribute('data-view', 'grid');
  await expect(guest.getByTestId('shared-thumbnail')).toHaveCount(2);
  const token = /\/share\/([a-z2-7]{39})\//.exec(link)![1]!;
  await expect(guest.getByTestId('shared-thumbnail').first()).toHaveAttribute('src', `/thumbnail/${ids.beach}/sm/${token}`);
  await expect.poll(() => picturesLoaded(guest)).toBe(true);
  await shot(guest, 'share-grid-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-grid-light-desktop');

  // A click on a picture opens it in the viewer, not as a raw file.
  await opener(guest, 'beach.jpg').click();
  await expect(viewer(guest)).toBeVisible();
  await expect(viewer(guest).getByRole('heading', { name: 'beach.jpg' })).toBeVisible();
  expect(guest.url()).toBe(link);
  const image = viewer(guest).getByTestId('preview-image');
  await expect(image).toHaveAttribute('src', `/file/${ids.beach}/${token}`);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
  await expect(viewer(guest).getByText('1 of 5')).toBeVisible();
  await shot(guest, 'share-viewer-image-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-viewer-image-light-desktop');

  // Its download button downloads the file under its own name.
  const [file] = await Promise.all([guest.waitForEvent('download'), viewer(guest).getByRole('button', { name: 'Download' }).click()]);
  expect(file.suggestedFilename()).toBe('beach.jpg');

  // Next and previous go through the folder's files (folders are not among them), the arrows too.
  await viewer(guest).getByRole('button', { name: 'Next' }).click();
  await expect(viewer(guest).getByTestId('preview-text')).toContainText('The ferry leaves at nine.');
  await guest.keyboard.press('ArrowRight');
  await expect(viewer(guest).getByRole('heading', { name: 'song.wav' })).toBeVisible();
  await expect(viewer(guest).getByTestId('preview-audio')).toHaveAttribute('src', `/file/${ids.song}/${token}`);
  await guest.keyboard.press('ArrowRight');
  await expect(viewer(guest).getByRole('heading', { name: 'sunset.png' })).toBeVisible();
  await guest.keyboard.press('ArrowRight');
  await expect(viewer(guest).getByTestId('preview-pdf')).toHaveAttribute('src', `/file/${ids.tickets}/${token}`);
  await viewer(guest).getByRole('button', { name: 'Next' }).click();
  await expect(viewer(guest).getByRole('heading', { name: 'beach.jpg' })).toBeVisible();
  await viewer(guest).getByRole('button', { name: 'Previous' }).click();
  await expect(viewer(guest).getByRole('heading', { name: 'tickets.pdf' })).toBeVisible();
  await guest.keyboard.press('ArrowLeft');
  await expect(viewer(guest).getByRole('heading', { name: 'sunset.png' })).toBeVisible();

  // Closing gives focus back to the last file shown.
  await guest.keyboard.press('Escape');
  await expect(viewer(guest)).toBeHidden();
  await expect(opener(guest, 'sunset.png')).toBeFocused();

  // From the keyboard: Enter on the focused item opens it.
  await guest.keyboard.press('Shift+Tab');
  await expect(guest.getByRole('link', { name: 'Download song.wav' })).toBeFocused();
  await guest.keyboard.press('Shift+Tab');
  await expect(opener(guest, 'song.wav')).toBeFocused();
  await guest.keyboard.press('Enter');
  await expect(viewer(guest).getByRole('heading', { name: 'song.wav' })).toBeVisible();
  await guest.keyboard.press('Escape');
  await expect(opener(guest, 'song.wav')).toBeFocused();

  // A folder still opens in the browser.
  await opener(guest, 'Day one').click();
  await expect(guest.getByRole('heading', { name: 'Day one' })).toBeVisible();
  await expect(guest.getByText('This folder is empty.')).toBeVisible();
  await guest.goBack();
  await expect(opener(guest, 'beach.jpg')).toBeVisible();

  // The list keeps the small thumbnails, and the choice is remembered.
  await guest.getByRole('button', { name: 'Show as list' }).click();
  await expect(items).toHaveAttribute('data-view', 'list');
  await expect(items.locator(`img[src="/thumbnail/${ids.sunset}/xs/${token}"]`)).toBeVisible();
  await expect(guest.getByTestId('list-header')).toHaveText(/Name\s*Size\s*Created/i);
  await shot(guest, 'share-list-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-list-light-desktop');
  await opener(guest, 'notes.txt').click();
  await expect(viewer(guest).getByTestId('preview-text')).toContainText('Bring sun cream.');
  await guest.keyboard.press('Escape');
  await guest.reload();
  await expect(guest.getByTestId('shared-items')).toHaveAttribute('data-view', 'list');
  await guest.getByRole('button', { name: 'Show as grid' }).click();
  await expect(guest.getByTestId('shared-items')).toHaveAttribute('data-view', 'grid');
  await guest.context().close();
});

test('the share browser and its viewer in dark, and on a phone, where a tap opens a file', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const { link } = await sharedTrip(page);
  const guest = await visitorPage(browser);
  await guest.emulateMedia({ colorScheme: 'dark' });
  await guest.goto(link);
  await expect.poll(() => picturesLoaded(guest)).toBe(true);
  await shot(guest, 'share-grid-dark-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-grid-dark-desktop');
  await guest.getByRole('button', { name: 'Show as list' }).click();
  await expect(guest.getByTestId('list-header')).toBeVisible();
  await shot(guest, 'share-list-dark-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-list-dark-desktop');
  await guest.getByRole('button', { name: 'Show as grid' }).click();
  await opener(guest, 'sunset.png').click();
  await expect.poll(() => viewer(guest).getByTestId('preview-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
  await shot(guest, 'share-viewer-image-dark-desktop');
  await expectNoSeriousA11yViolations(guest, 'share-viewer-image-dark-desktop');
  await guest.keyboard.press('Escape');
  await guest.context().close();

  for (const scheme of ['light', 'dark'] as const) {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, colorScheme: scheme });
    const tab = await phone.newPage();
    await tab.goto(link);
    await expect.poll(() => picturesLoaded(tab)).toBe(true);
    await shot(tab, `share-grid-${scheme}-phone`);
    await expectNoSeriousA11yViolations(tab, `share-grid-${scheme}-phone`);
    // On a phone the list has no column header: each row's size and date are the line under its name.
    await tab.getByRole('button', { name: 'Show as list' }).tap();
    await expect(tab.getByTestId('shared-items')).toHaveAttribute('data-view', 'list');
    await expect(tab.getByTestId('list-header')).toBeHidden();
    await shot(tab, `share-list-${scheme}-phone`);
    await expectNoSeriousA11yViolations(tab, `share-list-${scheme}-phone`);
    await tab.getByRole('button', { name: 'Show as grid' }).tap();
    await opener(tab, 'beach.jpg').tap();
    await expect.poll(() => viewer(tab).getByTestId('preview-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    await expect(viewer(tab).getByRole('button', { name: 'Download' })).toBeVisible();
    await shot(tab, `share-viewer-image-${scheme}-phone`);
    await expectNoSeriousA11yViolations(tab, `share-viewer-image-${scheme}-phone`);
    await viewer(tab).getByRole('button', { name: 'Next' }).tap();
    await expect(viewer(tab).getByTestId('preview-text')).toBeVisible();
    await shot(tab, `share-viewer-text-${scheme}-phone`);
    await phone.close();
  }
});

test('a shared file opens in the viewer from its page, and its thumbnail shows', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const { ids } = await sharedTrip(page);
  const res = await page.request.post(`/api/share/${ids.sunset}`, { data: { type: 'file', permission: 'visitor' }, headers: headers() });
  expect(res.status()).toBe(201);
  const { link, token } = (await res.json()).data.attributes;
  for (const [label, width, height] of [['desktop', 1440, 900], ['phone', 390, 844]] as const) {
    const guest = await visitorPage(browser, width, height);
    await guest.goto(link);
    await expect(guest.getByRole('heading', { name: 'sunset.png' })).toBeVisible();
    await expect(guest.locator(`img[src="/thumbnail/${ids.sunset}/md/${token}"]`)).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await guest.emulateMedia({ colorScheme: scheme });
      await guest.reload();
      await expect(guest.locator(`img[src="/thumbnail/${ids.sunset}/md/${token}"]`)).toBeVisible();
      await shot(guest, `share-file-${scheme}-${label}`);
      await expectNoSeriousA11yViolations(guest, `share-file-${scheme}-${label}`);
    }
    await guest.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect.poll(() => viewer(guest).getByTestId('preview-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    // One file: nothing to go to.
    await expect(viewer(guest).getByRole('button', { name: 'Next' })).toHaveCount(0);
    await guest.keyboard.press('Escape');
    await expect(guest.getByRole('button', { name: 'Preview', exact: true })).toBeFocused();
    await guest.context().close();
  }
});
