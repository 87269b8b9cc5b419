import http from 'node:http';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { sweepUploads } from '../../src/server/uploads/tus.ts';
import { Client, registerUser } from '../support/client.ts';
import { browse, mkdir } from '../support/files.ts';
import { seedContext, useSeededServer } from '../support/seed.ts';
import { tusAsTokenHolder, uploadTo } from '../support/shares.ts';
import { startServer } from '../support/server.ts';
import { authHeaders, createToken, deterministicBytes, tusMetadata, uploadForm } from '../support/uploads.ts';

const env = useSeededServer();
const QUOTA = 1_000_000;
const MiB = 1024 * 1024;

beforeAll(async () => {
  await putSetting(env.seed, 'default_storage_limit_bytes', QUOTA);
});
afterAll(async () => {
  await putSetting(env.seed, 'default_storage_limit_bytes', 5 * 1024 ** 3);
});

function create(auth: Record<string, string>, size: number, name = 'big.bin', base = env.server.url) {
  return fetch(`${base}/api/upload/tus`, { method: 'POST', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata({ filename: name }) } });
}

async function created(auth: Record<string, string>, size: number, name?: string): Promise<string> {
  const res = await create(auth, size, name);
  expect(res.status, await res.text()).toBe(201);
  return new URL(res.headers.get('location')!, env.server.url).href;
}

function patch(url: string, auth: Record<string, string>, bytes: Uint8Array, offset = 0) {
  return fetch(url, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(bytes) });
}

function raw(client: Client, bytes: Uint8Array, name = 'plain.bin') {
  return client.request('/api/upload', { method: 'POST', body: new Uint8Array(bytes), headers: { 'Content-Type': 'application/octet-stream', 'X-File-Name': name } });
}

async function refusedOverQuota(res: Response | { status: number; text: string }) {
  const text = res instanceof Response ? await res.text() : res.text;
  expect(res.status, text).toBe(423);
  expect(JSON.parse(text)).toMatchObject({ code: 'storage_limit_exceeded' });
}

const reservations = (ctx: AppContext, ownerId: string) => ctx.db.selectFrom('upload_reservations').selectAll().where('owner_id', '=', ownerId).execute();

/** The sweep as the server runs it, with a clock `ms` ahead: abandonment without waiting for it. */
const sweepLater = (ctx: AppContext, ms: number) => sweepUploads({ ...ctx, clock: { now: () => new Date(Date.now() + ms) } });

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('open uploads reserve quota', () => {
  it('lets only one of 20 tus uploads of (quota − 1) bytes created at once through; the rest are 423', async () => {
    const { client, user } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(auth, QUOTA - 1, `big-${i}.bin`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 201)) await refusedOverQuota(res);
    const rows = await reservations(env.seed, user.id);
    expect(rows.map((r) => Number(r.bytes))).toEqual([QUOTA - 1]);
    // Usage shows what is stored; the promise is counted by the checks.
    expect((await client.get('/api/user/storage')).body.data.attributes.used).toBe(0);
    expect((await tusAsTokenHolder(env.server.url, auth, 'xy', { filename: 'two.txt' })).created).toBe(423);
  });

  it('refuses plain, multipart and token uploads while reservations hold the space', async () => {
    const owner = await registerUser(env.server.url);
    const auth = authHeaders(owner.client);
    await created(auth, QUOTA - 1000);
    await refusedOverQuota(await raw(owner.client, deterministicBytes(1, 0, 2000)));
    await refusedOverQuota(await uploadForm(owner.client, deterministicBytes(2, 0, 2000), { filename: 'form.bin' }));
    // A body of unknown length is counted against what is left, reservations included.
    const chunked = await fetch(`${env.server.url}/api/upload`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/octet-stream', 'X-File-Name': 'chunked.bin' },
      body: new Blob([new Uint8Array(deterministicBytes(3, 0, 2000))]).stream(),
      duplex: 'half',
    } as RequestInit);
    await refusedOverQuota(chunked);
    const folder = await mkdir(owner.client, 'Inbox');
    const request = await owner.client.post('/api/upload-request', { folder_id: folder });
    expect(request.status, request.text).toBe(201);
    const base = `/api/upload-request/${request.body.data.attributes.token}`;
    const guest = new Client(env.server.url);
    await refusedOverQuota(await uploadTo(guest, `${base}/upload`, 'x'.repeat(2000), {}, 'scan.txt'));
    // What does fit still goes in.
    expect((await uploadTo(guest, `${base}/upload`, 'x'.repeat(500), {}, 'small.txt')).status).toBe(201);
    expect((await browse(owner.client)).names).toEqual(['Inbox']);
    expect(await filesUnder(path.join(env.server.dataDir, 'blobs', '.tmp'))).toEqual([]);
    // Plain uploads write at their key: of the refused ones nothing is left there, only small.txt's bytes.
    expect(await filesUnder(path.join(env.server.dataDir, 'blobs', 'files', owner.user.id.toLowerCase()))).toHaveLength(1);
    expect((await reservations(env.seed, owner.user.id)).map((r) => r.kind)).toEqual(['tus']);
  });

  it('releases the reservation when the upload becomes an item', async () => {
    const { client, user } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const url = await created(auth, QUOTA - 10, 'done.bin');
    const finished = await patch(url, auth, deterministicBytes(4, 0, QUOTA - 10));
    expect(finished.status).toBe(204);
    expect(finished.headers.get('x-item-id')).toBeTruthy();
    expect(await reservations(env.seed, user.id)).toEqual([]);
    // Stored bytes count once, not twice: the last 10 bytes still fit, the 11th does not.
    await created(auth, 10, 'ten.bin');
    await refusedOverQuota(await create(auth, 1, 'one.bin'));
  });

  it('releases the reservation when the upload is terminated (DELETE)', async () => {
    const { client, user } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const url = await created(auth, QUOTA - 1);
    await refusedOverQuota(await create(auth, QUOTA - 1));
    const deleted = await fetch(url, { method: 'DELETE', headers: { ...auth, 'Tus-Resumable': '1.0.0' } });
    expect(deleted.status).toBe(204);
    expect(await reservations(env.seed, user.id)).toEqual([]);
    await created(auth, QUOTA - 1);
  });

  it('sweeps an abandoned upload after upload_abandon_seconds, long before the hard expiry, and frees its space', async () => {
    const { client, user } = await registerUser(env.server.url);
    const auth = authHeaders(client);
    const url = await created(auth, QUOTA - 1, 'abandoned.bin');
    expect((await patch(url, auth, deterministicBytes(5, 0, 1000))).status).toBe(204);
    const id = url.split('/').pop()!;
    const tusDir = path.join(env.server.dataDir, 'uploads', 'tus');
    // Still alive a little before the abandonment time (default three hours, the hard expiry 24).
    await sweepLater(env.seed, 2 * 3600_000);
    expect((await fetch(url, { method: 'HEAD', headers: { ...auth, 'Tus-Resumable': '1.0.0' } })).status).toBe(200);
    expect(await reservations(env.seed, user.id)).toHaveLength(1);
    await sweepLater(env.seed, 3 * 3600_000 + 60_000);
    expect((await fetch(url, { method: 'HEAD', headers: { ...auth, 'Tus-Resumable': '1.0.0' } })).status).toBe(404);
    expect((await filesUnder(tusDir)).filter((f) => f.includes(id))).toEqual([]);
    expect(await reservations(env.seed, user.id)).toEqual([]);
    await created(auth, QUOTA - 1);
  });

  it('caps the open uploads per owner (max_open_uploads) with a clear 429', async () => {
    await putSetting(env.seed, 'max_open_uploads', 3);
    try {
      const { client } = await registerUser(env.server.url);
      const auth = authHeaders(client);
      const urls = [await created(auth, 10), await created(auth, 10), await created(auth, 10)];
      const over = await create(auth, 10);
      expect(over.status).toBe(429);
      const body = await over.json();
      expect(body).toMatchObject({ code: 'too_many_open_uploads' });
      expect(body.message).toMatch(/3 unfinished uploads/);
      // A finished one no longer counts.
      expect((await patch(urls[0]!, auth, deterministicBytes(6, 0, 10))).status).toBe(204);
      await created(auth, 10);
      expect((await create(auth, 10)).status).toBe(429);
      // Nor does a terminated one.
      expect((await fetch(urls[1]!, { method: 'DELETE', headers: { ...auth, 'Tus-Resumable': '1.0.0' } })).status).toBe(204);
      await created(auth, 10);
    } finally {
      await putSetting(env.seed, 'max_open_uploads', 20);
    }
  });

  it('refuses a deferred length (the length must be known to reserve it) and a length past counting', async () => {
    const { client } = await registerUser(env.server.url);
    const res = await fetch(`${env.server.url}/api/upload/tus`, { method: 'POST', headers: { ...authHeaders(client), 'Tus-Resumable': '1.0.0', 'Upload-Defer-Length': '1', 'Upload-Metadata': tusMetadata({ filename: 'x.bin' }) } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/Upload-Length is required/);
    // Nor is a length past what can be counted.
    await putSetting(env.seed, 'default_storage_limit_bytes', 0);
    try {
      for (const length of ['99999999999999999999', String(2 ** 60)]) {
        const absurd = await fetch(`${env.server.url}/api/upload/tus`, { method: 'POST', headers: { ...authHeaders(client), 'Tus-Resumable': '1.0.0', 'Upload-Length': length, 'Upload-Metadata': tusMetadata({ filename: 'x.bin' }) } });
        expect(absurd.status, length).toBe(400);
      }
    } finally {
      await putSetting(env.seed, 'default_storage_limit_bytes', QUOTA);
    }
  });
});

describe('uploads at once into the last of the quota', () => {
  it('admits as many multipart uploads as fit, like tus, raw and WebDAV: three of 24 uploads of 300 KiB into 1 MB', async () => {
    const { client } = await registerUser(env.server.url);
    const size = 300 * 1024;
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => uploadForm(client, deterministicBytes(300 + i, 0, size), { filename: `part-${i}.bin` })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201), JSON.stringify(results.filter((r) => r.status !== 201 && r.status !== 423).map((r) => r.text))).toHaveLength(3);
    expect(statuses.filter((s) => s === 423)).toHaveLength(21);
    expect((await browse(client)).names).toHaveLength(3);
  });
});

describe('malformed multipart bodies', () => {
  const B = 'quotaTestBoundary';
  const file = (content: string) => `--${B}\r\nContent-Disposition: form-data; name="filename"\r\n\r\na.txt\r\n--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${content}`;
  const bodies: Record<string, string> = {
    'cut off inside the file': file('x'.repeat(200_000)),
    'without the closing boundary': `${file('hello')}\r\n--${B}`,
    'with a malformed part header': `--${B}\r\nGarbage\r\n\r\nhello\r\n--${B}--\r\n`,
    'that is no multipart at all': 'this is not multipart',
  };

  it('answers 400 with a message on /api/upload and the token upload routes, leaving no item and no file', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Inbox');
    const request = await owner.client.post('/api/upload-request', { folder_id: folder });
    const token = request.body.data.attributes.token as string;
    const guest = new Client(env.server.url);
    for (const [what, body] of Object.entries(bodies)) {
      const headers = { 'Content-Type': `multipart/form-data; boundary=${B}` };
      for (const [who, res] of [
        ['owner', await owner.client.request('/api/upload', { method: 'POST', body, headers })],
        ['request holder', await guest.request(`/api/upload-request/${token}/upload`, { method: 'POST', body, headers, xrw: false })],
      ] as const) {
        expect(res.status, `${who}, ${what}: ${res.text}`).toBe(400);
        expect(res.body.message, what).toMatch(/multipart/i);
      }
    }
    expect((await browse(owner.client)).names).toEqual(['Inbox']);
    expect((await browse(owner.client, folder)).names).toEqual([]);
    expect(await filesUnder(path.join(env.server.dataDir, 'blobs', 'files', owner.user.id.toLowerCase()))).toEqual([]);
    expect(await filesUnder(path.join(env.server.dataDir, 'blobs', '.tmp'))).toEqual([]);
    expect(await reservations(env.seed, owner.user.id)).toEqual([]);
    // None of it was taken for a server failure.
    const failures = env.server.logs.filter((l) => l.includes('"level":50') && l.includes('/api/upload'));
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

describe('plain uploads that stall', () => {
  it('are cut off after upload_idle_seconds without a byte: no blob, no reservation, no item', async () => {
    await putSetting(env.seed, 'upload_idle_seconds', 1);
    try {
      const { client, user } = await registerUser(env.server.url);
      const token = await createToken(client);
      const req = http.request(`${env.server.url}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream', 'X-File-Name': 'stalled.bin', 'Content-Length': String(QUOTA / 2) } });
      const closed = new Promise<void>((resolve) => {
        req.on('error', () => resolve());
        req.on('close', () => resolve());
      });
      req.write(deterministicBytes(8, 0, QUOTA / 4));
      // The client sends nothing more and keeps the connection open: the server lets go (before the
      // cut-off this waited for ever, holding the temporary file and the reservation).
      await closed;
      await until(async () => (await reservations(env.seed, user.id)).length === 0, 'the reservation to go');
      expect(await filesUnder(path.join(env.server.dataDir, 'blobs', '.tmp'))).toEqual([]);
      expect(await filesUnder(path.join(env.server.dataDir, 'blobs', 'files', user.id.toLowerCase()))).toEqual([]);
      expect((await browse(client)).names).toEqual([]);
    } finally {
      await putSetting(env.seed, 'upload_idle_seconds', 600);
    }
  });
});

describe('a plain upload whose process died in the middle of its body', () => {
  it('leaves its bytes at their key under an intent: the next start removes both, and releases its quota at once', async () => {
    const first = await startServer();
    let second: Awaited<ReturnType<typeof startServer>> | null = null;
    let seed: AppContext | null = null;
    try {
      await putSettingOn(first, 'default_storage_limit_bytes', 64 * MiB);
      const { client, user } = await registerUser(first.url);
      const token = await createToken(client);
      seed = await seedContext(first);
      const size = 8 * MiB;
      const req = http.request(`${first.url}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream', 'X-File-Name': 'cut.bin', 'Content-Length': String(size) } });
      req.on('error', () => {});
      req.write(deterministicBytes(7, 0, 2 * MiB));
      // Written in place (blobs/store.ts): no temporary file, the bytes at the key its intent names.
      const owned = path.join(first.dataDir, 'blobs', 'files', user.id.toLowerCase());
      await until(async () => (await Promise.all((await filesUnder(owned)).map((f) => stat(f)))).some((s) => s.size >= MiB), 'bytes at the blob key');
      expect(await filesUnder(path.join(first.dataDir, 'blobs', '.tmp'))).toEqual([]);
      expect(await intentsOf(seed, user.id)).toHaveLength(1);
      expect(await reservations(seed, user.id)).toHaveLength(1);
      await first.kill();
      req.destroy();

      // The next start settles what the dead process left: the cut blob and its intent go, and the
      // reservation with them (its request died with the process), not upload_idle_seconds later.
      second = await startServer({ reuse: first });
      expect(await filesUnder(owned)).toEqual([]);
      expect(await intentsOf(seed, user.id)).toEqual([]);
      expect(await reservations(seed, user.id)).toEqual([]);
      expect(second.logs.some((line) => line.includes('"msg":"released the quota of uploads a crash interrupted"') && line.includes('"reservations":1'))).toBe(true);
      // The whole quota is free again: an upload of 60 MiB of the 64 fits.
      const next = await client.request('/api/upload', { method: 'POST', body: new Uint8Array(60 * MiB), headers: { 'Content-Type': 'application/octet-stream', 'X-File-Name': 'after.bin' } });
      expect(next.status, next.text).toBe(201);
    } finally {
      await seed?.db.destroy();
      if (second) await second.stop();
      else {
        await first.kill();
        await first.cleanup();
      }
    }
  });
});

const intentsOf = (ctx: AppContext, ownerId: string) => ctx.db.selectFrom('pending_blobs').select('blob_key').where('owner_id', '=', ownerId).execute();

async function putSettingOn(server: Awaited<ReturnType<typeof startServer>>, key: 'default_storage_limit_bytes', value: number) {
  const ctx = await seedContext(server);
  try {
    await putSetting(ctx, key, value);
  } finally {
    await ctx.db.destroy();
  }
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
