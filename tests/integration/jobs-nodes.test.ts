import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { runEvery } from '../../src/server/jobs/every.ts';
import { registerUser, type Client } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedContext, seedFile } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { authHeaders, createToken, deterministicBytes, sha256OfDeterministic, storedSha256, tusMetadata } from '../support/uploads.ts';

// Several app nodes share one PostgreSQL database and DATA_DIR; SQLite is one process by design
// (README "Running on several machines"), so on SQLite these tests are skipped.
const onPostgres = process.env.TEST_DB === 'postgres';
const PURGE = 'trash purge';
const FAST = { TRASH_PURGE_SECONDS: '1' };

const started: RunningServer[] = [];
const seeds: AppContext[] = [];
afterEach(async () => {
  for (const s of seeds.splice(0)) await s.db.destroy();
  // Joined nodes first: the first node's stop drops the shared database and data dir.
  for (const s of started.splice(0).reverse()) {
    try {
      process.kill(s.pid, 'SIGCONT');
    } catch {
      /* gone already */
    }
    await s.stop();
  }
});

async function nodes(count: number, env: Record<string, string>[] = []): Promise<RunningServer[]> {
  const first = await startServer({ env: { ...FAST, ...env[0] } });
  started.push(first);
  const others = await Promise.all(Array.from({ length: count - 1 }, (_, i) => startServer({ join: first, env: { ...FAST, ...env[i + 1] } })));
  started.push(...others);
  return [first, ...others];
}

async function seedOf(server: RunningServer): Promise<AppContext> {
  const seed = await seedContext(server);
  seeds.push(seed);
  return seed;
}

async function until<T>(check: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i += 1) {
    const value = await check();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Whether no session holds the job's lease now (taking and at once giving back its advisory lock). */
async function leaseFree(url: string, label: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query('select pg_try_advisory_lock(1, hashtext($1)) as ok', [label]);
    if (rows[0].ok) await c.query('select pg_advisory_unlock(1, hashtext($1))', [label]);
    return rows[0].ok as boolean;
  } finally {
    await c.end();
  }
}

/** Folders with files each, through the API and the seed; trashed through the API. Answers the item count. */
async function trashedTree(seed: AppContext, client: Client, userId: string, folders: number, files: number): Promise<{ count: number; blobKeys: string[] }> {
  const blobKeys: string[] = [];
  const items: { id: string; type: 'folder' }[] = [];
  for (let f = 0; f < folders; f += 1) {
    const folder = await mkdir(client, `Old ${f}`);
    for (let i = 0; i < files; i += 1) blobKeys.push((await seedFile(seed, userId, { name: `f${i}.txt`, parentId: folder })).blobKey);
    items.push({ id: folder, type: 'folder' });
  }
  expect((await client.post('/api/remove', { items })).status).toBe(204);
  return { count: folders * (files + 1), blobKeys };
}

/** Puts the user's trash past the 30 days' retention, in one statement. */
async function ageTrash(seed: AppContext, userId: string): Promise<void> {
  const old = new Date(Date.now() - 40 * 24 * 60 * 60_000).toISOString();
  await seed.db.updateTable('items').set({ deleted_at: old }).where('owner_id', '=', userId).where('deleted_at', 'is not', null).execute();
}

const itemsOf = async (seed: AppContext, userId: string) => Number((await seed.db.selectFrom('items').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', userId).executeTakeFirstOrThrow()).n);
const purgeRecord = (seed: AppContext) => seed.db.selectFrom('job_runs').selectAll().where('name', '=', PURGE).executeTakeFirstOrThrow();
/** The purge runs that removed something, as each node logged them. */
const purgedLines = (servers: RunningServer[]) => servers.flatMap((s) => s.logs.filter((l) => l.includes('"msg":"purged expired trash"')).map((l) => JSON.parse(l) as { items: number }));

describe('the shared job schedule (both databases)', () => {
  it('waits longer after failures in a row, resets after a good run, and skips a tick before the job is due', async () => {
    const [a] = (await nodes(1)) as [RunningServer];
    const seed = await seedOf(a);
    const name = `backoff job ${Date.now()}`;
    const record = () => seed.db.selectFrom('job_runs').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    const gap = (r: { last_started_at: string | null; next_run_at: string | null }) => Date.parse(r.next_run_at!) - Date.parse(r.last_started_at!);
    const HOUR = 60 * 60_000;
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error('the disk is on fire');
    };

    // Each runEvery is a node starting: its first tick runs the job (no run began since it started).
    await runEvery(seed, name, HOUR, failing)();
    expect(await record()).toMatchObject({ failures: 1, consecutive_failures: 1 });
    expect(gap(await record())).toBe(2 * HOUR);
    await runEvery(seed, name, HOUR, failing)();
    expect(await record()).toMatchObject({ failures: 2, consecutive_failures: 2 });
    expect(gap(await record())).toBe(4 * HOUR);
    await runEvery(seed, name, HOUR, async () => undefined)();
    expect(await record()).toMatchObject({ runs: 3, failures: 2, consecutive_failures: 0, last_failed: 0 });
    expect(gap(await record())).toBe(HOUR);
    expect(calls).toBe(2);

    // A node starting while another node's run (begun after this one started: a later clock here)
    // is recorded and the next is not due yet leaves the job alone.
    await seed.db.updateTable('job_runs').set({ last_started_at: new Date(Date.now() + 60_000).toISOString(), last_finished_at: new Date(Date.now() + 61_000).toISOString() }).where('name', '=', name).execute();
    await runEvery(seed, name, HOUR, failing)();
    expect(calls).toBe(2);
    expect((await record()).runs).toBe(3);
    await seed.db.deleteFrom('job_runs').where('name', '=', name).execute();
  });
});

describe.skipIf(!onPostgres)('background jobs across app nodes (PostgreSQL only: SQLite runs one process)', () => {
  it('purges old trash once with the job ticking on three nodes, one run per interval and no failures', async () => {
    const servers = await nodes(3);
    const [a] = servers as [RunningServer];
    const seed = await seedOf(a);
    const { client, user } = await registerUser(a.url);
    const { count, blobKeys } = await trashedTree(seed, client, user.id, 3, 2);
    const before = await purgeRecord(seed);
    const from = Date.now();

    await ageTrash(seed, user.id);
    await until(() => itemsOf(seed, user.id), (n) => n === 0, 'the purge');
    // The node's log line reaches the test through a pipe after the rows are gone.
    const lines = await until(async () => purgedLines(servers), (l) => l.reduce((sum, x) => sum + x.items, 0) >= count, 'the purge log line');
    expect(lines).toEqual([expect.objectContaining({ items: count, blobs: blobKeys.length })]);
    for (const key of blobKeys) expect(await seed.blobs.stat(key)).toBeNull();

    const after = await purgeRecord(seed);
    expect(after.failures).toBe(0);
    expect(after.consecutive_failures).toBe(0);
    // Three nodes ticking every second would run it three times a second without the shared schedule.
    const seconds = Math.ceil((Date.now() - from) / 1000);
    expect(after.runs - before.runs).toBeLessThanOrEqual(seconds + 1);
    expect(servers.flatMap((s) => s.logs).filter((l) => l.includes(`${PURGE} failed`) || l.includes('"level":50'))).toEqual([]);
  });

  it('finishes on another node a purge whose node was killed holding the lease', async () => {
    const [a, k] = (await nodes(2, [{}, { CLOUD_DRIVE_FAULT: 'trash-purge-after-batch' }])) as [RunningServer, RunningServer];
    const seed = await seedOf(a);
    const { client, user } = await registerUser(a.url);
    const { count } = await trashedTree(seed, client, user.id, 1, 3);

    // Node A is paused (not holding the lease), so node K takes the next run.
    for (;;) {
      process.kill(a.pid, 'SIGSTOP');
      if (await leaseFree(a.databaseUrl!, PURGE)) break;
      process.kill(a.pid, 'SIGCONT');
    }
    await ageTrash(seed, user.id);
    await until(async () => k.logs.some((l) => l.includes('"fault":"trash-purge-after-batch"')), Boolean, 'the fault');
    // Killed mid-run: its connection is gone and with it the lease; the files went, the folder is left.
    await until(() => leaseFree(a.databaseUrl!, PURGE), Boolean, 'the lease to go with the node');
    await k.kill();
    expect(await itemsOf(seed, user.id)).toBe(1);
    const interrupted = await purgeRecord(seed);
    expect(Date.parse(interrupted.last_started_at!)).toBeGreaterThan(Date.parse(interrupted.last_finished_at!));

    process.kill(a.pid, 'SIGCONT');
    await until(() => itemsOf(seed, user.id), (n) => n === 0, 'node A to finish the purge');
    await until(async () => purgedLines([a]), (l) => l.length > 0, 'node A to log the purge');
    expect(purgedLines([a])).toEqual([expect.objectContaining({ items: count - 3 })]);
    const done = await purgeRecord(seed);
    expect(done).toMatchObject({ failures: 0, consecutive_failures: 0, last_failed: 0 });
    expect(Date.parse(done.last_finished_at!)).toBeGreaterThanOrEqual(Date.parse(done.last_started_at!));
  });
});

describe.skipIf(!onPostgres)('tus uploads across app nodes (PostgreSQL only: SQLite runs one process)', () => {
  const TUS = '/api/upload/tus';
  const tusFetch = async (url: string, method: string, headers: Record<string, string>, body?: Uint8Array) => {
    const res = await fetch(url, { method, headers: { 'Tus-Resumable': '1.0.0', ...headers }, body: body ? new Uint8Array(body) : null });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  it('takes PATCHes of one upload alternately on two nodes sharing DATA_DIR, byte-identical', async () => {
    const [a, b] = (await nodes(2)) as [RunningServer, RunningServer];
    const seed = await seedOf(a);
    const { client } = await registerUser(a.url);
    const auth = authHeaders(client, await createToken(client));
    const size = 3 * 1024 * 1024 + 321;
    const chunk = 1024 * 1024;
    const created = await tusFetch(a.url + TUS, 'POST', { ...auth, 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata({ filename: 'both.bin', filetype: 'application/octet-stream', parent_id: '', path: '' }) });
    expect(created.status, created.text).toBe(201);
    const location = new URL(created.headers.get('location')!, a.url).pathname;

    let itemId: string | null = null;
    for (let offset = 0, i = 0; offset < size; offset += chunk, i += 1) {
      const node = i % 2 === 0 ? a : b;
      const other = i % 2 === 0 ? b : a;
      const end = Math.min(size, offset + chunk);
      const res = await tusFetch(node.url + location, 'PATCH', { ...auth, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(7, offset, end));
      expect(res.status, res.text).toBe(204);
      expect(res.headers.get('upload-offset')).toBe(String(end));
      if (end === size) itemId = res.headers.get('x-item-id');
      else expect((await tusFetch(other.url + location, 'HEAD', auth)).headers.get('upload-offset')).toBe(String(end));
    }
    expect(itemId).toBeTruthy();
    expect(await storedSha256(seed, itemId!)).toBe(sha256OfDeterministic(7, size));
    expect(await readdir(path.join(a.dataDir, 'uploads', 'tus'))).toEqual([`${location.split('/').pop()}.json`]);
  });

  it('resumes on another node an upload whose node was killed mid-PATCH, byte-identical', async () => {
    const [a, b] = (await nodes(2)) as [RunningServer, RunningServer];
    const seed = await seedOf(a);
    const { client } = await registerUser(a.url);
    const auth = authHeaders(client, await createToken(client));
    const size = 2 * 1024 * 1024 + 99;
    const created = await tusFetch(a.url + TUS, 'POST', { ...auth, 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata({ filename: 'cut.bin', filetype: 'application/octet-stream', parent_id: '', path: '' }) });
    expect(created.status, created.text).toBe(201);
    const location = new URL(created.headers.get('location')!, a.url).pathname;
    const dataFile = path.join(a.dataDir, 'uploads', 'tus', location.split('/').pop()!);

    // Node B gets a PATCH of the whole length, half of it sent, and dies holding the upload's lock.
    const half = 1024 * 1024;
    const cut = http.request(b.url + location, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(size) } });
    const ended = new Promise<void>((resolve) => {
      cut.on('error', () => resolve());
      cut.on('response', (res) => res.resume().on('end', () => resolve()));
    });
    cut.write(deterministicBytes(9, 0, half));
    await until(async () => (await stat(dataFile)).size, (n) => n >= half, 'node B to write the first half');
    await b.kill();
    await ended;

    // Node A takes the upload's lock at once (it went with B's connection) and the rest of the bytes.
    const head = await tusFetch(a.url + location, 'HEAD', auth);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe((await stat(dataFile)).size);
    expect(offset).toBeGreaterThanOrEqual(half);
    const res = await tusFetch(a.url + location, 'PATCH', { ...auth, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, deterministicBytes(9, offset, size));
    expect(res.status, res.text).toBe(204);
    expect(await storedSha256(seed, res.headers.get('x-item-id')!)).toBe(sha256OfDeterministic(9, size));
  });

  it('makes a PATCH on one node wait while the upload is locked elsewhere', async () => {
    const [a, b] = (await nodes(2)) as [RunningServer, RunningServer];
    const seed = await seedOf(a);
    const { client } = await registerUser(a.url);
    const auth = authHeaders(client, await createToken(client));
    const created = await tusFetch(a.url + TUS, 'POST', { ...auth, 'Upload-Length': '10', 'Upload-Metadata': tusMetadata({ filename: 'wait.txt', filetype: 'text/plain', parent_id: '', path: '' }) });
    const location = new URL(created.headers.get('location')!, a.url).pathname;
    const id = location.split('/').pop()!;
    const old = '2000-01-01T00:00:00.000Z';
    await seed.db.updateTable('upload_reservations').set({ touched_at: old }).where('id', '=', id).execute();

    // Another node's hold on the upload, as the tus locker takes it.
    const holder = new pg.Client({ connectionString: a.databaseUrl });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(2, hashtext($1))', [id]);
      let settled = false;
      const patching = tusFetch(b.url + location, 'PATCH', { ...auth, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, new TextEncoder().encode('0123456789')).finally(() => {
        settled = true;
      });
      // Node B has the request (it marks the upload alive just before taking the lock) and cannot go on.
      await until(async () => (await seed.db.selectFrom('upload_reservations').select('touched_at').where('id', '=', id).executeTakeFirst())?.touched_at, (t) => t !== old, 'node B to get the PATCH');
      expect(settled).toBe(false);
      expect((await sql<{ n: number }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 2 and granted and database = (select oid from pg_database where datname = current_database())`.execute(seed.db)).rows[0]!.n).toBe(1);
      await holder.query('select pg_advisory_unlock(2, hashtext($1))', [id]);
      const res = await patching;
      expect(res.status, res.text).toBe(204);
      expect(res.headers.get('x-item-id')).toBeTruthy();
    } finally {
      await holder.end();
    }
  });
});
