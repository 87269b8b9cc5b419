import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestBodyStream, webRequestOf } from '../../src/server/http/web-body.ts';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function bytesOf(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) out[i] = (i * 7 + (i >> 10)) & 0xff;
  return out;
}

/** A server whose handler gets each request and its body stream. */
describe('a request body as a web stream (http/web-body.ts)', () => {
  let server: http.Server;
  let url: string;
  let arrived: Promise<{ req: http.IncomingMessage; res: http.ServerResponse; body: ReadableStream<Uint8Array> }>;

  beforeEach(async () => {
    let take!: (value: Awaited<typeof arrived>) => void;
    arrived = new Promise((resolve) => (take = resolve));
    server = http.createServer((req, res) => take({ req, res, body: requestBodyStream(req) }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends `body` in pieces; answers the client request (to abort it) and the response's arrival. */
  function send(body: Buffer, options: { stopAfter?: number } = {}) {
    const client = http.request(url, { method: 'PATCH', headers: { 'Content-Length': body.length } });
    const answered = new Promise<number>((resolve, reject) => {
      client.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      client.on('error', reject);
    });
    const end = options.stopAfter ?? body.length;
    for (let at = 0; at < end; at += 64 * 1024) client.write(body.subarray(at, Math.min(end, at + 64 * 1024)));
    if (options.stopAfter === undefined) client.end();
    return { client, answered };
  }

  async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return chunks;
  }

  it('passes every byte on, as the Buffers the request emitted (no copy per chunk)', async () => {
    const bytes = bytesOf(3 * 1024 * 1024 + 17);
    const { answered } = send(bytes);
    const { res, body } = await arrived;
    const chunks = await readAll(body);
    res.end();
    await answered;
    expect(chunks.length).toBeGreaterThan(1);
    // Node's Readable.toWeb hands out plain Uint8Array copies; these are the request's own Buffers.
    for (const chunk of chunks) expect(Buffer.isBuffer(chunk)).toBe(true);
    expect(sha(Buffer.concat(chunks))).toBe(sha(bytes));
  });

  it('pauses the request while nobody reads, and resumes it when the reader pulls', async () => {
    const bytes = bytesOf(8 * 1024 * 1024);
    const { answered } = send(bytes);
    const { req, res, body } = await arrived;
    // Nothing reads: once the stream's queue is full the request stays paused, holding little.
    await until(() => req.isPaused() && req.socket.bytesRead > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(req.isPaused()).toBe(true);
    expect(req.socket.bytesRead).toBeLessThan(bytes.length);
    const chunks = await readAll(body);
    res.end();
    await answered;
    expect(sha(Buffer.concat(chunks))).toBe(sha(bytes));
  });

  it('errors the stream when the body is cut off before its end', async () => {
    const bytes = bytesOf(1024 * 1024);
    const { client, answered } = send(bytes, { stopAfter: 256 * 1024 });
    answered.catch(() => undefined);
    const { body } = await arrived;
    const reading = readAll(body);
    client.destroy();
    await expect(reading).rejects.toThrow();
  });

  it('destroys the request when the stream is cancelled', async () => {
    const bytes = bytesOf(1024 * 1024);
    const { answered } = send(bytes, { stopAfter: 128 * 1024 });
    answered.catch(() => undefined);
    const { req, body } = await arrived;
    await body.cancel(new Error('enough'));
    await until(() => req.destroyed);
    expect(req.destroyed).toBe(true);
  });
});

describe('the web Request of a Node request (http/web-body.ts webRequestOf)', () => {
  it("answers srvx's Request with this module's body: the request's own Buffers, every byte", async () => {
    const bytes = bytesOf(2 * 1024 * 1024 + 5);
    const server = http.createServer(async (req, res) => {
      const request = webRequestOf(req, res);
      const body = request.body!;
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      // srvx's own getter gives Readable.toWeb's copies, plain Uint8Arrays: with it this fails.
      const ours = chunks.every((chunk) => Buffer.isBuffer(chunk));
      res.end(JSON.stringify({ method: request.method, length: request.headers.get('content-length'), ours, sha: sha(Buffer.concat(chunks)), same: request.body === body }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/files/x`, { method: 'PATCH', body: new Uint8Array(bytes) });
      expect(await answer.json()).toEqual({ method: 'PATCH', length: String(bytes.length), ours: true, sha: sha(bytes), same: true });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('leaves a request without a body as srvx makes it', async () => {
    const server = http.createServer((req, res) => {
      const request = webRequestOf(req, res);
      res.end(JSON.stringify({ method: request.method, body: request.body }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/files/x`, { method: 'HEAD' });
      expect(answer.status).toBe(200);
      const get = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/files/x`);
      expect(await get.json()).toEqual({ method: 'GET', body: null });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
