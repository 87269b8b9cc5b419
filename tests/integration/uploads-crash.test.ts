import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { browse } from '../support/files.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { authHeaders, createToken, deterministicBytes, sha256OfDeterministic, storedSha256, tusClientUpload, tusMetadata } from '../support/uploads.ts';

/**
 * Crashes driven into the exact windows of finishing an upload (CLOUD_DRIVE_FAULT kills the
 * server there), then a restart on the same data dir and database: the upload is finished exactly
 * once, or (a plain upload, whose request died) leaves nothing behind.
 */
const MiB = 1024 * 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Blobs of uploaded bytes (thumbnails, avatars and temporary files aside), in the server's store (disk or S3). */
const fileBlobs = (server: RunningServer) =>
  withSeed(server, async (seed) => {
    const keys: string[] = [];
    for await (const blob of seed.blobs.list('files/')) keys.push(blob.key);
    return keys;
  });

const intents = (server: RunningServer) => withSeed(server, (seed) => seed.db.selectFrom('pending_blobs').selectAll().execute());

async function createUpload(server: RunningServer, auth: Record<string, string>, size: number, name: string): Promise<string> {
  const res = await fetch(`${server.url}/api/upload/tus`, { method: 'POST', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata({ filename: name }) } });
  expect(res.status, await res.text()).toBe(201);
  return new URL(res.headers.get('location')!, server.url).href;
}

/** Sends the whole upload in one PATCH to a server that dies finishing it: the request fails. */
async function patchUntilDeath(server: RunningServer, url: string, auth: Record<string, string>, seed: number, size: number): Promise<void> {
  const sent = fetch(url, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(deterministicBytes(seed, 0, size)) });
  await expect(sent).rejects.toThrow();
  await server.kill(); // waits for the exit
  await faultLogged(server);
}

/** The server's last words: its output pipe may still be draining after the exit. */
async function faultLogged(server: RunningServer): Promise<void> {
  const end = Date.now() + 10_000;
  while (!server.logs.some((l) => l.includes('fault injection'))) {
    if (Date.now() > end) throw new Error(`the fault was not reached:\n${server.logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function head(url: string, auth: Record<string, string>) {
  const res = await fetch(url, { method: 'HEAD', headers: { ...auth, 'Tus-Resumable': '1.0.0' } });
  return { status: res.status, offset: res.headers.get('upload-offset'), itemId: res.headers.get('x-item-id') };
}

/** Uploads a tus file to a server that dies at `fault`; answers what the test needs to go on after a restart. */
async function crashTus(fault: string, size: number, seed: number) {
  const first = await startServer({ env: { CLOUD_DRIVE_FAULT: fault } });
  const { client } = await registerUser(first.url);
  const auth = authHeaders(client, await createToken(client));
  const url = await createUpload(first, auth, size, 'crash.bin');
  await patchUntilDeath(first, url, auth, seed, size);
  return { first, client, auth, url, id: url.split('/').pop()! };
}

/** After the restart: one item, its bytes the upload's, one blob, no intent, HEAD and a repeated PATCH answering the same item. */
async function expectFinishedOnce(server: RunningServer, client: Awaited<ReturnType<typeof registerUser>>['client'], auth: Record<string, string>, url: string, size: number, seed: number) {
  const listed = await browse(client);
  expect(listed.names).toEqual(['crash.bin']);
  const itemId = listed.body.data[0].id;
  expect(await withSeed(server, (s) => storedSha256(s, itemId))).toBe(sha256OfDeterministic(seed, size));
  const first = await head(url, auth);
  expect(first).toEqual({ status: 200, offset: String(size), itemId });
  const again = await fetch(url, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(size), 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(0) });
  expect(again.status).toBe(204);
  expect(again.headers.get('x-item-id')).toBe(itemId);
  expect((await browse(client)).names).toEqual(['crash.bin']);
  expect(await fileBlobs(server)).toHaveLength(1);
  expect(await intents(server)).toEqual([]);
  expect(await filesUnder(path.join(server.dataDir, 'uploads', 'tus'))).toEqual([`${url.split('/').pop()}.json`]);
}

describe('a crash while an upload finishes', () => {
  it('tus, killed after the bytes moved into the blob store and before the commit: finished at restart, once', async () => {
    const size = 3 * MiB + 17;
    const { first, client, auth, url } = await crashTus('tus-finish-after-blob-move', size, 41);
    let second: RunningServer | null = null;
    try {
      // The window was hit: the bytes are a blob, no item, the intent says what to make of them.
      expect(await fileBlobs(first)).toHaveLength(1);
      expect(await intents(first)).toHaveLength(1);
      expect(await withSeed(first, (s) => s.db.selectFrom('items').select('id').execute())).toEqual([]);

      second = await startServer({ reuse: first });
      await expectFinishedOnce(second, client, auth, url, size, 41);
    } finally {
      await (second ?? first).stop();
    }
  });

  it('tus, killed after the commit and before the upload was marked finished: HEAD answers the one item', async () => {
    const size = 2 * MiB;
    const { first, client, auth, url } = await crashTus('tus-finish-after-commit', size, 42);
    let second: RunningServer | null = null;
    try {
      expect(await intents(first)).toEqual([]);
      expect(await withSeed(first, (s) => s.db.selectFrom('items').select('id').execute())).toHaveLength(1);
      second = await startServer({ reuse: first });
      await expectFinishedOnce(second, client, auth, url, size, 42);
    } finally {
      await (second ?? first).stop();
    }
  });

  it('tus, killed after the last byte and before anything was recorded: a resuming client gets the item', async () => {
    const size = MiB + 5;
    const { first, client, auth, url } = await crashTus('tus-finish-before-intent', size, 43);
    let second: RunningServer | null = null;
    try {
      expect(await fileBlobs(first)).toEqual([]);
      expect((await stat(path.join(first.dataDir, 'uploads', 'tus', url.split('/').pop()!))).size).toBe(size);
      second = await startServer({ reuse: first });
      // tus-js-client resuming the upload: its HEAD finds every byte there, and the item.
      const resumed = await tusClientUpload(second.url, { size, seed: 43, uploadUrl: url, headers: auth, metadata: { filename: 'crash.bin' } }).done;
      expect(resumed.headers['x-item-id']).toBeTruthy();
      await expectFinishedOnce(second, client, auth, url, size, 43);
      expect((await browse(client)).body.data[0].id).toBe(resumed.headers['x-item-id']);
    } finally {
      await (second ?? first).stop();
    }
  });

  it('a plain upload, killed after its blob was written: after the restart no item, no blob, no intent', async () => {
    const first = await startServer({ env: { CLOUD_DRIVE_FAULT: 'upload-finish-after-blob-write' } });
    let second: RunningServer | null = null;
    try {
      const { client } = await registerUser(first.url);
      const token = await createToken(client);
      const sent = fetch(`${first.url}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream', 'X-File-Name': 'plain.bin' }, body: new Uint8Array(deterministicBytes(44, 0, 200_000)) });
      await expect(sent).rejects.toThrow();
      await first.kill();
      await faultLogged(first);
      expect(await fileBlobs(first)).toHaveLength(1);
      expect(await intents(first)).toHaveLength(1);

      second = await startServer({ reuse: first });
      expect(await fileBlobs(second)).toEqual([]);
      expect(await intents(second)).toEqual([]);
      expect((await browse(client)).names).toEqual([]);
      // And the same upload again works.
      const res = await fetch(`${second.url}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream', 'X-File-Name': 'plain.bin' }, body: new Uint8Array(deterministicBytes(44, 0, 200_000)) });
      expect(res.status).toBe(201);
      expect((await browse(client)).names).toEqual(['plain.bin']);
      expect(await fileBlobs(second)).toHaveLength(1);
    } finally {
      await (second ?? first).stop();
    }
  });

  it('HEADs racing the finishing PATCH never see it gone, and all name the one item', async () => {
    const server = await startServer();
    try {
      const { client } = await registerUser(server.url);
      const auth = authHeaders(client, await createToken(client));
      const size = 4 * MiB;
      const url = await createUpload(server, auth, size, 'crash.bin');
      let finished = false;
      const patched = fetch(url, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(deterministicBytes(46, 0, size)) }).finally(() => {
        finished = true;
      });
      const seen: Awaited<ReturnType<typeof head>>[] = [];
      const poll = async () => {
        while (!finished) seen.push(await head(url, auth));
      };
      await Promise.all([poll(), poll(), poll()]);
      const res = await patched;
      expect(res.status).toBe(204);
      const itemId = res.headers.get('x-item-id');
      expect(itemId).toBeTruthy();
      for (const answer of seen) {
        expect(answer.status).toBe(200);
        if (answer.itemId !== null) expect(answer).toEqual({ status: 200, offset: String(size), itemId });
      }
      expect(await head(url, auth)).toEqual({ status: 200, offset: String(size), itemId });
      expect((await browse(client)).names).toEqual(['crash.bin']);
      expect(await fileBlobs(server)).toHaveLength(1);
      expect(await intents(server)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('without the fault variable nothing is injected: uploads finish, and leave no intent', async () => {
    const server = await startServer();
    try {
      const { client } = await registerUser(server.url);
      const auth = authHeaders(client, await createToken(client));
      const size = 100_000;
      await tusClientUpload(server.url, { size, seed: 45, headers: auth, metadata: { filename: 'crash.bin' } }).done;
      expect((await browse(client)).names).toEqual(['crash.bin']);
      expect(await intents(server)).toEqual([]);
      expect(await fileBlobs(server)).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});
