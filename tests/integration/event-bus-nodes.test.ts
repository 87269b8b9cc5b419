import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/env.ts';
import { createContext } from '../../src/server/context.ts';
import { createEventBus } from '../../src/server/events/bus.ts';
import { createFolder } from '../../src/server/files/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { openEvents, type OpenStream } from '../support/events.ts';
import { mkdir } from '../support/files.ts';
import { userById } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { uploadTo } from '../support/shares.ts';

// Two app nodes share one PostgreSQL database and data dir; events cross through LISTEN/NOTIFY.
// SQLite is one process by design (its bus stays in-process), so there is nothing to cross there.
const onPostgres = process.env.TEST_DB === 'postgres';

let nodeA: RunningServer;
let nodeB: RunningServer;
beforeAll(async () => {
  if (!onPostgres) return;
  nodeA = await startServer();
  nodeB = await startServer({ alongside: nodeA });
});
afterAll(async () => {
  await nodeB?.stop();
  await nodeA?.stop();
});

const open: OpenStream[] = [];
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});

/** A stream on node A for the user; it says "connected" once the node holds it. */
async function streamOnA(client: Client): Promise<OpenStream> {
  const stream = await openEvents(client);
  open.push(stream);
  expect(stream.status).toBe(200);
  await expect.poll(() => stream.comments).toContain('connected');
  return stream;
}

/** The same signed-in user, talking to node B (sessions live in the database). */
function onNodeB(client: Client): Client {
  const other = new Client(nodeB.url);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return other;
}

/** A file arriving through an upload request on node B: B stores a `file-request` notification for the owner. */
async function notificationThroughB(owner: Client, name: string): Promise<void> {
  const folder = await mkdir(owner, `Inbox ${Math.random().toString(36).slice(2, 8)}`);
  const created = await owner.post('/api/upload-request', { folder_id: folder });
  expect(created.status, created.text).toBe(201);
  const up = await uploadTo(new Client(nodeB.url), `/api/upload-request/${created.body.data.attributes.token}/upload`, 'bytes', {}, name);
  expect(up.status, up.text).toBe(201);
}

const notificationsOf = (stream: OpenStream) => stream.events.filter((e) => e.event === 'notification');
const itemsOf = (stream: OpenStream) => stream.events.filter((e) => e.event === 'items').map((e) => e.data);
const logged = (server: RunningServer, msg: string) => server.logs.filter((line) => line.includes(`"msg":"${msg}"`)).map((line) => JSON.parse(line));

describe.skipIf(!onPostgres)('the event bus across two app nodes on one PostgreSQL (skipped on SQLite: one process, in-process bus)', () => {
  it('delivers a notification stored on node B and a folder made on node B to a stream open on node A within a second', async () => {
    const { client, user } = await registerUser(nodeA.url);
    const stream = await streamOnA(client);
    const b = onNodeB(client);

    await notificationThroughB(b, 'scan.pdf');
    await expect.poll(() => notificationsOf(stream).length, { timeout: 1_000 }).toBe(1);
    expect(notificationsOf(stream)[0]!.data.data).toMatchObject({ type: 'notification', attributes: { category: 'file-request' } });

    const folder = await mkdir(b, 'Made on B');
    await expect.poll(() => itemsOf(stream), { timeout: 1_000 }).toContainEqual({ folder_ids: [null], item_ids: [folder] });

    // `upload.finished` stays on the node that emitted it: the request recorded the file and told its owner once, not once per node.
    const db = new pg.Client({ connectionString: nodeA.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('select count(*)::int as n from notifications where user_id = $1', [user.id]);
      expect(rows[0].n).toBe(1);
    } finally {
      await db.end();
    }
  });

  it("sends a move too large for one NOTIFY as a refresh of everything the owner's", async () => {
    const { client, user } = await registerUser(nodeA.url);
    const from = await mkdir(client, 'Many');
    const to = await mkdir(client, 'Elsewhere');
    // Seeded through product code on a bus of its own, so the 900 creations are not announced to the nodes.
    const config = await loadConfig({ DATA_DIR: nodeA.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: nodeA.databaseUrl! }, nodeA.dataDir);
    const seed = await createContext(config, { events: createEventBus() });
    const ids: string[] = [];
    try {
      const owner = await userById(seed, user.id);
      for (let i = 0; i < 900; i += 1) ids.push((await createFolder(seed, owner, { name: `f${i}`, parent_id: from })).id);
    } finally {
      await seed.db.destroy();
    }
    const stream = await streamOnA(client);

    const moved = await onNodeB(client).post('/api/move', { to_id: to, items: ids.map((id) => ({ id, type: 'folder' })) });
    expect(moved.status, moved.text).toBe(200);
    await expect.poll(() => itemsOf(stream)).toEqual([{ folder_ids: [], item_ids: [], everything: true }]);
  });

  it('hears node B again after node A lost its LISTEN connection and opened it anew, ending the streams that may have missed events', async () => {
    const before = await streamOnA((await registerUser(nodeA.url)).client);
    const [listening] = logged(nodeA, 'event bus: listening to the other nodes');
    const applicationName = listening.applicationName as string;
    expect(applicationName).toMatch(/^cloud-drive events /);
    const db = new pg.Client({ connectionString: nodeA.databaseUrl });
    await db.connect();
    try {
      const pidOf = async () => (await db.query('select pid from pg_stat_activity where application_name = $1', [applicationName])).rows.map((r) => r.pid as number);
      const [pid] = await pidOf();
      expect(pid).toBeTypeOf('number');
      expect((await db.query('select pg_terminate_backend($1) as ok', [pid])).rows[0].ok).toBe(true);

      await expect.poll(() => logged(nodeA, 'event bus: the LISTEN connection was lost; reconnecting').length).toBe(1);
      await expect.poll(() => logged(nodeA, 'event bus: listening to the other nodes').filter((l) => l.reconnected).length, { timeout: 5_000 }).toBe(1);
      const [next] = await pidOf();
      expect(next).toBeTypeOf('number');
      expect(next).not.toBe(pid);
      // The browser reopens it: stored notifications replay after its Last-Event-ID, listings are refetched.
      await expect.poll(() => before.ended).toBe(true);
    } finally {
      await db.end();
    }

    const { client } = await registerUser(nodeA.url);
    const stream = await streamOnA(client);
    await notificationThroughB(onNodeB(client), 'after.pdf');
    await expect.poll(() => notificationsOf(stream).length, { timeout: 1_000 }).toBe(1);
  });
});
