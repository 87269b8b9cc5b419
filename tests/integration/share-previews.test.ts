import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeThumbnails } from '../../src/server/previews/thumbnails.ts';
import { Client, registerUser } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { mkdir } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';
import { share, visitor } from '../support/shares.ts';

// The public share browser shows thumbnails and opens files in the viewer only through the link's
// own token-scoped URLs (`/thumbnail/{id}/{size}/{token}`, `/file/{id}/{token}`): these are the
// guarantees it relies on, for open, protected and expired links and for items outside the share.
const env = useSeededServer();

const png = () => sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 30, g: 120, b: 200 } } }).png().toBuffer();

/** Owner: Home/{Photos/{beach.png, notes.txt}, Private/{hidden.png}}, both pictures with thumbnails; a link to Photos. */
async function sharedPhotos(body: Record<string, unknown> = {}) {
  const owner = await registerUser(env.server.url);
  const userId = owner.user.id as string;
  const photos = await mkdir(owner.client, 'Photos');
  const hiddenFolder = await mkdir(owner.client, 'Private');
  const beach = await seedFile(env.seed, userId, { name: 'beach.png', parentId: photos, mimetype: 'image/png', content: await png() });
  const notes = await seedFile(env.seed, userId, { name: 'notes.txt', parentId: photos, mimetype: 'text/plain', content: 'a line of notes\n'.repeat(100) });
  const hidden = await seedFile(env.seed, userId, { name: 'hidden.png', parentId: hiddenFolder, mimetype: 'image/png', content: await png() });
  for (const file of [beach, hidden]) expect((await makeThumbnails(env.seed, file.id)).outcome).toBe('made');
  const link = await share(owner.client, photos, body);
  return { owner, beach, notes, hidden, token: link.token as string, guest: visitor(env.server.url) };
}

const SIZES = ['xs', 'sm', 'md'] as const;

describe('share previews: thumbnails and inline files for the viewer', () => {
  it('lists token-scoped thumbnail and file URLs, served to a signed-out visitor', async () => {
    const { beach, notes, token, guest } = await sharedPhotos();
    const listing = await guest.get(`/api/browse/folders/all/${token}`);
    expect(listing.status, listing.text).toBe(200);
    const picture = listing.body.data.find((i: any) => i.id === beach.id);
    expect(picture.attributes.thumbnail).toEqual(Object.fromEntries(SIZES.map((s) => [s, `/thumbnail/${beach.id}/${s}/${token}`])));
    expect(picture.attributes.file_url).toBe(`/file/${beach.id}/${token}`);
    expect(listing.body.data.find((i: any) => i.id === notes.id).attributes.thumbnail).toBeNull();
    for (const size of SIZES) {
      const res = await download(env.server.url, picture.attributes.thumbnail[size], null);
      expect(res.status, size).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(res.body).metadata()).format).toBe('webp');
    }
    // The viewer shows the picture inline, and the first part of a text file by a Range request.
    const inline = await download(env.server.url, picture.attributes.file_url, null);
    expect(inline.status).toBe(200);
    expect(inline.headers.get('content-type')).toBe('image/png');
    expect(inline.headers.get('content-disposition')).toMatch(/^inline/);
    const text = await download(env.server.url, `/file/${notes.id}/${token}`, null, { Range: 'bytes=0-15' });
    expect(text.status).toBe(206);
    expect(text.body.toString()).toBe('a line of notes\n');
    // Its download button asks for an attachment.
    expect((await download(env.server.url, `/file/${beach.id}/${token}?download=1`, null)).headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('refuses a wrong token, another link’s token, an item outside the share and the owner’s own URL', async () => {
    const { owner, beach, hidden, token, guest } = await sharedPhotos();
    const other = await sharedPhotos();
    for (const wrong of ['b'.repeat(39), other.token]) {
      expect((await download(env.server.url, `/thumbnail/${beach.id}/sm/${wrong}`, null)).status, wrong).toBe(404);
      expect((await download(env.server.url, `/file/${beach.id}/${wrong}`, null)).status, wrong).toBe(404);
    }
    // The owner's other picture, outside the shared folder, is not reachable through the link.
    for (const size of SIZES) expect((await download(env.server.url, `/thumbnail/${hidden.id}/${size}/${token}`, guest)).status).toBe(404);
    expect((await download(env.server.url, `/file/${hidden.id}/${token}`, guest)).status).toBe(404);
    // The owner's own (untokened) URLs stay the owner's: a visitor holding only the link gets 401.
    expect((await download(env.server.url, `/thumbnail/${beach.id}/sm`, guest)).status).toBe(401);
    expect((await download(env.server.url, `/thumbnail/${beach.id}/sm`, owner.client)).status).toBe(200);
    // A size that does not exist is no token URL at all: refused as the owner's URL is, never a 500.
    expect((await download(env.server.url, `/thumbnail/${beach.id}/xl/${token}`, guest)).status).toBe(401);
  });

  it('keeps a protected link’s thumbnails and files locked until this browser gives the password', async () => {
    const { beach, token, guest } = await sharedPhotos({ password: 'sea and sand' });
    const thumbnail = `/thumbnail/${beach.id}/sm/${token}`;
    expect((await download(env.server.url, thumbnail, guest)).status).toBe(401);
    expect((await download(env.server.url, `/file/${beach.id}/${token}`, guest)).status).toBe(401);
    expect((await guest.post(`/api/browse/authenticate/${token}`, { password: 'sea and sand' })).status).toBe(200);
    expect((await download(env.server.url, thumbnail, guest)).status).toBe(200);
    expect((await download(env.server.url, `/file/${beach.id}/${token}`, guest)).status).toBe(200);
    // Another browser, without that session, is still refused.
    expect((await download(env.server.url, thumbnail, new Client(env.server.url))).status).toBe(401);
  });

  it('refuses an expired link’s thumbnails and files', async () => {
    const { beach, token, guest } = await sharedPhotos({ expiration: 1 });
    expect((await download(env.server.url, `/thumbnail/${beach.id}/sm/${token}`, guest)).status).toBe(200);
    await env.seed.db.updateTable('shares').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token', '=', token).execute();
    expect((await download(env.server.url, `/thumbnail/${beach.id}/sm/${token}`, guest)).status).toBe(404);
    expect((await download(env.server.url, `/file/${beach.id}/${token}`, guest)).status).toBe(404);
  });

  it('serves a single shared file’s thumbnails, and nothing of the folder around it', async () => {
    const { owner, beach, notes } = await sharedPhotos();
    const single = await share(owner.client, beach.id, { type: 'file' });
    const detail = await visitor(env.server.url).get(`/api/browse/share/${single.token}`);
    expect(detail.status, detail.text).toBe(200);
    const item = detail.body.data.relationships.item.data;
    expect(item.attributes.thumbnail.md).toBe(`/thumbnail/${beach.id}/md/${single.token}`);
    expect((await download(env.server.url, item.attributes.thumbnail.md, null)).status).toBe(200);
    expect((await download(env.server.url, `/file/${notes.id}/${single.token}`, null)).status).toBe(404);
  });
});
