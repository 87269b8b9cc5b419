import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { catchUpThumbnails, pendingThumbnails } from '../../src/server/previews/catch-up.ts';
import { thumbnailBlobKeys } from '../../src/server/previews/sizes.ts';
import { MAX_THUMBNAIL_ATTEMPTS, makeThumbnailsRecorded, startThumbnailWorker } from '../../src/server/previews/thumbnails.ts';
import { registerUser } from '../support/client.ts';
import { seedContext, seedFile, useSeededServer } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';

// Files seeded from the test process never reach a node's in-memory thumbnail queue: exactly the
// files a node that died before its queue drained leaves behind. The catch-up job finds them.
const env = useSeededServer();

const png = () => sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();

/** Seeded "three minutes ago", past the catch-up's grace for the receiving node's own queue. */
async function seedOld(userId: string, file: { name: string; mimetype: string; content: string | Buffer }) {
  const seeded = await seedFile(env.seed, userId, file);
  await env.seed.db.updateTable('items').set({ created_at: new Date(Date.now() - 3 * 60_000).toISOString() }).where('id', '=', seeded.id).execute();
  return seeded;
}

const row = (id: string) => env.seed.db.selectFrom('items').select(['thumbnail_key', 'thumbnail_attempts', 'thumbnail_attempted_at']).where('id', '=', id).executeTakeFirstOrThrow();

describe('thumbnail catch-up', () => {
  it('makes the thumbnails of a picture no queue made, and the blobs exist', async () => {
    const owner = await registerUser(env.server.url);
    const file = await seedOld(owner.user.id, { name: 'lost.png', mimetype: 'image/png', content: await png() });
    expect((await row(file.id)).thumbnail_key).toBeNull();
    await catchUpThumbnails(env.seed);
    const after = await row(file.id);
    expect(after.thumbnail_key).toBeTruthy();
    for (const key of thumbnailBlobKeys(after.thumbnail_key!)) expect(await env.seed.blobs.stat(key), key).not.toBeNull();
    expect(await pendingThumbnails(env.seed, null, 1000)).not.toContain(file.id);
  });

  it('leaves a file younger than two minutes to its own node, and never picks a non-picture or a trashed file', async () => {
    const owner = await registerUser(env.server.url);
    const young = await seedFile(env.seed, owner.user.id, { name: 'young.png', mimetype: 'image/png', content: await png() });
    const text = await seedOld(owner.user.id, { name: 'notes.txt', mimetype: 'text/plain', content: 'hello' });
    const trashed = await seedOld(owner.user.id, { name: 'gone.png', mimetype: 'image/png', content: await png() });
    await env.seed.db.updateTable('items').set({ deleted_at: new Date().toISOString(), deleted_with: trashed.id }).where('id', '=', trashed.id).execute();
    const pending = await pendingThumbnails(env.seed, null, 1000);
    for (const id of [young.id, text.id, trashed.id]) expect(pending).not.toContain(id);
    await catchUpThumbnails(env.seed);
    for (const id of [young.id, text.id, trashed.id]) expect(await row(id)).toMatchObject({ thumbnail_key: null, thumbnail_attempts: 0, thumbnail_attempted_at: null });
  });

  it('tries a broken picture a bounded number of times, and gives up on a refused one at once', async () => {
    const owner = await registerUser(env.server.url);
    const broken = await seedOld(owner.user.id, { name: 'broken.jpg', mimetype: 'image/jpeg', content: 'not a jpeg at all' });
    const lying = await seedOld(owner.user.id, { name: 'really-svg.png', mimetype: 'image/png', content: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>' });
    await catchUpThumbnails(env.seed);
    expect(await row(lying.id)).toMatchObject({ thumbnail_key: null, thumbnail_attempts: MAX_THUMBNAIL_ATTEMPTS });
    expect((await row(lying.id)).thumbnail_attempted_at).toBeTruthy();
    const first = await row(broken.id);
    expect(first.thumbnail_key).toBeNull();
    expect(first.thumbnail_attempted_at).toBeTruthy();
    // sharp fails on it (not a refusal): worth another try, counted.
    expect(Number(first.thumbnail_attempts)).toBe(1);
    // Runs until it is given up on: never more than MAX_THUMBNAIL_ATTEMPTS of them.
    let runs = 1;
    while ((await pendingThumbnails(env.seed, null, 1000)).includes(broken.id)) {
      expect(runs).toBeLessThan(MAX_THUMBNAIL_ATTEMPTS);
      await catchUpThumbnails(env.seed);
      runs++;
    }
    expect(Number((await row(broken.id)).thumbnail_attempts)).toBe(MAX_THUMBNAIL_ATTEMPTS);
    const again = await catchUpThumbnails(env.seed);
    expect(await pendingThumbnails(env.seed, null, 1000)).not.toContain(broken.id);
    expect(again.tried).toBe(0);
  });

  it('the in-memory worker records what it could not make the same way', async () => {
    const stop = startThumbnailWorker(env.seed);
    try {
      const owner = await registerUser(env.server.url);
      // A picture type thumbnails are not made from (the catch-up's prefilter would pick it): given up at once.
      const drawing = await seedFile(env.seed, owner.user.id, { name: 'logo.svg', mimetype: 'image/svg+xml', content: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
      const deadline = Date.now() + 15_000;
      while (Number((await row(drawing.id)).thumbnail_attempts) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(Number((await row(drawing.id)).thumbnail_attempts)).toBe(MAX_THUMBNAIL_ATTEMPTS);
    } finally {
      await stop();
    }
  });

  it('records nothing on a type the catch-up never picks (no write after every text upload)', async () => {
    const owner = await registerUser(env.server.url);
    const text = await seedFile(env.seed, owner.user.id, { name: 'readme.txt', mimetype: 'text/plain', content: 'hi' });
    expect((await makeThumbnailsRecorded(env.seed, text.id)).outcome).toBe('unsupported');
    expect(await row(text.id)).toMatchObject({ thumbnail_key: null, thumbnail_attempts: 0, thumbnail_attempted_at: null });
  });
});

describe('thumbnail catch-up on a running server', () => {
  const own = {} as { server: RunningServer; seed: AppContext };
  beforeAll(async () => {
    own.server = await startServer({ env: { THUMBNAIL_CATCHUP_SECONDS: '1' } });
    own.seed = await seedContext(own.server);
  });
  afterAll(async () => {
    await own.seed?.db.destroy();
    await own.server?.stop();
  });

  it('is scheduled by the server (THUMBNAIL_CATCHUP_SECONDS) and makes the missing thumbnail', async () => {
    const owner = await registerUser(own.server.url);
    const file = await seedFile(own.seed, owner.user.id, { name: 'later.png', mimetype: 'image/png', content: await png() });
    await own.seed.db.updateTable('items').set({ created_at: new Date(Date.now() - 3 * 60_000).toISOString() }).where('id', '=', file.id).execute();
    const key = () => own.seed.db.selectFrom('items').select('thumbnail_key').where('id', '=', file.id).executeTakeFirstOrThrow();
    const deadline = Date.now() + 20_000;
    while (!(await key()).thumbnail_key && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const made = (await key()).thumbnail_key;
    expect(made).toBeTruthy();
    for (const blob of thumbnailBlobKeys(made!)) expect(await own.seed.blobs.stat(blob), blob).not.toBeNull();
  });
});
