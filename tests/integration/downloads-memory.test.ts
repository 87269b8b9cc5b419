import { createHash } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createFileItem, newBlobKey } from '../../src/server/files/service.ts';
import { registerUser } from '../support/client.ts';
import { cookieHeader, patternBytes, procStatus, serverPid } from '../support/downloads.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();
const SIZE = 200 * 1024 * 1024;
const MiB = 1024 * 1024;

async function sha256Of(source: AsyncIterable<Buffer>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of source) hash.update(chunk);
  return hash.digest('hex');
}

describe('a slow reader of a large file', () => {
  it('does not grow the server’s memory while it stalls or trickles, and still gets every byte', async () => {
    const owner = await registerUser(env.server.url);
    const blobKey = newBlobKey(owner.user.id);
    await env.seed.blobs.put(blobKey, Readable.from(patternBytes(SIZE, 7)));
    const item = await createFileItem(env.seed, { ownerId: owner.user.id, parentId: null, name: 'big.bin', mimetype: 'application/octet-stream', size: SIZE, blobKey });
    const expected = await sha256Of(patternBytes(SIZE, 7));

    const pid = serverPid(env.server);
    const before = await procStatus(pid, 'VmRSS');
    const { port } = new URL(env.server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    // A tiny receive window: the kernel holds little, so what the server does with the rest shows.
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(`GET /file/${item.id} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookieHeader(owner.client)}\r\nX-Forwarded-For: ${owner.client.ip}\r\nConnection: close\r\n\r\n`);

    const hash = createHash('sha256');
    let head = Buffer.alloc(0);
    let headerDone = false;
    let received = 0;
    const take = (chunk: Buffer) => {
      if (!headerDone) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        headerDone = true;
        expect(head.subarray(0, end).toString()).toMatch(/^HTTP\/1\.1 200/);
        chunk = head.subarray(end + 4);
      }
      received += chunk.length;
      hash.update(chunk);
    };
    socket.on('data', take);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

    // Read a little, then stall for three seconds: a server without backpressure would read the
    // whole 200 MiB from disk into memory meanwhile (it takes well under a second).
    while (received < MiB) await sleep(5);
    socket.pause();
    const started = await procStatus(pid, 'VmRSS');
    const stalled: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      await sleep(500);
      stalled.push(await procStatus(pid, 'VmRSS'));
    }
    const stalledAt = received;
    // Then trickle: a short read burst every 250 ms for two seconds.
    const trickled: number[] = [];
    const trickleUntil = Date.now() + 2000;
    while (Date.now() < trickleUntil) {
      socket.resume();
      await sleep(1);
      socket.pause();
      await sleep(250);
      trickled.push(await procStatus(pid, 'VmRSS'));
    }
    expect(received).toBeLessThan(SIZE / 2);
    expect(received).toBeGreaterThan(stalledAt);

    // While stalled, the server holds what is in flight, not the file. While trickling, what it read
    // for the client is garbage until the next GC: bounded by far less than the file.
    const mib = (n: number) => (n / MiB).toFixed(0);
    const report = `RSS ${mib(before)} MiB before, ${mib(started)} MiB once streaming, stalled ${stalled.map(mib).join(' ')}, trickling ${trickled.map(mib).join(' ')}`;
    expect(Math.max(...stalled) - started, report).toBeLessThan(24 * MiB);
    expect(Math.max(...trickled) - before, report).toBeLessThan(SIZE / 2);

    socket.resume();
    await closed;
    expect(received).toBe(SIZE);
    expect(hash.digest('hex')).toBe(expected);
  });
});
