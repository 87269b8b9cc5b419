import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { davAccount } from '../support/dav.ts';
import { browse } from '../support/files.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { deterministicBytes, storedSha256 } from '../support/uploads.ts';

// App nodes on one PostgreSQL database and data dir: a node that starts (a rolling restart, one
// more node) settles only what a dead process left, never the uploads another node is receiving.
// SQLite is one process by design.
const onPostgres = process.env.TEST_DB === 'postgres';
const MiB = 1024 * 1024;

/** A request whose body is sent in two parts; `rest()` sends the second and answers the response. */
function twoPartRequest(url: string, headers: Record<string, string>, first: Buffer, second: Buffer, method = 'POST') {
  let answer!: Promise<{ status: number; text: string }>;
  const req = http.request(url, { method, headers: { ...headers, 'Content-Length': String(first.length + second.length) } });
  answer = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
  });
  req.write(first);
  return {
    rest: () => {
      req.end(second);
      return answer;
    },
    /** The request as it ends when its server dies. */
    answer,
  };
}

/** A multipart body as Uppy's xhr-upload sends one, split inside the file's bytes. */
function multipart(name: string, bytes: Buffer, cut: number) {
  const boundary = `----nodes${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { type: `multipart/form-data; boundary=${boundary}`, first: Buffer.concat([head, bytes.subarray(0, cut)]), second: Buffer.concat([bytes.subarray(cut), tail]) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const intents = (server: RunningServer) => withSeed(server, (seed) => seed.db.selectFrom('pending_blobs').selectAll().execute());
const plainReservations = (server: RunningServer) => withSeed(server, (seed) => seed.db.selectFrom('upload_reservations').selectAll().where('kind', '=', 'plain').execute());

describe.skipIf(!onPostgres)('an app node starting beside running ones (skipped on SQLite: one process by design)', () => {
  let first: RunningServer;
  const started: RunningServer[] = [];
  beforeAll(async () => {
    if (onPostgres) first = await startServer({ db: 'postgres' });
  });
  afterAll(async () => {
    for (const node of started.reverse()) await node.kill();
    await first?.stop();
  });

  it('cancels none of their uploads in flight: a plain upload and a WebDAV PUT sent across its start both finish', async () => {
    const { client, email, token } = await davAccount(first.url);
    const bytes = deterministicBytes(41, 0, 2 * MiB);
    const form = multipart('across-a-start.bin', bytes, MiB);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const plain = twoPartRequest(`${first.url}/api/upload`, { Cookie: cookie, Origin: first.url, 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Content-Type': form.type }, form.first, form.second);
    const basic = `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
    const put = twoPartRequest(`${first.url}/dav/put-across-a-start.bin`, { Authorization: basic, 'Content-Type': 'application/octet-stream' }, bytes.subarray(0, MiB), bytes.subarray(MiB), 'PUT');
    // Both are under way: their intents and quota reservations are written before the bytes are stored.
    await until('both uploads are under way', async () => (await intents(first)).length === 2 && (await plainReservations(first)).length === 2);

    const second = await startServer({ alongside: first });
    started.push(second);
    expect(second.logs.filter((line) => line.includes('recovered uploads') || line.includes('released the quota'))).toEqual([]);
    expect(await intents(first)).toHaveLength(2);
    expect(await plainReservations(first)).toHaveLength(2);

    const [plainDone, putDone] = await Promise.all([plain.rest(), put.rest()]);
    expect(plainDone.status, plainDone.text).toBe(201);
    expect(putDone.status, putDone.text).toBe(201);
    const { names, body } = await browse(client);
    expect(names.sort()).toEqual(['across-a-start.bin', 'put-across-a-start.bin']);
    await withSeed(first, async (seed) => {
      for (const item of body.data as { id: string }[]) expect(await storedSha256(seed, item.id)).toBe(sha256(bytes));
    });
    expect(await intents(first)).toEqual([]);
    expect(await plainReservations(first)).toEqual([]);
  });

  it('starts and runs its jobs without a deprecation warning: one statement at a time on its lock connection', () => {
    // The scheduled jobs take their locks at once at start; pg warned when they overlapped on one client.
    expect(first.logs.some((line) => line.includes('"msg":"listening"'))).toBe(true);
    expect(first.logs.filter((line) => line.includes('DeprecationWarning'))).toEqual([]);
  });

  it('settles what a dead node left, while the live nodes keep theirs: its upload is discarded and its quota released', async () => {
    const dying = await startServer({ alongside: first });
    started.push(dying);
    const { client } = await davAccount(first.url);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const bytes = deterministicBytes(42, 0, 2 * MiB);
    const headers = (url: string, type: string) => ({ Cookie: cookie, Origin: url, 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Content-Type': type });
    // One upload on the node that will die, one on the first node, which lives on.
    const lost = multipart('lost.bin', bytes, MiB);
    const lostUpload = twoPartRequest(`${dying.url}/api/upload`, headers(dying.url, lost.type), lost.first, lost.second);
    lostUpload.answer.catch(() => {});
    const kept = multipart('kept.bin', bytes, MiB);
    const keptUpload = twoPartRequest(`${first.url}/api/upload`, headers(first.url, kept.type), kept.first, kept.second);
    await until('both uploads are under way', async () => (await intents(first)).length === 2 && (await plainReservations(first)).length === 2);

    await dying.kill();
    const next = await startServer({ alongside: first });
    started.push(next);
    expect(next.logs.some((line) => line.includes('"msg":"recovered uploads a crash interrupted"') && line.includes('"discarded":1'))).toBe(true);
    expect(next.logs.some((line) => line.includes('"msg":"released the quota of uploads a crash interrupted"') && line.includes('"reservations":1'))).toBe(true);
    // The live node's upload is still under way, and finishes.
    expect(await intents(first)).toHaveLength(1);
    expect(await plainReservations(first)).toHaveLength(1);
    const done = await keptUpload.rest();
    expect(done.status, done.text).toBe(201);
    expect((await browse(client)).names).toEqual(['kept.bin']);
    expect(await intents(first)).toEqual([]);
    expect(await plainReservations(first)).toEqual([]);
  });
});
