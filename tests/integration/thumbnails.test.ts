import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { findItem } from '../../src/server/files/queries.ts';
import { makeThumbnails, startThumbnailWorker } from '../../src/server/previews/thumbnails.ts';
import { findTool } from '../../src/server/previews/tools.ts';
import { registerUser } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';

// The server makes thumbnails when its own `file.created` fires (an upload); these files are seeded
// from the test process, so the same product code (makeThumbnails, the worker) runs here, on the
// server's database and blob store, and the server serves what it made.
const env = useSeededServer();

async function picture(format: 'png' | 'jpeg', width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 20 } } })[format]().toBuffer();
}

/** A tiny PNG whose header claims `width`×`height`: the classic decompression bomb's calling card. */
async function pixelFlood(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await picture('png', 1, 1));
  // IHDR: length(4) "IHDR"(4) width(4) height(4) … crc(4) right after the 8-byte signature.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

async function thumbnailAttr(client: Parameters<typeof download>[2], id: string) {
  const res = await client!.get('/api/browse/folders/all');
  return res.body.data.find((i: any) => i.id === id).attributes.thumbnail;
}

describe('thumbnails', () => {
  it('makes xs, sm and md WebP thumbnails of a PNG and a JPEG, served to the owner only', async () => {
    const owner = await registerUser(env.server.url);
    for (const [name, format, mimetype] of [['wide.png', 'png', 'image/png'], ['photo.jpg', 'jpeg', 'image/jpeg']] as const) {
      const file = await seedFile(env.seed, owner.user.id, { name, mimetype, content: await picture(format, 1200, 800) });
      expect(await thumbnailAttr(owner.client, file.id)).toBeNull();
      const result = await makeThumbnails(env.seed, file.id);
      expect(result.outcome, JSON.stringify(result)).toBe('made');
      const urls = await thumbnailAttr(owner.client, file.id);
      expect(urls).toEqual({ xs: `/thumbnail/${file.id}/xs`, sm: `/thumbnail/${file.id}/sm`, md: `/thumbnail/${file.id}/md` });
      for (const [size, side] of [['xs', 64], ['sm', 256], ['md', 640]] as const) {
        const res = await download(env.server.url, urls[size], owner.client);
        expect(res.status, `${name} ${size}`).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        const meta = await sharp(res.body).metadata();
        expect(meta.format).toBe('webp');
        expect(meta.width).toBe(side);
        expect(meta.height).toBe(Math.round((side * 800) / 1200));
        expect((await download(env.server.url, urls[size], owner.client, { 'If-None-Match': res.headers.get('etag')! })).status).toBe(304);
      }
      const other = await registerUser(env.server.url);
      expect((await download(env.server.url, urls.sm, other.client)).status).toBe(404);
      expect((await download(env.server.url, urls.sm, null)).status).toBe(401);
      // Made once: asking again changes nothing.
      expect((await makeThumbnails(env.seed, file.id)).outcome).toBe('made');
    }
  });

  it('never enlarges a small picture', async () => {
    const owner = await registerUser(env.server.url);
    const file = await seedFile(env.seed, owner.user.id, { name: 'icon.png', mimetype: 'image/png', content: await picture('png', 40, 20) });
    expect((await makeThumbnails(env.seed, file.id)).outcome).toBe('made');
    const res = await download(env.server.url, `/thumbnail/${file.id}/md`, owner.client);
    expect((await sharp(res.body).metadata()).width).toBe(40);
  });

  it('refuses a pixel flood (a small file claiming 100,000 × 100,000) without decoding it, and leaves no thumbnail', async () => {
    const owner = await registerUser(env.server.url);
    const bomb = await pixelFlood(100_000, 100_000);
    expect(bomb.length).toBeLessThan(200);
    const file = await seedFile(env.seed, owner.user.id, { name: 'bomb.png', mimetype: 'image/png', content: bomb });
    const started = Date.now();
    const result = await makeThumbnails(env.seed, file.id);
    expect(result.outcome, JSON.stringify(result)).toBe('refused');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await thumbnailAttr(owner.client, file.id)).toBeNull();
    expect((await download(env.server.url, `/thumbnail/${file.id}/sm`, owner.client)).status).toBe(404);
    // The file itself is untouched and still downloads.
    const res = await download(env.server.url, `/file/${file.id}`, owner.client);
    expect(res.status).toBe(200);
    expect(res.body.equals(bomb)).toBe(true);
  });

  it('answers what it did for files that get none: not a picture, SVG, a broken image', async () => {
    const owner = await registerUser(env.server.url);
    const text = await seedFile(env.seed, owner.user.id, { name: 'notes.txt', mimetype: 'text/plain' });
    expect((await makeThumbnails(env.seed, text.id)).outcome).toBe('unsupported');
    const svg = await seedFile(env.seed, owner.user.id, { name: 'logo.svg', mimetype: 'image/svg+xml', content: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>' });
    expect((await makeThumbnails(env.seed, svg.id)).outcome).toBe('skipped');
    const broken = await seedFile(env.seed, owner.user.id, { name: 'broken.jpg', mimetype: 'image/jpeg', content: 'not a jpeg at all' });
    expect(['failed', 'refused']).toContain((await makeThumbnails(env.seed, broken.id)).outcome);
    const lying = await seedFile(env.seed, owner.user.id, { name: 'really-svg.png', mimetype: 'image/png', content: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>' });
    expect((await makeThumbnails(env.seed, lying.id)).outcome).toBe('refused');
    for (const id of [text.id, svg.id, broken.id, lying.id]) expect(await thumbnailAttr(owner.client, id)).toBeNull();
  });

  it('works in the background on file.created: a refused picture does not stop the next one', async () => {
    const stop = startThumbnailWorker(env.seed);
    try {
      const owner = await registerUser(env.server.url);
      const bomb = await seedFile(env.seed, owner.user.id, { name: 'bomb.png', mimetype: 'image/png', content: await pixelFlood(60_000, 60_000) });
      const good = await seedFile(env.seed, owner.user.id, { name: 'good.png', mimetype: 'image/png', content: await picture('png', 300, 300) });
      const deadline = Date.now() + 15_000;
      while (!(await findItem(env.seed.db, good.id))?.thumbnail_key && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect((await findItem(env.seed.db, good.id))?.thumbnail_key).toBeTruthy();
      expect((await findItem(env.seed.db, bomb.id))?.thumbnail_key).toBeNull();
    } finally {
      await stop();
    }
  });

  it('deletes a file’s thumbnails with it', async () => {
    const owner = await registerUser(env.server.url);
    const file = await seedFile(env.seed, owner.user.id, { name: 'gone.png', mimetype: 'image/png', content: await picture('png', 100, 100) });
    const made = await makeThumbnails(env.seed, file.id);
    if (made.outcome !== 'made') throw new Error(JSON.stringify(made));
    expect(await env.seed.blobs.stat(`${made.prefix}-md.webp`)).not.toBeNull();
    expect((await owner.client.post('/api/remove', { items: [{ id: file.id, type: 'file', force_delete: true }] })).status).toBe(204);
    for (const size of ['xs', 'sm', 'md']) expect(await env.seed.blobs.stat(`${made.prefix}-${size}.webp`)).toBeNull();
  });

  it('makes a video poster and a PDF first page when ffmpeg and pdftoppm are installed, and skips cleanly when not', async () => {
    const owner = await registerUser(env.server.url);
    const work = mkdtempSync(path.join(os.tmpdir(), 'cd-thumb-test-'));
    try {
      const ffmpeg = findTool('ffmpeg');
      let video: Buffer = Buffer.from('not really a video');
      if (ffmpeg) {
        execFileSync(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '2', '-pix_fmt', 'yuv420p', path.join(work, 'clip.mp4')]);
        video = readFileSync(path.join(work, 'clip.mp4'));
      }
      const clip = await seedFile(env.seed, owner.user.id, { name: 'clip.mp4', mimetype: 'video/mp4', content: video });
      const poster = await makeThumbnails(env.seed, clip.id);
      expect(poster.outcome, JSON.stringify(poster)).toBe(ffmpeg ? 'made' : 'skipped');
      if (ffmpeg) expect((await sharp((await download(env.server.url, `/thumbnail/${clip.id}/sm`, owner.client)).body).metadata()).width).toBe(256);

      const pdf = await seedFile(env.seed, owner.user.id, { name: 'paper.pdf', mimetype: 'application/pdf', content: minimalPdf() });
      const page = await makeThumbnails(env.seed, pdf.id);
      expect(page.outcome, JSON.stringify(page)).toBe(findTool('pdftoppm') ? 'made' : 'skipped');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

/** A one-page PDF with a filled rectangle, its xref offsets computed. */
function minimalPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Contents 4 0 R >>',
  ];
  const stream = '0.2 0.4 0.8 rg 20 20 260 360 re f';
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
