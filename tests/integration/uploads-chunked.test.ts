import { createHash, randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { putSetting } from '../../src/server/settings/service.ts';
import { sweepUploads } from '../../src/server/uploads/tus.ts';
import { type Client, registerUser } from '../support/client.ts';
import { browse, mkdir } from '../support/files.ts';
import { seedContext, useSeededServer, withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { share, visitor } from '../support/shares.ts';
import { deterministicBytes, storedSha256 } from '../support/uploads.ts';

/** SPEC §7 "Chunk upload through the store": chunks of one file through POST /api/upload (uploads/chunks.ts). */
const env = useSeededServer();
const KiB = 1024;
const CHUNK = 256 * KiB;

beforeAll(async () => {
  await putSetting(env.seed, 'chunk_size_bytes', CHUNK);
});
afterAll(async () => {
  await putSetting(env.seed, 'chunk_size_bytes', 8 * 1024 ** 2);
  await putSetting(env.seed, 'default_storage_limit_bytes', 5 * 1024 ** 3);
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const newId = () => randomUUID().replaceAll('-', '');

/** One chunk as the spec's store sends it: the fields first, then the file part. */
function sendChunk(client: Client, bytes: Uint8Array, fields: Record<string, string>, route = '/api/upload') {
  const form = new FormData();
  for (const [k, v] of Object.entries({ filename: 'data.bin', parent_id: '', path: '', extension: 'bin', ...fields })) form.append(k, v);
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'application/octet-stream' }), 'blob');
  return client.request(route, { method: 'POST', body: form });
}

/** A file in `sizes` chunks; the answers of each. */
async function sendFile(client: Client, file: Buffer, sizes: number[], fields: Record<string, string> = {}, route?: string) {
  const uploadId = fields.upload_id ?? newId();
  const answers = [];
  let offset = 0;
  for (const [n, size] of sizes.entries()) {
    answers.push(await sendChunk(client, file.subarray(offset, offset + size), { upload_id: uploadId, offset: String(offset), is_last: String(n === sizes.length - 1), ...fields }, route));
    offset += size;
  }
  return answers;
}

const chunksDir = () => path.join(env.server.dataDir, 'uploads', 'chunks');
const partials = async () => (await readdir(chunksDir()).catch(() => [] as string[])).filter((n) => !n.endsWith('.json'));
const reservations = (ctx: AppContext, ownerId: string) => ctx.db.selectFrom('upload_reservations').selectAll().where('owner_id', '=', ownerId).execute();
const files = async (client: Client) => (await browse(client)).body.data.filter((i: any) => i.type === 'file');
/** The sweep as the server runs it, with a clock `ms` ahead. */
const sweepLater = (ctx: AppContext, ms: number) => sweepUploads({ ...ctx, clock: { now: () => new Date(Date.now() + ms) } });

describe('chunked upload', () => {
  it('appends 3 chunks in order and makes the file once, on the last, with the right bytes', async () => {
    const { client, user } = await registerUser(env.server.url);
    const file = deterministicBytes(1, 0, 3 * 200 * KiB + 17);
    const [first, second, last] = await sendFile(client, file, [200 * KiB, 200 * KiB, 200 * KiB + 17]);
    expect(first!.status, first!.text).toBe(200);
    expect(first!.body.offset).toBe(200 * KiB);
    expect(second!.status, second!.text).toBe(200);
    expect(second!.body.offset).toBe(400 * KiB);
    expect(last!.status, last!.text).toBe(201);
    const items = await files(client);
    expect(items).toHaveLength(1);
    expect(items[0].attributes.name).toBe('data.bin');
    expect(await storedSha256(env.seed, last!.body.data.id)).toBe(sha256(file));
    expect(await reservations(env.seed, user.id)).toEqual([]);
    expect(await partials()).toEqual([]);
  });

  it('shows nothing and holds a reservation of the running total until the last chunk', async () => {
    const { client, user } = await registerUser(env.server.url);
    const file = deterministicBytes(2, 0, 300 * KiB);
    const uploadId = newId();
    expect((await sendChunk(client, file.subarray(0, 100 * KiB), { upload_id: uploadId, offset: '0', is_last: 'false' })).status).toBe(200);
    expect(await files(client)).toEqual([]);
    expect((await reservations(env.seed, user.id)).map((r) => [r.kind, Number(r.bytes)])).toEqual([['chunk', 100 * KiB]]);
    const last = await sendChunk(client, file.subarray(100 * KiB), { upload_id: uploadId, offset: String(100 * KiB), is_last: 'true' });
    expect(last.status, last.text).toBe(201);
    expect(await storedSha256(env.seed, last.body.data.id)).toBe(sha256(file));
  });

  it('answers a repeated chunk 409 with the current offset and appends nothing; a repeated last chunk learns the item', async () => {
    const { client } = await registerUser(env.server.url);
    const file = deterministicBytes(3, 0, 500 * KiB);
    const uploadId = newId();
    const first = { upload_id: uploadId, offset: '0', is_last: 'false' };
    expect((await sendChunk(client, file.subarray(0, 250 * KiB), first)).status).toBe(200);
    const again = await sendChunk(client, file.subarray(0, 250 * KiB), first);
    expect(again.status, again.text).toBe(409);
    expect(again.body).toMatchObject({ code: 'offset_mismatch', offset: 250 * KiB });
    expect(again.headers.get('upload-offset')).toBe(String(250 * KiB));
    const lastFields = { upload_id: uploadId, offset: String(250 * KiB), is_last: 'true' };
    const last = await sendChunk(client, file.subarray(250 * KiB), lastFields);
    expect(last.status, last.text).toBe(201);
    const repeated = await sendChunk(client, file.subarray(250 * KiB), lastFields);
    expect(repeated.status).toBe(409);
    expect(repeated.body).toMatchObject({ code: 'upload_complete', offset: 500 * KiB, item_id: last.body.data.id });
    expect(await files(client)).toHaveLength(1);
    expect(await storedSha256(env.seed, last.body.data.id)).toBe(sha256(file));
  });

  it("refuses a chunk for another user's upload id (404), and theirs goes on", async () => {
    const owner = await registerUser(env.server.url);
    const other = await registerUser(env.server.url);
    const file = deterministicBytes(4, 0, 300 * KiB);
    const uploadId = newId();
    expect((await sendChunk(owner.client, file.subarray(0, 150 * KiB), { upload_id: uploadId, offset: '0', is_last: 'false' })).status).toBe(200);
    const stolen = await sendChunk(other.client, file.subarray(150 * KiB), { upload_id: uploadId, offset: String(150 * KiB), is_last: 'true' });
    expect(stolen.status, stolen.text).toBe(404);
    expect(await files(other.client)).toEqual([]);
    const last = await sendChunk(owner.client, file.subarray(150 * KiB), { upload_id: uploadId, offset: String(150 * KiB), is_last: 'true' });
    expect(last.status, last.text).toBe(201);
    expect(await storedSha256(env.seed, last.body.data.id)).toBe(sha256(file));
  });

  it('refuses a chunk over chunk_size_bytes (+ slack) with 413, appending nothing', async () => {
    const { client } = await registerUser(env.server.url);
    const uploadId = newId();
    const file = deterministicBytes(5, 0, 100 * KiB + CHUNK + 65 * KiB);
    expect((await sendChunk(client, file.subarray(0, 100 * KiB), { upload_id: uploadId, offset: '0', is_last: 'false' })).status).toBe(200);
    const big = await sendChunk(client, file.subarray(100 * KiB), { upload_id: uploadId, offset: String(100 * KiB), is_last: 'true' });
    expect(big.status, big.text).toBe(413);
    expect(big.body.code).toBe('chunk_too_large');
    // Still at 100 KiB: smaller chunks finish it.
    const rest = file.subarray(100 * KiB);
    const half = Math.floor(rest.length / 2);
    expect((await sendChunk(client, rest.subarray(0, half), { upload_id: uploadId, offset: String(100 * KiB), is_last: 'false' })).status).toBe(200);
    const last = await sendChunk(client, rest.subarray(half), { upload_id: uploadId, offset: String(100 * KiB + half), is_last: 'true' });
    expect(last.status, last.text).toBe(201);
    expect(await storedSha256(env.seed, last.body.data.id)).toBe(sha256(file));
  });

  it('refuses the chunk that passes the quota with 423 and removes the partial', async () => {
    await putSetting(env.seed, 'default_storage_limit_bytes', 500 * KiB);
    try {
      const { client, user } = await registerUser(env.server.url);
      const file = deterministicBytes(6, 0, 600 * KiB);
      const before = await partials();
      const [a, b, c] = await sendFile(client, file, [200 * KiB, 200 * KiB, 200 * KiB]);
      expect([a!.status, b!.status]).toEqual([200, 200]);
      expect(c!.status, c!.text).toBe(423);
      expect(c!.body.code).toBe('storage_limit_exceeded');
      expect(await partials()).toEqual(before);
      expect(await reservations(env.seed, user.id)).toEqual([]);
      expect(await files(client)).toEqual([]);
    } finally {
      await putSetting(env.seed, 'default_storage_limit_bytes', 5 * 1024 ** 3);
    }
  });

  it('sweeps an abandoned partial after upload_abandon_seconds with its reservation', async () => {
    const { client, user } = await registerUser(env.server.url);
    const file = deterministicBytes(7, 0, 200 * KiB);
    const uploadId = newId();
    const before = await partials();
    expect((await sendChunk(client, file.subarray(0, 100 * KiB), { upload_id: uploadId, offset: '0', is_last: 'false' })).status).toBe(200);
    const next = { upload_id: uploadId, offset: String(100 * KiB), is_last: 'true' };
    // Kept a while before the abandonment time (default three hours).
    await sweepLater(env.seed, 2 * 3600_000);
    expect(await reservations(env.seed, user.id)).toHaveLength(1);
    expect(await partials()).toHaveLength(before.length + 1);
    await sweepLater(env.seed, 3 * 3600_000 + 60_000);
    expect(await reservations(env.seed, user.id)).toEqual([]);
    expect(await partials()).toEqual(before);
    const late = await sendChunk(client, file.subarray(100 * KiB), next);
    expect(late.status, late.text).toBe(404);
    expect(await files(client)).toEqual([]);
  });

  it('answers bad chunk fields 422 and changes nothing', async () => {
    const { client, user } = await registerUser(env.server.url);
    const bytes = deterministicBytes(8, 0, 10 * KiB);
    const before = await partials();
    const cases: Record<string, string>[] = [
      { upload_id: newId(), offset: '0', is_last: 'maybe' },
      { upload_id: 'short', offset: '0', is_last: 'false' },
      { upload_id: '../../etc/passwd-0000000', offset: '0', is_last: 'false' },
      { upload_id: newId(), offset: '-1', is_last: 'false' },
      { upload_id: newId(), offset: '0' },
      { is_last: 'false' },
    ];
    for (const fields of cases) {
      const res = await sendChunk(client, bytes, fields);
      expect(res.status, `${JSON.stringify(fields)}: ${res.text}`).toBe(422);
      expect(res.body.errors).toBeTruthy();
    }
    // Fields of a chunk after the file part are refused, not ignored.
    const form = new FormData();
    form.append('filename', 'late.bin');
    form.append('file', new Blob([Buffer.from(bytes)]), 'late.bin');
    form.append('upload_id', newId());
    form.append('offset', '0');
    form.append('is_last', 'false');
    const late = await client.request('/api/upload', { method: 'POST', body: form });
    expect(late.status, late.text).toBe(422);
    // A bad field on a live upload leaves it where it was.
    const uploadId = newId();
    expect((await sendChunk(client, bytes, { upload_id: uploadId, offset: '0', is_last: 'false' })).status).toBe(200);
    const bad = await sendChunk(client, bytes, { upload_id: uploadId, offset: String(10 * KiB), is_last: 'yes' });
    expect(bad.status).toBe(422);
    const elsewhere = await sendChunk(client, bytes, { upload_id: uploadId, offset: String(10 * KiB), is_last: 'true', filename: 'other.bin' });
    expect(elsewhere.status).toBe(422);
    expect((await reservations(env.seed, user.id)).map((r) => Number(r.bytes))).toEqual([10 * KiB]);
    const last = await sendChunk(client, bytes, { upload_id: uploadId, offset: String(10 * KiB), is_last: 'true' });
    expect(last.status, last.text).toBe(201);
    expect(await files(client)).toHaveLength(1);
    expect(await partials()).toEqual(before);
  });

  it('keeps the one-shot form: no upload_id, is_last true or absent', async () => {
    const { client } = await registerUser(env.server.url);
    const bytes = deterministicBytes(9, 0, CHUNK * 2);
    expect((await sendChunk(client, bytes, { filename: 'one.bin', is_last: 'true' })).status).toBe(201);
    expect((await sendChunk(client, bytes, { filename: 'two.bin' })).status).toBe(201);
    expect((await files(client)).map((i: any) => i.attributes.name).sort()).toEqual(['one.bin', 'two.bin']);
  });

  it("takes chunks from a share link's editor into the shared folder", async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Shared');
    const link = await share(owner.client, folder, { permission: 'editor' });
    const guest = visitor(env.server.url);
    const file = deterministicBytes(10, 0, 300 * KiB);
    const route = `/api/editor/upload/${link.token}`;
    const uploadId = newId();
    const answers = await sendFile(guest, file, [150 * KiB, 150 * KiB], { parent_id: folder, upload_id: uploadId }, route);
    expect(answers.map((a) => a.status)).toEqual([200, 201]);
    expect((await browse(owner.client, folder)).names).toEqual(['data.bin']);
    expect(await storedSha256(env.seed, answers[1]!.body.data.id)).toBe(sha256(file));
    // The link's uploads are bound to the link: the owner's own session does not reach them.
    const stolen = await sendChunk(owner.client, file, { upload_id: uploadId, offset: String(150 * KiB), is_last: 'true', parent_id: folder });
    expect(stolen.status).toBe(404);
  });

  it("takes chunks from an upload request's holder, and tells the owner once the file is there", async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Inbox');
    const request = await owner.client.post('/api/upload-request', { folder_id: folder });
    expect(request.status, request.text).toBe(201);
    const route = `/api/upload-request/${request.body.data.attributes.token}/upload`;
    const guest = visitor(env.server.url);
    const file = deterministicBytes(12, 0, 300 * KiB);
    const notices = () => env.seed.db.selectFrom('notifications').select('category').where('user_id', '=', owner.user.id).where('category', '=', 'file-request').execute();
    const [first, last] = await sendFile(guest, file, [150 * KiB, 150 * KiB], { parent_id: folder }, route);
    expect(first!.status, first!.text).toBe(200);
    expect(last!.status, last!.text).toBe(201);
    expect((await browse(owner.client, folder)).names).toEqual(['data.bin']);
    expect(await notices()).toHaveLength(1);
    expect(await storedSha256(env.seed, last!.body.data.id)).toBe(sha256(file));
  });

  it('drops a chunk cut off mid-way: the same offset is sent again and the bytes come out right', async () => {
    const { client, user } = await registerUser(env.server.url);
    const file = deterministicBytes(13, 0, 300 * KiB);
    const uploadId = newId();
    expect((await sendChunk(client, file.subarray(0, 100 * KiB), { upload_id: uploadId, offset: '0', is_last: 'false' })).status).toBe(200);
    const dataFile = path.join(chunksDir(), createHash('sha256').update(`${user.id}\0${uploadId}`).digest('hex'));
    // The second chunk: its fields and half its bytes, then the connection goes.
    const boundary = `----chunk${newId()}`;
    const fieldPart = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head = ['filename', 'data.bin', 'parent_id', '', 'path', '', 'upload_id', uploadId, 'offset', String(100 * KiB), 'is_last', 'true'];
    let preamble = '';
    for (let i = 0; i < head.length; i += 2) preamble += fieldPart(head[i]!, head[i + 1]!);
    preamble += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const abort = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(preamble));
        controller.enqueue(new Uint8Array(file.subarray(100 * KiB, 200 * KiB)));
      },
    });
    const sent = fetch(`${env.server.url}/api/upload`, {
      method: 'POST', body, duplex: 'half', signal: abort.signal,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), Origin: env.server.url, 'X-Requested-With': 'XMLHttpRequest' },
    } as RequestInit).catch(() => null);
    // Wait for the server to have appended some of it, then cut the connection.
    for (;;) {
      const size = (await stat(dataFile).catch(() => null))?.size ?? 0;
      if (size > 100 * KiB) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    abort.abort();
    await sent;
    // Until the server has let go of the cut chunk it answers chunk_in_progress; then the same offset is taken.
    let again;
    for (;;) {
      again = await sendChunk(client, file.subarray(100 * KiB), { upload_id: uploadId, offset: String(100 * KiB), is_last: 'true' });
      if (again.body?.code !== 'chunk_in_progress') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(again.status, again.text).toBe(201);
    expect(await storedSha256(env.seed, again.body.data.id)).toBe(sha256(file));
  });

  it('counts chunked uploads against max_open_uploads (429 on the first chunk of one too many, nothing kept)', async () => {
    await putSetting(env.seed, 'max_open_uploads', 2);
    try {
      const { client, user } = await registerUser(env.server.url);
      const bytes = deterministicBytes(14, 0, 10 * KiB);
      const before = await partials();
      for (let n = 0; n < 2; n += 1) expect((await sendChunk(client, bytes, { upload_id: newId(), offset: '0', is_last: 'false', filename: `f${n}.bin` })).status).toBe(200);
      const over = await sendChunk(client, bytes, { upload_id: newId(), offset: '0', is_last: 'false', filename: 'f2.bin' });
      expect(over.status, over.text).toBe(429);
      expect(over.body.code).toBe('too_many_open_uploads');
      expect(await partials()).toHaveLength(before.length + 2);
      expect(await reservations(env.seed, user.id)).toHaveLength(2);
    } finally {
      await putSetting(env.seed, 'max_open_uploads', 20);
    }
  });

  it('a crash while the last chunk finishes leaves no item, blob or intent; that id then answers 410 and the file goes again', async () => {
    const first = await startServer({ env: { CLOUD_DRIVE_FAULT: 'upload-finish-after-blob-write' } });
    let second: RunningServer | null = null;
    const blobs = (server: RunningServer) =>
      withSeed(server, async (seed) => {
        const keys: string[] = [];
        for await (const blob of seed.blobs.list('files/')) keys.push(blob.key);
        return keys;
      });
    try {
      const { client, user } = await registerUser(first.url);
      const file = deterministicBytes(11, 0, 300 * KiB);
      const uploadId = newId();
      expect((await sendChunk(client, file.subarray(0, 150 * KiB), { upload_id: uploadId, offset: '0', is_last: 'false' })).status).toBe(200);
      const lastFields = { upload_id: uploadId, offset: String(150 * KiB), is_last: 'true' };
      await expect(sendChunk(client, file.subarray(150 * KiB), lastFields)).rejects.toThrow();
      await first.kill();
      expect(await blobs(first)).toHaveLength(1);

      second = await startServer({ reuse: first });
      const seed = await seedContext(second);
      try {
        expect(await blobs(second)).toEqual([]);
        expect(await seed.db.selectFrom('pending_blobs').selectAll().execute()).toEqual([]);
        const lost = await sendChunk(client, file.subarray(150 * KiB), lastFields);
        expect(lost.status, lost.text).toBe(410);
        expect(lost.body.code).toBe('upload_lost');
        expect(await reservations(seed, user.id)).toEqual([]);
        expect(await files(client)).toEqual([]);
        const again = await sendFile(client, file, [150 * KiB, 150 * KiB], { upload_id: uploadId });
        expect(again.map((a) => a.status)).toEqual([200, 201]);
        expect(await storedSha256(seed, again[1]!.body.data.id)).toBe(sha256(file));
        expect(await files(client)).toHaveLength(1);
      } finally {
        await seed.db.destroy();
      }
    } finally {
      await (second ?? first).stop();
    }
  });
});
