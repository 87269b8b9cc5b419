import http from 'node:http';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { browse } from '../support/files.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { authHeaders, createToken, deterministicBytes, itemFromHeaders, sha256OfDeterministic, storedSha256, tusClientUpload, tusMetadata } from '../support/uploads.ts';

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createUpload(server: RunningServer, auth: Record<string, string>, size: number, name: string): Promise<string> {
  const res = await fetch(`${server.url}/api/upload/tus`, { method: 'POST', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata({ filename: name }) } });
  expect(res.status, await res.text()).toBe(201);
  return new URL(res.headers.get('location')!, server.url).href;
}

async function offsetOf(url: string, auth: Record<string, string>): Promise<{ status: number; offset: number }> {
  const res = await fetch(url, { method: 'HEAD', headers: { ...auth, 'Tus-Resumable': '1.0.0' } });
  return { status: res.status, offset: Number(res.headers.get('upload-offset') ?? -1) };
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('tus uploads over time', () => {
  it('sweeps an abandoned upload after the expiry: no item, no file left', async () => {
    const server = await startServer({ env: { UPLOAD_EXPIRY_SECONDS: '1', UPLOAD_SWEEP_SECONDS: '1' } });
    try {
      const { client } = await registerUser(server.url);
      const auth = authHeaders(client);
      const url = await createUpload(server, auth, 1000, 'abandoned.bin');
      const patched = await fetch(url, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(deterministicBytes(21, 0, 500)) });
      expect(patched.status).toBe(204);
      const tusDir = path.join(server.dataDir, 'uploads', 'tus');
      expect((await filesUnder(tusDir)).length).toBe(2);
      await until(async () => (await filesUnder(tusDir)).length === 0, 6000, 'the sweep');
      expect((await offsetOf(url, auth)).status).toBe(404);
      expect((await browse(client)).names).toEqual([]);
      expect(await filesUnder(path.join(server.dataDir, 'blobs'))).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('resumes after the server is killed mid-upload and restarted; the bytes are identical (SHA-256)', async () => {
    const first = await startServer();
    let second: RunningServer | null = null;
    try {
      const { client } = await registerUser(first.url);
      const token = await createToken(client);
      const auth = authHeaders(client, token);
      const size = 32 * MiB;
      const url = await createUpload(first, auth, size, 'survivor.bin');
      const id = url.split('/').pop()!;
      // One PATCH for the whole file, of which only the first half is ever sent.
      const req = http.request(url, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(size) } });
      req.on('error', () => {});
      req.write(deterministicBytes(31, 0, 16 * MiB));
      const dataFile = path.join(first.dataDir, 'uploads', 'tus', id);
      await until(async () => ((await stat(dataFile).catch(() => null))?.size ?? 0) >= 8 * MiB, 10_000, 'half the bytes on disk');
      await first.kill();
      req.destroy();

      second = await startServer({ reuse: first });
      const before = await offsetOf(url, auth);
      expect(before.status).toBe(200);
      expect(before.offset).toBeGreaterThanOrEqual(8 * MiB);
      expect(before.offset).toBeLessThan(size);
      const { done } = tusClientUpload(second.url, { size, seed: 31, uploadUrl: url, chunkSize: 8 * MiB, headers: auth, metadata: { filename: 'survivor.bin' } });
      const item = itemFromHeaders((await done).headers);
      const seed = await seedContext(second);
      try {
        expect(await storedSha256(seed, item.data.id)).toBe(sha256OfDeterministic(31, size));
      } finally {
        await seed.db.destroy();
      }
      expect((await browse(client)).names).toEqual(['survivor.bin']);
    } finally {
      if (second) await second.stop();
      else await first.stop();
    }
  });

  it('takes 200 MiB from tus-js-client cut off halfway, then resumed, byte for byte', async () => {
    const server = await startServer();
    try {
      const { client } = await registerUser(server.url);
      const token = await createToken(client);
      const auth = authHeaders(client, token);
      const size = 200 * MiB;
      const metadata = { filename: 'big.bin', filetype: 'application/octet-stream', parent_id: '', path: '' };
      let cut = false;
      const { done, upload } = tusClientUpload(server.url, {
        size, seed: 41, chunkSize: 64 * MiB, headers: auth, metadata,
        onProgress: (sent, up) => {
          if (!cut && sent >= size / 2) {
            cut = true;
            void up.abort();
          }
        },
      });
      const outcome = await Promise.race([done.then(() => 'finished'), sleep(60_000).then(() => 'timeout'), until(async () => cut, 60_000, 'the cut').then(() => 'cut')]);
      expect(outcome).toBe('cut');
      void done.catch(() => {});
      const url = upload.url!;
      await sleep(200);
      const half = await offsetOf(url, auth);
      expect(half.offset).toBeGreaterThan(0);
      expect(half.offset).toBeLessThan(size);
      const resumed = tusClientUpload(server.url, { size, seed: 41, uploadUrl: url, chunkSize: 64 * MiB, headers: auth, metadata });
      const item = itemFromHeaders((await resumed.done).headers);
      expect(item.data.attributes.size).toBe(size);
      const seed = await seedContext(server);
      try {
        expect(await storedSha256(seed, item.data.id)).toBe(sha256OfDeterministic(41, size));
      } finally {
        await seed.db.destroy();
      }
      // The finished upload's data file moved into the blob store: nothing is left behind.
      expect(await filesUnder(path.join(server.dataDir, 'uploads', 'tus'))).toEqual([path.join(server.dataDir, 'uploads', 'tus', `${url.split('/').pop()}.json`)]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
