import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, truncate } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalBlobStore, type BlobStore } from '../../src/server/blobs/store.ts';
import { openBlobBody, type BlobBody } from '../../src/server/downloads/blob-body.ts';
import type { AppContext } from '../../src/server/context.ts';

/** Deterministic bytes that differ chunk to chunk, so a reused buffer sent twice would show. */
function bytesOf(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) out[i] = (i * 31 + (i >> 12)) & 0xff;
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a blob body sent from the local disk', () => {
  let root: string;
  let store: BlobStore;
  let server: http.Server;
  let url: string;
  let errors: unknown[];
  let sends: Promise<void>[];
  /** What the next request answers with: a range of the blob, after `beforeSend` has run. */
  let plan: { key: string; range?: { start: number; end: number }; beforeSend?: (body: BlobBody) => Promise<void> };

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cd-blob-body-'));
    store = createLocalBlobStore(root);
    errors = [];
    sends = [];
    const ctx = { blobs: store, logger: { error: (...args: unknown[]) => errors.push(args), debug: () => {} } } as unknown as AppContext;
    server = http.createServer((_req, res) => {
      const sent = (async () => {
        const body = await openBlobBody(ctx, plan.key);
        if (!body) return void res.writeHead(404).end();
        try {
          const range = plan.range ?? { start: 0, end: body.stat.size - 1 };
          res.writeHead(200, { 'Content-Length': range.end - range.start + 1 });
          await plan.beforeSend?.(body);
          await body.send(res, range);
        } finally {
          await body.close();
        }
      })();
      sends.push(sent);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    server.close();
    await rm(root, { recursive: true, force: true });
  });

  it('sends a file of many chunks byte for byte, and a range of it, twice in a row on the same buffers', async () => {
    const bytes = bytesOf(1024 * 1024 + 12_345);
    await store.put('files/u1/big', Readable.from([bytes]));
    for (let round = 0; round < 2; round += 1) {
      plan = { key: 'files/u1/big' };
      const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
      expect(whole.length).toBe(bytes.length);
      expect(sha(whole)).toBe(sha(bytes));
      plan = { key: 'files/u1/big', range: { start: 300_000, end: 900_001 } };
      const part = Buffer.from(await (await fetch(url)).arrayBuffer());
      expect(sha(part)).toBe(sha(bytes.subarray(300_000, 900_002)));
    }
    await Promise.all(sends);
    expect(errors).toEqual([]);
  });

  it('sends a small file whole, and a small range of a large one', async () => {
    const bytes = bytesOf(300_000);
    await store.put('files/u1/f', Readable.from([bytes]));
    plan = { key: 'files/u1/f', range: { start: 1000, end: 5095 } };
    expect(sha(Buffer.from(await (await fetch(url)).arrayBuffer()))).toBe(sha(bytes.subarray(1000, 5096)));
    await store.put('files/u1/small', Readable.from([bytes.subarray(0, 4096)]));
    plan = { key: 'files/u1/small' };
    expect(sha(Buffer.from(await (await fetch(url)).arrayBuffer()))).toBe(sha(bytes.subarray(0, 4096)));
  });

  it('answers null for a missing blob', async () => {
    plan = { key: 'files/u1/none' };
    expect((await fetch(url)).status).toBe(404);
  });

  it('ends its send when the client goes away in the middle of the body', async () => {
    await store.put('files/u1/big', Readable.from([bytesOf(32 * 1024 * 1024)]));
    plan = { key: 'files/u1/big' };
    const req = http.get(url);
    const [res] = (await once(req, 'response')) as [http.IncomingMessage];
    await once(res, 'data');
    req.destroy();
    // The server's send resolves (it does not wait forever for a socket that is gone).
    await Promise.all(sends);
    expect(errors).toEqual([]);
  });

  it('ends the response early and logs it when the file is shorter than its stat', async () => {
    await store.put('files/u1/cut', Readable.from([bytesOf(600_000)]));
    plan = { key: 'files/u1/cut', beforeSend: () => truncate(store.localPath!('files/u1/cut'), 100_000) };
    await expect(fetch(url).then((r) => r.arrayBuffer())).rejects.toThrow();
    await store.put('files/u1/small', Readable.from([bytesOf(10_000)]));
    plan = { key: 'files/u1/small', beforeSend: () => truncate(store.localPath!('files/u1/small'), 10) };
    await expect(fetch(url).then((r) => r.arrayBuffer())).rejects.toThrow();
    await Promise.all(sends);
    expect(errors).toHaveLength(2);
  });
});
