import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
let script: string;
beforeAll(async () => {
  server = await startServer();
  const { client } = await registerUser(server.url);
  const page = await client.request('/platform/files', { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });
  // A script large enough to have compressed copies (the build skips files under 1 KB).
  for (const [, url] of page.text.matchAll(/"(\/_astro\/[^"]+\.js)"/g)) {
    if ((await raw(url!, { 'Accept-Encoding': 'br' }, 'HEAD')).headers['content-encoding'] === 'br') {
      script = url!;
      break;
    }
  }
});
afterAll(async () => {
  await server?.stop();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with exactly these headers (fetch would add its own Accept-Encoding). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .request(server.url + path, { method, headers }, async (res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of res) chunks.push(chunk as Buffer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      })
      .on('error', reject)
      .end();
  });
}

describe('static assets', () => {
  it('sends brotli, else gzip, else the plain file, by Accept-Encoding and its q-values, with Vary', async () => {
    expect(script).toMatch(/^\/_astro\//);
    const plain = await raw(script);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);

    const br = await raw(script, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);

    const gz = await raw(script, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);

    // Refused by q=0, preferred by weight; an encoding we do not have falls back to the plain file.
    expect((await raw(script, { 'Accept-Encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await raw(script, { 'Accept-Encoding': 'br;q=0.5, gzip;q=0.9' })).headers['content-encoding']).toBe('gzip');
    expect((await raw(script, { 'Accept-Encoding': 'deflate' })).headers['content-encoding']).toBeUndefined();
    expect((await raw(script, { 'Accept-Encoding': '*' })).headers['content-encoding']).toBe('br');
    // Each representation has its own validator, so no cache hands gzip bytes to a brotli request.
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
  });

  it('sends every byte of a small asset (read whole, one write) and of a large one (streamed)', async () => {
    const dir = fileURLToPath(new URL('../../dist/client/_astro/', import.meta.url));
    const files = readdirSync(dir)
      .filter((name) => !/\.(br|gz)$/.test(name))
      .map((name) => ({ name, size: statSync(path.join(dir, name)).size }));
    const small = files.find((f) => f.size > 0 && f.size <= 64 * 1024);
    const large = files.find((f) => f.size > 64 * 1024);
    for (const file of [small, large]) {
      expect(file).toBeDefined();
      const res = await raw(`/_astro/${file!.name}`);
      expect(res.status).toBe(200);
      expect(Number(res.headers['content-length'])).toBe(file!.size);
      expect(res.body.equals(readFileSync(path.join(dir, file!.name)))).toBe(true);
    }
  });

  it('caches hashed /_astro/ names for a year as immutable, and answers HEAD with headers only', async () => {
    const res = await raw(script, { 'Accept-Encoding': 'br' });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const head = await raw(script, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(res.headers['content-length']);
  });

  it('revalidates unhashed files: ETag and Last-Modified, 304 on a match, 200 on a change', async () => {
    const first = await raw('/favicon.svg', { 'Accept-Encoding': 'br, gzip' });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(first.headers['content-type']).toBe('image/svg+xml');
    const etag = first.headers.etag!;
    const lastModified = first.headers['last-modified']!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(Date.parse(lastModified)).not.toBeNaN();

    const same = await raw('/favicon.svg', { 'Accept-Encoding': 'br, gzip', 'If-None-Match': etag });
    expect(same.status).toBe(304);
    expect(same.body.length).toBe(0);
    expect(same.headers.etag).toBe(etag);
    expect(same.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    // A list, a weak form of the same tag and * match too.
    expect((await raw('/favicon.svg', { 'Accept-Encoding': 'br, gzip', 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
    expect((await raw('/favicon.svg', { 'If-None-Match': '*' })).status).toBe(304);
    expect((await raw('/favicon.svg', { 'Accept-Encoding': 'br, gzip', 'If-None-Match': '"other"' })).status).toBe(200);

    expect((await raw('/favicon.svg', { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await raw('/favicon.svg', { 'If-Modified-Since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })).status).toBe(200);
    expect((await raw('/favicon.svg', { 'If-Modified-Since': 'not a date' })).status).toBe(200);
    // If-None-Match decides when both are sent.
    expect((await raw('/favicon.svg', { 'If-None-Match': '"other"', 'If-Modified-Since': lastModified })).status).toBe(200);

    // The icon is served with its type (nosniff leaves the browser no guess).
    const ico = await raw('/favicon.ico');
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
  });

  it('leaves what is not a built file to the app', async () => {
    expect((await raw('/_astro/nope.js')).status).toBe(404);
    expect((await raw('/_astro/%E0%A4%A.js')).status).toBe(404);
    const post = await raw('/favicon.svg', {}, 'POST');
    expect(post.headers['cache-control']).not.toBe('public, max-age=0, must-revalidate');
  });

  it('has the app page preload its island’s whole script graph and the opening screen’s, all served', async () => {
    const { client } = await registerUser(server.url);
    const page = async (path: string) => (await client.request(path, { method: 'GET', headers: { Accept: 'text/html' }, xrw: false })).text;
    const files = await page('/platform/files');
    const preloads = [...files.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!);
    const island = files.match(/<astro-island[^>]*>/)![0];
    const componentUrl = island.match(/component-url="([^"]+)"/)![1]!;
    const rendererUrl = island.match(/renderer-url="([^"]+)"/)![1]!;
    // In the head, before the boot data, so the browser asks for them first.
    expect(files.indexOf('rel="modulepreload"')).toBeLessThan(files.indexOf('id="app-config"'));
    expect(preloads).toEqual(expect.arrayContaining([componentUrl, rendererUrl]));
    expect(new Set(preloads).size).toBe(preloads.length);
    // Every static import of every preloaded chunk is preloaded too: nothing is left to discover.
    for (const url of preloads) {
      const res = await raw(url);
      expect(res.status, url).toBe(200);
      for (const [, imported] of res.body.toString().matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{}\s,]*?from\s*)?["'`]\.\/([^"'`]+\.js)["'`]/g)) {
        expect(preloads, `${url} imports ${imported}`).toContain(`/_astro/${imported}`);
      }
    }
    // Another screen preloads the shell and its own chunks, not the file area's (unless shared).
    const profile = [...(await page('/user/profile')).matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!);
    expect(profile).toEqual(expect.arrayContaining([componentUrl, rendererUrl]));
    expect(profile.length).toBeGreaterThan(0);
  });
});
