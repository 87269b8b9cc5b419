import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { Client, registerUser } from '../support/client.ts';
import { openEvents, type OpenStream } from '../support/events.ts';
import { mkdir } from '../support/files.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { uploadTo } from '../support/shares.ts';
import { seedMember, seedTeam } from '../support/teams.ts';
import { createToken, uploadForm } from '../support/uploads.ts';

const MAX_STREAMS = 3;
let server: RunningServer;
let seed: AppContext;
beforeAll(async () => {
  server = await startServer({ env: { EVENTS_HEARTBEAT_MS: '100', EVENTS_MAX_STREAMS: String(MAX_STREAMS) } });
  seed = await seedContext(server);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

const open: OpenStream[] = [];
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});
async function events(...args: Parameters<typeof openEvents>): Promise<OpenStream> {
  const stream = await openEvents(...args);
  open.push(stream);
  return stream;
}

/** A file arriving through an upload request: the server stores a `file-request` notification for the owner. */
async function fileRequestNotification(owner: Client, name = 'scan.pdf'): Promise<void> {
  const folder = await mkdir(owner, `Inbox ${Math.random().toString(36).slice(2, 8)}`);
  const created = await owner.post('/api/upload-request', { folder_id: folder });
  expect(created.status, created.text).toBe(201);
  const up = await uploadTo(new Client(server.url), `/api/upload-request/${created.body.data.attributes.token}/upload`, 'bytes', {}, name);
  expect(up.status, up.text).toBe(201);
}

const notificationsOf = (stream: OpenStream) => stream.events.filter((e) => e.event === 'notification');

describe('GET /api/events', () => {
  it('refuses a signed-out client and a wrong token with 401, and other methods with 405', async () => {
    const anonymous = await events(new Client(server.url));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'unauthenticated' });
    const wrong = await events(new Client(server.url), { bearer: 'cd_wrongwrongwrongwrongwrongwrongwr' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'invalid_token' });
    const { client } = await registerUser(server.url);
    const post = await client.post('/api/events', {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('opens with the session cookie or a bearer token, with the headers of an unbuffered event stream and heartbeats', async () => {
    const { client } = await registerUser(server.url);
    const byCookie = await events(client);
    expect(byCookie.status).toBe(200);
    expect(byCookie.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(byCookie.headers.get('cache-control')).toBe('no-store');
    expect(byCookie.headers.get('x-accel-buffering')).toBe('no');
    await expect.poll(() => byCookie.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2);
    const byToken = await events(new Client(server.url), { bearer: await createToken(client) });
    expect(byToken.status).toBe(200);
    await expect.poll(() => byToken.comments).toContain('connected');
  });

  it("delivers a notification the moment it is stored, to its user's streams only", async () => {
    const owner = await registerUser(server.url);
    const other = await registerUser(server.url);
    const mine = await events(owner.client);
    const theirs = await events(other.client);
    await fileRequestNotification(owner.client);
    await expect.poll(() => notificationsOf(mine).length).toBe(1);
    const [note] = notificationsOf(mine);
    expect(note!.data.data).toMatchObject({ type: 'notification', attributes: { category: 'file-request', read_at: null, action: { type: 'route' } } });
    expect(note!.id).toBe(`${note!.data.data.attributes.created_at}/${note!.data.data.id}`);
    // The other user's stream gets its own changes (its folder) and never the owner's notification.
    await mkdir(other.client, 'Theirs');
    await expect.poll(() => theirs.events.filter((e) => e.event === 'items').length).toBe(1);
    expect(notificationsOf(theirs)).toEqual([]);
  });

  it('tells the owner which folders changed when items are created, renamed, moved and trashed', async () => {
    const { client } = await registerUser(server.url);
    const stream = await events(client);
    const folder = await mkdir(client, 'Projects');
    const up = await uploadForm(client, 'hello', { parent_id: folder }, { fileName: 'a.txt' });
    expect(up.status, up.text).toBe(201);
    const file = up.body.data.id as string;
    expect((await client.post(`/api/rename/${file}`, { _method: 'patch', name: 'b.txt', type: 'file' })).status).toBe(200);
    expect((await client.post('/api/move', { to_id: null, items: [{ id: file, type: 'file' }] })).status).toBe(200);
    expect((await client.post('/api/remove', { items: [{ id: file, type: 'file', force_delete: false }] })).status).toBe(204);
    const changes = () => stream.events.filter((e) => e.event === 'items').map((e) => e.data);
    await expect.poll(() => changes().length).toBe(5);
    expect(changes()).toEqual([
      { folder_ids: [null], item_ids: [folder] },
      { folder_ids: [folder], item_ids: [file] },
      { folder_ids: [folder], item_ids: [file] },
      { folder_ids: [null, folder], item_ids: [file] },
      { folder_ids: [null], item_ids: [file] },
    ]);
  });

  it('tells a team folder’s member of the team’s folders only: an item the owner moves out to a private folder names that folder to the owner alone', async () => {
    const owner = await registerUser(server.url);
    const member = await registerUser(server.url);
    const team = await mkdir(owner.client, 'Team');
    await seedMember(seed, await seedTeam(seed, owner.user.id, team), member.user.id, 'can_edit');
    const inner = await mkdir(owner.client, 'Inner', team);
    const privateFolder = await mkdir(owner.client, 'Private');
    const ownerStream = await events(owner.client);
    const memberStream = await events(member.client);
    const up = await uploadForm(owner.client, 'hello', { parent_id: inner }, { fileName: 'a.txt' });
    expect(up.status, up.text).toBe(201);
    const file = up.body.data.id as string;
    expect((await owner.client.post('/api/move', { to_id: privateFolder, items: [{ id: file, type: 'file' }] })).status).toBe(200);
    const changes = (stream: OpenStream) => stream.events.filter((e) => e.event === 'items').map((e) => e.data);
    await expect.poll(() => changes(ownerStream).length).toBe(2);
    await expect.poll(() => changes(memberStream).length).toBe(2);
    expect(changes(ownerStream)).toEqual([
      { folder_ids: [inner], item_ids: [file] },
      { folder_ids: expect.arrayContaining([inner, privateFolder]), item_ids: [file] },
    ]);
    expect(changes(memberStream)).toEqual([
      { folder_ids: [inner], item_ids: [file] },
      { folder_ids: [inner], item_ids: [file] },
    ]);
    // A change wholly outside the team folders reaches the owner alone: the member's next one is the team's.
    const elsewhere = await mkdir(owner.client, 'Elsewhere', privateFolder);
    const later = await mkdir(owner.client, 'Later', inner);
    await expect.poll(() => changes(memberStream).length).toBe(3);
    expect(changes(memberStream)[2]).toEqual({ folder_ids: [inner], item_ids: [later] });
    await expect.poll(() => changes(ownerStream).length).toBe(4);
    expect(changes(ownerStream)[2]).toEqual({ folder_ids: [privateFolder], item_ids: [elsewhere] });
  });

  it('closes a stream whose session signs out, and sends it no event from then on', async () => {
    const { client, email, password } = await registerUser(server.url);
    const stream = await events(client);
    await mkdir(client, 'Before');
    await expect.poll(() => stream.events.length).toBe(1);
    // The same account goes on in another browser: its changes are no longer this stream's business.
    const elsewhere = new Client(server.url);
    expect((await elsewhere.post('/login', { email, password })).status).toBe(200);
    expect((await client.request('/logout', { method: 'POST' })).status).toBe(204);
    await mkdir(elsewhere, 'After');
    await expect.poll(() => stream.ended).toBe(true);
    expect(stream.events.map((e) => e.data.item_ids?.length)).toEqual([1]);
  });

  it('closes a token’s stream when the token is revoked, idle or not, and a stream of an account being deleted', async () => {
    const { client } = await registerUser(server.url);
    const created = await client.post('/api/user/tokens', { name: 'events' });
    expect(created.status, created.text).toBe(201);
    const stream = await events(new Client(server.url), { bearer: created.body.meta.token });
    await expect.poll(() => stream.comments).toContain('heartbeat');
    expect((await client.post(`/api/user/tokens/${created.body.data.id}`, { _method: 'delete' })).status).toBe(204);
    // Nothing happens in the account: the next heartbeat's check closes it.
    await expect.poll(() => stream.ended).toBe(true);
    expect(stream.events).toEqual([]);

    const doomed = await registerUser(server.url);
    const open = await events(doomed.client);
    await expect.poll(() => open.comments).toContain('heartbeat');
    await seed.db.updateTable('users').set({ deletion_started_at: new Date().toISOString() }).where('id', '=', doomed.user.id).execute();
    await expect.poll(() => open.ended).toBe(true);
  });

  it('resumes after Last-Event-ID (header or query) with what was stored meanwhile, re-read from the database', async () => {
    const { client, user } = await registerUser(server.url);
    const first = await events(client);
    await fileRequestNotification(client, 'one.pdf');
    await expect.poll(() => notificationsOf(first).length).toBe(1);
    const seen = notificationsOf(first)[0]!.id!;
    first.close();
    await fileRequestNotification(client, 'two.pdf');
    const stored = await seed.db.selectFrom('notifications').select(['id', 'title', 'description']).where('user_id', '=', user.id).orderBy('created_at', 'asc').execute();
    expect(stored).toHaveLength(2);

    const resumed = await events(client, { headers: { 'Last-Event-ID': seen } });
    await expect.poll(() => notificationsOf(resumed).map((e) => e.data.data.id)).toEqual([stored[1]!.id]);
    const byQuery = await events(client, { query: `?last_event_id=${encodeURIComponent(seen)}` });
    await expect.poll(() => notificationsOf(byQuery).map((e) => e.data.data.id)).toEqual([stored[1]!.id]);
    // The header wins over a stale query (a browser's own reconnect keeps the URL it opened with).
    const latest = notificationsOf(resumed)[0]!.id!;
    const both = await events(client, { headers: { 'Last-Event-ID': latest }, query: `?last_event_id=${encodeURIComponent(seen)}` });
    await expect.poll(() => both.comments).toContain('connected');
    expect(notificationsOf(both)).toEqual([]);
  });

  it('refuses a malformed Last-Event-ID with 400', async () => {
    const { client } = await registerUser(server.url);
    for (const bad of ['42', 'not-a-date/0b8f2f3e-1c1d-4c7e-9a55-4c1f5d0d8a11', '2026-11-24T10:00:00.000Z/nope', `${'x'.repeat(200)}`]) {
      const res = await events(client, { headers: { 'Last-Event-ID': bad } });
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_last_event_id' });
    }
  });

  it(`caps open streams per user at ${MAX_STREAMS} (429), and frees a place when one closes`, async () => {
    const { client } = await registerUser(server.url);
    const other = await registerUser(server.url);
    const streams = [];
    for (let i = 0; i < MAX_STREAMS; i += 1) {
      const stream = await events(client);
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    const refused = await events(client);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'too_many_streams' });
    expect(refused.body.message).toMatch(/at most 3/);
    expect((await events(other.client)).status).toBe(200);
    streams[0]!.close();
    await expect.poll(async () => (await events(client)).status).toBe(200);
  });
});

describe('shutting down', () => {
  it('ends open event streams instead of waiting for them', async () => {
    const own = await startServer({ env: { EVENTS_HEARTBEAT_MS: '100' } });
    try {
      const { client } = await registerUser(own.url);
      const stream = await events(client);
      expect(stream.status).toBe(200);
      await expect.poll(() => stream.comments).toContain('heartbeat');
    } finally {
      await own.stop();
    }
    // A clean stop logs "stopped"; a stop that waited for the stream would be forced out (exit 1) without it.
    expect(own.logs.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
  });
});
