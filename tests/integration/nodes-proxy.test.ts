import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { openEvents, type OpenStream } from '../support/events.ts';
import { browse, mkdir } from '../support/files.ts';
import { startRoundRobin, type Forwarded, type RoundRobin } from '../support/round-robin.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { share, visitor } from '../support/shares.ts';
import { authHeaders, deterministicBytes, tusMetadata, uploadForm } from '../support/uploads.ts';

// Three app nodes on one PostgreSQL database and one S3 bucket (s3rver), behind a round-robin
// proxy: every request goes to the next node, so consecutive requests of one user never meet the
// same node twice in a row. The nodes share DATA_DIR too: tus staging (DATA_DIR/uploads/tus) and
// the instance key (DATA_DIR/instance.key) live there. SQLite is one process by design.
const onPostgres = process.env.TEST_DB === 'postgres';

let nodes: RunningServer[] = [];
let proxy: RoundRobin;
beforeAll(async () => {
  if (!onPostgres) return;
  // The nodes' public address is the proxy's (APP_URL: links, the Origin check), so its port comes first.
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const first = await startServer({ db: 'postgres', storage: 's3', env: { APP_URL: appUrl } });
  nodes = [first];
  // The third node lingers after SIGTERM (readiness failing, still serving), as a rolling restart would have it.
  nodes.push(await startServer({ alongside: first, env: { APP_URL: appUrl } }));
  nodes.push(await startServer({ alongside: first, env: { APP_URL: appUrl, SHUTDOWN_DELAY_SECONDS: '60' } }));
  proxy = await startRoundRobin(
    nodes.map((n) => n.url),
    port,
  );
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  for (const node of nodes.slice(1).reverse()) await node.kill();
  await nodes[0]?.stop();
});

const open: OpenStream[] = [];
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});

/** The requests the proxy passed on since `from`, with a path starting `prefix`. */
const since = (from: number, method: string, prefix: string): Forwarded[] => proxy.forwarded.slice(from).filter((f) => f.method === method && f.path.startsWith(prefix));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function tus(url: string, init: { method: string; headers: Record<string, string>; body?: Uint8Array }) {
  const res = await fetch(url, { method: init.method, headers: { 'Tus-Resumable': '1.0.0', ...init.headers }, body: init.body ? new Uint8Array(init.body) : null, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe.skipIf(!onPostgres)('three app nodes on one PostgreSQL and one S3 bucket behind a round-robin proxy (skipped on SQLite: one process by design)', () => {
  it('signs up and in on one node and keeps the session on every node; folders, uploads, listing, Range, zip and a share link work across them', async () => {
    // Every node on the same bucket and data dir.
    expect(nodes.map((n) => n.storageEnv.STORAGE_DRIVER)).toEqual(['s3', 's3', 's3']);
    expect(new Set(nodes.map((n) => `${n.storageEnv.S3_ENDPOINT} ${n.storageEnv.S3_BUCKET} ${n.dataDir}`)).size).toBe(1);
    const mark = proxy.forwarded.length;
    const { client } = await registerUser(proxy.url);
    // The session made on one node is accepted by each of the three.
    for (let i = 0; i < 3; i++) expect((await client.get('/api/user')).status).toBe(200);
    expect(new Set(since(mark, 'GET', '/api/user').map((f) => f.node))).toEqual(new Set([0, 1, 2]));

    const folder = await mkdir(client, 'Across nodes');
    const inner = await mkdir(client, 'Inner', folder);

    // tus: created on one node, three PATCHes each on another node, finished on the last.
    const size = 3 * 256 * 1024 + 1234;
    const bytes = deterministicBytes(16, 0, size);
    const auth = authHeaders(client);
    const tusMark = proxy.forwarded.length;
    const created = await tus(`${proxy.url}/api/upload/tus`, { method: 'POST', headers: { ...auth, 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata({ filename: 'film.bin', parent_id: folder, path: '' }) } });
    expect(created.status, created.text).toBe(201);
    const url = new URL(created.headers.get('location')!, proxy.url).href;
    const cuts = [0, 256 * 1024, 2 * 256 * 1024, size];
    let itemHeader: string | null = null;
    for (let i = 0; i < 3; i++) {
      const head = await tus(url, { method: 'HEAD', headers: auth });
      expect(head.headers.get('upload-offset')).toBe(String(cuts[i]));
      const res = await fetch(url, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', ...auth, 'Upload-Offset': String(cuts[i]), 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(bytes.subarray(cuts[i], cuts[i + 1])) });
      expect(res.status, await res.text()).toBe(204);
      itemHeader = res.headers.get('x-item');
    }
    const patches = since(tusMark, 'PATCH', '/api/upload/tus/').map((f) => f.node);
    expect(patches).toHaveLength(3);
    expect(new Set(patches).size).toBe(3);
    expect(since(tusMark, 'POST', '/api/upload/tus')[0]!.node).not.toBe(patches[0]);
    const film = JSON.parse(decodeURIComponent(itemHeader!)).data;
    expect(film.attributes).toMatchObject({ name: 'film.bin', size });

    // A plain (multipart) upload into the inner folder.
    const notes = Buffer.from('notes written through the proxy\n'.repeat(200));
    const plain = await uploadForm(client, notes, { filename: 'notes.txt', parent_id: inner, path: '' }, { type: 'text/plain' });
    expect(plain.status, plain.text).toBe(201);

    // Listing, on whichever node.
    expect((await browse(client, folder)).names.sort()).toEqual(['Inner', 'film.bin']);
    expect((await browse(client, inner)).names).toEqual(['notes.txt']);

    // The whole file, then ranges, each from another node, all read from the bucket.
    const whole = await download(proxy.url, `/file/${film.id}`, client);
    expect(whole.status).toBe(200);
    expect(sha256(whole.body)).toBe(sha256(bytes));
    for (const [from, to] of [
      [0, 99],
      [256 * 1024 - 10, 256 * 1024 + 10],
      [size - 50, size - 1],
    ] as const) {
      const part = await download(proxy.url, `/file/${film.id}`, client, { Range: `bytes=${from}-${to}` });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes ${from}-${to}/${size}`);
      expect(part.body.equals(bytes.subarray(from, to + 1))).toBe(true);
    }

    // A zip of the folder streams from the bucket: both files inside, stored whole.
    const zip = await download(proxy.url, `/api/zip?items=${encodeURIComponent(`${folder}|folder`)}`, client);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.body.subarray(0, 2).toString()).toBe('PK');
    expect(zip.body.includes('film.bin')).toBe(true);
    expect(zip.body.includes('notes.txt')).toBe(true);
    expect(zip.body.length).toBeGreaterThan(size);

    // A share link made on one node, opened by a visitor on the others.
    const link = await share(client, folder);
    const guest = visitor(proxy.url);
    for (let i = 0; i < 3; i++) {
      const listed = await guest.get(`/api/browse/folders/all/${link.token}`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.data.map((d: any) => d.attributes.name).sort()).toEqual(['Inner', 'film.bin']);
    }
    const innerListed = await guest.get(`/api/browse/folders/${inner}/${link.token}`);
    expect(innerListed.status, innerListed.text).toBe(200);
    const sharedNotes = await download(proxy.url, innerListed.body.data[0].attributes.file_url, guest);
    expect(sharedNotes.status).toBe(200);
    expect(sharedNotes.body.equals(notes)).toBe(true);
  });

  it('counts sign-in attempts across nodes: the per-address limit is reached though each node saw only some of them', async () => {
    const { email } = await registerUser(proxy.url, { email: uniqueEmail('limits') });
    const guesser = new Client(proxy.url);
    const mark = proxy.forwarded.length;
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await guesser.post('/login', { email, password: `wrong guess ${i}` })).status);
    // Nine attempts over three nodes: three each, fewer than the five any one node would need on its own.
    expect(since(mark, 'POST', '/login').filter((f) => f.node === 0)).toHaveLength(3);
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
  });

  it('delivers a folder made through one node to a live event stream open through another', async () => {
    const { client } = await registerUser(proxy.url);
    const mark = proxy.forwarded.length;
    const stream = await openEvents(client);
    open.push(stream);
    expect(stream.status).toBe(200);
    await expect.poll(() => stream.comments).toContain('connected');
    const folder = await mkdir(client, 'Made elsewhere');
    const streamNode = since(mark, 'GET', '/api/events')[0]!.node;
    const folderNode = since(mark, 'POST', '/api/create-folder')[0]!.node;
    expect(folderNode).not.toBe(streamNode);
    await expect
      .poll(() => stream.events.filter((e) => e.event === 'items').map((e) => e.data), { timeout: 2_000 })
      .toContainEqual({ folder_ids: [null], item_ids: [folder] });
  });

  it('needs no shared DATA_DIR for tus on S3: a node with a data dir of its own takes up an upload begun elsewhere (staged in the bucket), and plain uploads and downloads work there', async () => {
    const ownDir = await mkdtemp(path.join(os.tmpdir(), 'cd-test-own-'));
    const loner = await startServer({ alongside: nodes[0]!, env: { APP_URL: proxy.url, DATA_DIR: ownDir } });
    try {
      const { client } = await registerUser(proxy.url);
      const auth = authHeaders(client);
      const created = await tus(`${nodes[0]!.url}/api/upload/tus`, { method: 'POST', headers: { ...auth, 'Upload-Length': '2000', 'Upload-Metadata': tusMetadata({ filename: 'staged.bin' }) } });
      expect(created.status, created.text).toBe(201);
      const id = new URL(created.headers.get('location')!, proxy.url).pathname;
      const body = deterministicBytes(17, 0, 1000);
      expect((await tus(`${nodes[0]!.url}${id}`, { method: 'PATCH', headers: { ...auth, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body })).status).toBe(204);
      // Every node sees the staged bytes, the loner too, and the loner finishes the upload.
      expect((await tus(`${nodes[1]!.url}${id}`, { method: 'HEAD', headers: auth })).headers.get('upload-offset')).toBe('1000');
      expect((await tus(`${loner.url}${id}`, { method: 'HEAD', headers: auth })).headers.get('upload-offset')).toBe('1000');
      const patchOnLoner = await tus(`${loner.url}${id}`, { method: 'PATCH', headers: { ...auth, 'Upload-Offset': '1000', 'Content-Type': 'application/offset+octet-stream' }, body: deterministicBytes(17, 1000, 2000) });
      expect(patchOnLoner.status, patchOnLoner.text).toBe(204);
      const staged = await download(nodes[1]!.url, `/file/${patchOnLoner.headers.get('x-item-id')}`, client);
      expect(sha256(staged.body)).toBe(sha256(deterministicBytes(17, 0, 2000)));
      // A plain upload stages nothing between requests: it works on the loner and reads back on another node.
      const direct = new Client(loner.url);
      for (const [name, value] of client.cookies) direct.cookies.set(name, value);
      const form = new FormData();
      form.append('filename', 'plain.txt');
      form.append('file', new Blob(['plain bytes on the loner']), 'plain.txt');
      const plain = await direct.request('/api/upload', { method: 'POST', body: form, origin: proxy.url });
      expect(plain.status, plain.text).toBe(201);
      const back = await download(nodes[1]!.url, `/file/${plain.body.data.id}`, client);
      expect(back.body.toString()).toBe('plain bytes on the loner');
    } finally {
      await loner.kill();
      await rm(ownDir, { recursive: true, force: true });
    }
  });

  it('answers 503 on /readyz of a node after SIGTERM while the other nodes stay ready and keep serving', async () => {
    const leaving = nodes[2]!;
    expect((await fetch(`${leaving.url}/readyz`)).status).toBe(200);
    process.kill(leaving.pid, 'SIGTERM');
    await expect.poll(async () => (await fetch(`${leaving.url}/readyz`)).status).toBe(503);
    const draining = await (await fetch(`${leaving.url}/readyz`)).json();
    expect(draining.status).toBe('draining');
    for (const node of nodes.slice(0, 2)) expect((await fetch(`${node.url}/readyz`)).status).toBe(200);
    // The others still serve a signed-in user (a balancer would have stopped sending it to the leaving one).
    const { client } = await registerUser(proxy.url);
    for (const node of nodes.slice(0, 2)) {
      const direct = new Client(node.url);
      for (const [name, value] of client.cookies) direct.cookies.set(name, value);
      expect((await direct.get('/api/user')).status).toBe(200);
    }
  });
});
