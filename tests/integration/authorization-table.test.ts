import { randomUUID } from 'node:crypto';
import { jsonArrayFrom as pgJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { makeThumbnails } from '../../src/server/previews/thumbnails.ts';
import {
  apiRoutesOnDisk,
  type Call,
  dataRoutesOnDisk,
  expected,
  type Helpers,
  NOT_ITEM_DATA_ROUTES,
  NOT_ITEM_ROUTES,
  type ObjectName,
  objectsFor,
  type Outcome,
  OWNERS,
  PRINCIPALS,
  type Principal,
  refusalCode,
  ROWS,
  type Row,
  type Target,
} from '../support/authz-table.ts';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedFile, seedFolder, useSeededServer } from '../support/seed.ts';
import { share, uploadTo } from '../support/shares.ts';
import { accept, createTeam, invite, madeUpInvitationId, seedInvitation, seedMember, seedTeam, teamOf } from '../support/teams.ts';
import { createToken } from '../support/uploads.ts';

/**
 * The authorization table (tests/support/authz-table.ts) run over HTTP against one server per
 * database: every item route × every principal of its plane × every object, each cell's status,
 * and for a refusal, that nothing changed.
 */
const env = useSeededServer();

type Account = Awaited<ReturnType<typeof registerUser>> & { bearer: string };
interface Scope {
  token: string;
  root: string;
  sub: string;
  /** Closed requests: what the holder uploaded before it closed (file and folder). */
  uploaded?: { file: Target; folder: Target };
}

interface World {
  owner: Account;
  other: Account;
  stranger: Account;
  admin: Account;
  revokedBearer: string;
  ownerHome: string;
  strangerHome: string;
  remoteJob: string;
  links: Record<'visitor' | 'editor' | 'protected' | 'different' | 'expired' | 'revoked' | 'stranger', Scope>;
  requests: Record<'active' | 'another' | 'filled' | 'expired', Scope>;
  teams: Teams;
  clients: Map<Principal, Client>;
}

/** The team plane's world: the owner's team folder and the people around it. */
interface Teams {
  /** The owner's team folder, with a folder inside that moves aim at. */
  root: TeamScope;
  /** A team folder of the owner's that was dissolved (its former member's scope). */
  dissolved: TeamScope;
  teamId: string;
  /** A team of the stranger's, whose invitations the owner gets. */
  strangerTeam: string;
  people: Record<'editor' | 'viewer' | 'removed' | 'dissolved' | 'otherTeam' | 'invited' | 'spare', Account>;
  /** The memberships as built, put back after a cell that may change them. */
  memberships: { teamId: string; userId: string; permission: 'can_edit' | 'can_view' }[];
}

interface TeamScope {
  id: string;
  name: string;
  sub: string;
}

let w: World;

async function account(): Promise<Account> {
  const registered = await registerUser(env.server.url);
  return { ...registered, bearer: await createToken(registered.client) };
}

const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

async function png(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

/** A fresh item of `userId` in `parentId` (a PNG with thumbnails when asked). */
async function makeItem(userId: string, parentId: string | null, kind: 'file' | 'folder', thumbnail = false, prefix: string = kind): Promise<Target> {
  const name = unique(prefix);
  if (kind === 'folder') return { id: await seedFolder(env.seed, userId, name, parentId), type: 'folder', name, token: '' };
  const file = thumbnail
    ? await seedFile(env.seed, userId, { name: `${name}.png`, parentId, mimetype: 'image/png', content: await png() })
    : await seedFile(env.seed, userId, { name: `${name}.txt`, parentId, content: 'table' });
  if (thumbnail) expect((await makeThumbnails(env.seed, file.id)).outcome).toBe('made');
  return { id: file.id, type: 'file', name: file.name, token: '' };
}

/** Puts a folder on its owner's favourites (even a trashed one: a refusal must leave the mark). */
async function favourite(target: Target): Promise<void> {
  const item = await env.seed.db.selectFrom('items').select('owner_id').where('id', '=', target.id).executeTakeFirst();
  if (item) await env.seed.db.insertInto('favourites').values({ user_id: item.owner_id, item_id: target.id, created_at: new Date().toISOString() }).execute();
}

async function trash(target: Target): Promise<Target> {
  const res = await w.owner.client.post('/api/remove', { items: [{ id: target.id, type: target.type }] });
  expect(res.status, res.text).toBe(204);
  return target;
}

/** A request holder's own upload (a file) or folder inside the request's folder. */
async function holderItem(token: string, kind: 'file' | 'folder', parentId = ''): Promise<Target> {
  const client = new Client(env.server.url);
  const name = unique('holder');
  const res =
    kind === 'file'
      ? await uploadTo(client, `/api/upload-request/${token}/upload`, 'from the holder', parentId ? { parent_id: parentId } : {}, `${name}.txt`)
      : await client.post(`/api/upload-request/${token}/create-folder`, { name, ...(parentId ? { parent_id: parentId } : {}) });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.data.id, type: kind, name: res.body.data.attributes.name, token };
}

async function buildWorld(): Promise<World> {
  const [owner, other, stranger, admin] = [await account(), await account(), await account(), await account()];
  await env.seed.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
  const revoked = await owner.client.post('/api/user/tokens', { name: 'revoked' });
  expect((await owner.client.request(`/api/user/tokens/${revoked.body.data.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
  const ownerHome = await mkdir(owner.client, 'Owner home');
  const strangerHome = await mkdir(stranger.client, 'Stranger home');

  const link = async (account: Account, name: string, body: Record<string, unknown>): Promise<Scope> => {
    const root = await mkdir(account.client, name);
    const sub = await mkdir(account.client, 'Sub', root);
    return { token: (await share(account.client, root, body)).token, root, sub };
  };
  const links = {
    visitor: await link(owner, 'Shared for visitors', {}),
    editor: await link(owner, 'Shared for editors', { permission: 'editor' }),
    protected: await link(owner, 'Shared with a password', { permission: 'editor', password: 'open sesame' }),
    different: await link(owner, 'Shared elsewhere', { permission: 'editor' }),
    expired: await link(owner, 'Shared expired', { permission: 'editor', expiration: 1 }),
    revoked: await link(owner, 'Shared revoked', { permission: 'editor' }),
    stranger: await link(stranger, 'Stranger shared', { permission: 'editor' }),
  };
  await env.seed.db.updateTable('shares').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token', '=', links.expired.token).execute();
  expect((await owner.client.post('/api/share/revoke', { _method: 'delete', tokens: [links.revoked.token] })).status).toBe(204);

  const request = async (name: string, close?: 'filled' | 'expired'): Promise<Scope> => {
    const folder = await mkdir(owner.client, name);
    const res = await owner.client.post('/api/upload-request', { folder_id: folder });
    expect(res.status, res.text).toBe(201);
    const token = res.body.data.attributes.token as string;
    const sub = (await holderItem(token, 'folder')).id;
    const uploaded = { file: await holderItem(token, 'file'), folder: await holderItem(token, 'folder') };
    if (close === 'filled') expect((await new Client(env.server.url).request(`/api/upload-request/${token}`, { method: 'DELETE' })).status).toBe(200);
    if (close === 'expired') await env.seed.db.updateTable('upload_requests').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token', '=', token).execute();
    return { token, root: folder, sub, uploaded };
  };
  const requests = { active: await request('Inbox'), another: await request('Inbox elsewhere'), filled: await request('Inbox filled', 'filled'), expired: await request('Inbox expired', 'expired') };

  const teams = await buildTeams(owner, stranger);

  const job = await owner.client.post('/api/upload/remote', { urls: ['http://127.0.0.1:9/nothing.bin'], parent_id: null });
  expect(job.status, job.text).toBe(202);
  await importFinished(owner.client, job.body.data.id);

  return {
    owner,
    other,
    stranger,
    admin,
    revokedBearer: revoked.body.meta.token,
    ownerHome,
    strangerHome,
    remoteJob: job.body.data.id,
    links,
    requests,
    teams,
    clients: new Map(),
  };
}

/**
 * The owner's team folder with a can_edit and a can_view member, a member removed again and an
 * account invited that has not answered; a dissolved team folder with its former member; another
 * team folder of the owner's with its member; a spare account for the member routes; and a
 * team of the stranger's. Made through the API, as users would.
 */
async function buildTeams(owner: Account, stranger: Account): Promise<Teams> {
  const people = {
    editor: await account(),
    viewer: await account(),
    removed: await account(),
    dissolved: await account(),
    otherTeam: await account(),
    invited: await account(),
    spare: await account(),
  };
  const scope = async (name: string): Promise<TeamScope> => {
    const id = await createTeam(owner.client, name);
    return { id, name, sub: await mkdir(owner.client, 'Sub', id) };
  };
  const join = async (folder: string, person: Account, permission: 'can_edit' | 'can_view') => accept(person.client, await invite(owner.client, folder, person.email, permission));
  // Named to come early in the owner's team folders (by name), which the table makes many of.
  const root = await scope(unique('0 Team'));
  await join(root.id, people.editor, 'can_edit');
  await join(root.id, people.viewer, 'can_view');
  await join(root.id, people.removed, 'can_edit');
  expect((await owner.client.request(`/api/teams/folders/${root.id}/members/${people.removed.user.id}`, { method: 'DELETE' })).status).toBe(204);
  await invite(owner.client, root.id, people.invited.email);

  const dissolved = await scope(unique('Dissolved team'));
  await join(dissolved.id, people.dissolved, 'can_edit');
  expect((await owner.client.request(`/api/teams/folders/${dissolved.id}`, { method: 'DELETE' })).status).toBe(204);

  const other = await createTeam(owner.client, unique('Other team'));
  await join(other, people.otherTeam, 'can_edit');
  const strangerTeam = (await teamOf(env.seed, await createTeam(stranger.client, unique('Stranger team'))))!;

  const teamId = (await teamOf(env.seed, root.id))!;
  const otherId = (await teamOf(env.seed, other))!;
  const memberships = [
    { teamId, userId: people.editor.user.id, permission: 'can_edit' as const },
    { teamId, userId: people.viewer.user.id, permission: 'can_view' as const },
    { teamId: otherId, userId: people.otherTeam.user.id, permission: 'can_edit' as const },
  ];
  return { root, dissolved, teamId, strangerTeam, people, memberships };
}

/** Puts the table's memberships back (after a member left). */
async function restoreTeams(): Promise<void> {
  for (const m of w.teams.memberships) await seedMember(env.seed, m.teamId, m.userId, m.permission);
}

/** Waits until a remote import has run (it writes in the background; SQLite takes one writer at a time). */
async function importFinished(client: Client, id: string): Promise<void> {
  await vi.waitFor(async () => expect((await client.get(`/api/upload/remote/${id}`)).body.data.attributes.status).not.toBe('running'), { timeout: 10_000, interval: 20 });
}

// ---- principals

interface Acting {
  client: Client;
  bearer?: string;
  /** The user whose fresh items `mine()` makes (owner plane). */
  userId: string;
  /** Share/request planes: the principal's token and the scope its objects are drawn from. */
  scope?: Scope;
  token?: string;
  /** Team plane: the team folder its objects are drawn from. */
  team?: TeamScope;
  /** Team plane: a member routes' call names the acting user itself. */
  self?: boolean;
}

const TEAM_PEOPLE: Partial<Record<Principal, keyof Teams['people']>> = {
  'can_edit member (cookie)': 'editor',
  'can_edit member (bearer)': 'editor',
  'can_view member': 'viewer',
  'removed member': 'removed',
  'member of a dissolved team': 'dissolved',
  'member of another team of the owner': 'otherTeam',
  'invited, not yet accepted': 'invited',
};

const LINK_OF: Partial<Record<Principal, keyof World['links']>> = {
  'share visitor': 'visitor',
  'share visitor, signed in as the owner': 'visitor',
  'share editor': 'editor',
  'protected link, locked': 'protected',
  'link to a different item': 'different',
  'expired link': 'expired',
  'revoked link': 'revoked',
  'another user’s link': 'stranger',
};
const REQUEST_OF: Partial<Record<Principal, keyof World['requests']>> = {
  'request holder': 'active',
  'request holder, signed in as another user': 'active',
  'holder of another request': 'another', 'filled request': 'filled', 'expired request': 'expired' };

function acting(principal: Principal): Acting {
  const fresh = () => {
    let client = w.clients.get(principal);
    if (!client) w.clients.set(principal, (client = new Client(env.server.url)));
    return client;
  };
  switch (principal) {
    case 'signed out':
      return { client: fresh(), userId: w.owner.user.id };
    case 'wrong bearer token':
      return { client: fresh(), bearer: `cd_${'a'.repeat(32)}`, userId: w.owner.user.id };
    case 'revoked bearer token':
      return { client: fresh(), bearer: w.revokedBearer, userId: w.owner.user.id };
    case 'share token as bearer':
      return { client: fresh(), bearer: w.links.editor.token, userId: w.owner.user.id };
    case 'request token as bearer':
      return { client: fresh(), bearer: w.requests.active.token, userId: w.owner.user.id };
    case 'another user (cookie)':
      return { client: w.other.client, userId: w.other.user.id };
    case 'another user (bearer)':
      return { client: fresh(), bearer: w.other.bearer, userId: w.other.user.id };
    case 'admin, not the owner':
      return { client: w.admin.client, userId: w.admin.user.id };
    case 'owner (cookie)':
      return { client: w.owner.client, userId: w.owner.user.id };
    case 'owner (bearer)':
      return { client: fresh(), bearer: w.owner.bearer, userId: w.owner.user.id };
    case 'made-up link':
      return { client: fresh(), userId: w.owner.user.id, scope: w.links.editor, token: 'f'.repeat(39) };
    case 'made-up request':
      return { client: fresh(), userId: w.owner.user.id, scope: w.requests.active, token: 'g'.repeat(39) };
    case 'the team’s owner':
      return { client: w.owner.client, userId: w.owner.user.id, team: w.teams.root };
  }
  const person = TEAM_PEOPLE[principal];
  if (person) {
    const { client, bearer, user } = w.teams.people[person];
    // A former member of the dissolved team is tried on the items of that folder; everyone else on the team's.
    const team = person === 'dissolved' ? w.teams.dissolved : w.teams.root;
    const viaBearer = principal === 'can_edit member (bearer)';
    return { client: viaBearer ? fresh() : client, ...(viaBearer ? { bearer } : {}), userId: user.id, team, self: true };
  }
  const linkName = LINK_OF[principal];
  if (linkName) {
    const own = w.links[linkName];
    // Links that reach other folders are tried on the editor link's items.
    if (principal === 'share visitor, signed in as the owner') return { client: w.owner.client, userId: w.owner.user.id, scope: own, token: own.token };
    const scope = principal === 'share visitor' || principal === 'protected link, locked' ? own : w.links.editor;
    return { client: fresh(), userId: w.owner.user.id, scope, token: own.token };
  }
  const own = w.requests[REQUEST_OF[principal]!];
  // Another request's holder is tried on the active request's items.
  const scope = principal === 'holder of another request' ? w.requests.active : own;
  const client = principal === 'request holder, signed in as another user' ? w.other.client : fresh();
  return { client, userId: w.owner.user.id, scope, token: own.token };
}

// ---- objects

async function objectFor(row: Row, a: Acting, object: ObjectName): Promise<Target> {
  if (row.kind === 'invitation') return invitationFor(object);
  const kind = row.kind === 'none' ? 'folder' : row.kind;
  const token = a.token ?? '';
  const made = async (userId: string, parent: string | null) => ({ ...(await makeItem(userId, parent, kind, row.thumbnail)), token });
  /** With `teamFolder`, the folder is made the root of a team of its owner's. */
  const teamed = async (userId: string, parent: string | null) => {
    const item = await made(userId, parent);
    if (row.teamFolder) await seedTeam(env.seed, userId, item.id);
    return item;
  };
  const owner = w.owner.user.id;
  switch (object) {
    case 'listing': {
      if (row.listing === 'team root') return { id: a.team!.id, type: 'folder', name: a.team!.name, token };
      if (row.listing === 'in team') return made(owner, a.team!.id);
      if (row.listing === 'team') {
        // Named to come first in the owner's team folders, which this table makes many of.
        const item = await makeItem(owner, w.ownerHome, 'folder', false, '0 listed');
        await seedTeam(env.seed, owner, item.id);
        return item;
      }
      const item = await made(owner, null);
      // A file inside, named after the folder, for the listings of files (latest).
      if (row.listing === 'own') await seedFile(env.seed, owner, { name: `${item.name}.txt`, parentId: item.id });
      if (row.listing === 'trashed') await trash(item);
      if (row.listing === 'shared') await share(w.owner.client, item.id);
      return item;
    }
    case 'own item':
      return teamed(owner, w.ownerHome);
    case 'trashed item':
      return trash(await teamed(owner, w.ownerHome));
    case 'another user’s item':
      return teamed(w.stranger.user.id, w.strangerHome);
    case 'inside the team folder':
      return made(owner, a.team!.id);
    case 'the team folder':
      return { id: a.team!.id, type: 'folder', name: a.team!.name, token };
    case 'the owner’s item outside it':
      return made(owner, w.ownerHome);
    case 'nonexistent id':
      return { id: randomUUID(), type: kind, name: 'missing', token };
    case 'inside the share':
      return made(owner, a.scope!.root);
    case 'the share root':
    case 'the request folder':
      return { id: a.scope!.root, type: 'folder', name: 'root', token };
    case 'outside the share':
    case 'outside the folder':
      return made(owner, w.ownerHome);
    case 'trashed inside the share':
      return trash(await made(owner, a.scope!.root));
    case 'the owner’s item in the folder':
      return made(owner, a.scope!.root);
    case 'uploaded by the holder':
      if (a.scope !== w.requests.active) return { ...a.scope!.uploaded![kind], token };
      return holderItem(a.scope!.token, kind);
  }
}

/** An invitation of the stranger's team: to the owner's address (pending, or revoked for the trashed item) or to someone else's. */
async function invitationFor(object: ObjectName): Promise<Target> {
  const team = w.teams.strangerTeam;
  const inviterId = w.stranger.user.id;
  const id =
    object === 'nonexistent id'
      ? madeUpInvitationId()
      : await seedInvitation(env.seed, team, object === 'another user’s item' ? uniqueEmail('someone') : w.owner.email, { inviterId, status: object === 'trashed item' ? 'revoked' : 'pending' });
  return { id, type: 'folder', name: id, token: '' };
}

/** `touched` collects the other items a call names (the one a move carries), to check them too. */
function helpers(row: Row, a: Acting, touched: string[]): Helpers {
  const mine = async (): Promise<Target> => {
    if (row.plane === 'team') return makeItem(w.owner.user.id, a.team!.id, 'file');
    if (row.plane === 'owner') return makeItem(a.userId, (await makeItem(a.userId, null, 'folder')).id, 'file');
    if (row.plane === 'request') return a.scope !== w.requests.active ? { ...a.scope!.uploaded!.file, token: a.token! } : holderItem(a.scope.token, 'file');
    return makeItem(w.owner.user.id, a.scope!.root, 'file');
  };
  return {
    remoteJob: w.remoteJob,
    sub: a.team?.sub ?? a.scope?.sub ?? w.ownerHome,
    async ownFolder() {
      return (await makeItem(a.userId, null, 'folder')).id;
    },
    async invitation(target) {
      return seedInvitation(env.seed, (await teamOf(env.seed, target.id)) ?? w.teams.teamId, uniqueEmail('pending'), { inviterId: w.owner.user.id });
    },
    async member(target) {
      if (a.self) return a.userId;
      const spare = w.teams.people.spare.user.id;
      await seedMember(env.seed, (await teamOf(env.seed, target.id)) ?? w.teams.teamId, spare, 'can_view');
      return spare;
    },
    async mine() {
      const item = await mine();
      touched.push(item.id);
      return item;
    },
    async shareOf(target) {
      const holder = target.id === 'missing' ? null : (await env.seed.db.selectFrom('items').select(['owner_id', 'deleted_at']).where('id', '=', target.id).executeTakeFirst()) ?? null;
      if (!holder || holder.deleted_at) return 'h'.repeat(39);
      const client = holder.owner_id === w.owner.user.id ? w.owner.client : w.stranger.client;
      return (await share(client, target.id)).token;
    },
  };
}

// ---- sending a call as a principal

async function send(call: Call, a: Acting, plane: Row['plane']): Promise<{ status: number; body: any; text: string }> {
  const auth = a.bearer ? { bearer: a.bearer, origin: null, xrw: false } : {};
  if (call.upload) {
    const form = new FormData();
    for (const [k, v] of Object.entries(call.upload)) form.append(k, v);
    form.append('file', new Blob(['table bytes'], { type: 'text/plain' }), `${unique('upload')}.txt`);
    return a.client.request(call.path, { method: 'POST', body: form, ...auth });
  }
  if (call.tus) {
    const headers: Record<string, string> = { 'Tus-Resumable': '1.0.0', 'X-Forwarded-For': a.client.ip, Origin: env.server.url };
    if (a.bearer) headers.Authorization = `Bearer ${a.bearer}`;
    if (plane === 'share') headers['X-Share-Token'] = a.token!;
    if (plane === 'request') headers['X-Upload-Request-Token'] = a.token!;
    if (!a.bearer && a.client.cookies.size) {
      headers.Cookie = [...a.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      headers['X-Requested-With'] = 'XMLHttpRequest';
    }
    const meta = Object.entries(call.tus)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
    const created = await fetch(env.server.url + call.path, { method: 'POST', headers: { ...headers, 'Upload-Length': '3', 'Upload-Metadata': meta } });
    const location = created.headers.get('location');
    if (created.status !== 201 || !location) {
      const text = await created.text();
      return { status: created.status, body: text.startsWith('{') ? JSON.parse(text) : null, text };
    }
    const patch = await fetch(new URL(location, env.server.url), { method: 'PATCH', headers: { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: 'tus' });
    const text = await patch.text();
    return { status: patch.status === 204 ? 201 : patch.status, body: null, text: `PATCH ${patch.status} ${text}` };
  }
  return a.client.request(call.path, { method: call.method, ...(call.json !== undefined ? { json: call.json } : {}), ...auth });
}

// ---- what must not change

/**
 * Everything a refused call must leave as it was, read in one statement (counts, and the rows of the
 * tables a call could change as JSON arrays), so a cell costs one round trip per snapshot.
 */
async function state(target: Target, touched: string[]): Promise<string> {
  const jsonArrayFrom = env.server.db === 'postgres' ? pgJsonArrayFrom : sqliteJsonArrayFrom;
  const row = await env.seed.db
    .selectNoFrom((eb) => [
      eb.selectFrom('items').select(eb.fn.countAll().as('n')).as('items'),
      eb.selectFrom('items').select(eb.fn.countAll().as('n')).where('deleted_at', 'is not', null).as('trashed'),
      eb.selectFrom('favourites').select(eb.fn.countAll().as('n')).as('favourites'),
      eb.selectFrom('remote_uploads').select(eb.fn.countAll().as('n')).as('remote'),
      jsonArrayFrom(eb.selectFrom('items').select(['id', 'name', 'parent_id', 'deleted_at', 'owner_id']).where('id', 'in', [target.id, ...touched]).orderBy('id')).as('named'),
      jsonArrayFrom(eb.selectFrom('shares').select(['token', 'permission', 'updated_at']).orderBy('token')).as('shares'),
      jsonArrayFrom(eb.selectFrom('upload_requests').select(['token', 'status']).orderBy('token')).as('requests'),
      jsonArrayFrom(eb.selectFrom('teams').select(['id', 'folder_id']).orderBy('id')).as('teams'),
      jsonArrayFrom(eb.selectFrom('team_members').select(['team_id', 'user_id', 'permission']).orderBy('team_id').orderBy('user_id')).as('members'),
      jsonArrayFrom(eb.selectFrom('team_invitations').select(['id', 'status']).orderBy('id')).as('invitations'),
    ])
    .executeTakeFirstOrThrow();
  // Counts come back as numbers on SQLite and as strings on PostgreSQL.
  return JSON.stringify({ ...row, items: Number(row.items), trashed: Number(row.trashed), favourites: Number(row.favourites), remote: Number(row.remote) });
}

// ---- the table

interface Cell {
  row: Row;
  principal: Principal;
  object: ObjectName;
  outcome: Outcome;
  name: string;
}

const CELLS: Cell[] = ROWS.flatMap((row) =>
  PRINCIPALS[row.plane].flatMap((principal: Principal) =>
    objectsFor(row, principal).map((object) => ({
      row,
      principal,
      object,
      outcome: expected(row, principal, object),
      name: `${row.key}${row.label ? ` (${row.label})` : ''} · ${principal} · ${object}`,
    })),
  ),
).filter((cell) => cell.outcome !== 'n/a');

beforeAll(async () => {
  w = await buildWorld();
});

describe('the authorization table', () => {
  it('has a row for every route under src/pages/api that touches an item', () => {
    const covered = new Set(ROWS.map((r) => r.key));
    const missing = apiRoutesOnDisk().filter((key) => !NOT_ITEM_ROUTES.some((re) => re.test(key)) && !covered.has(key));
    expect(missing, 'routes without a row in tests/support/authz-table.ts').toEqual([]);
    const unknown = [...covered].filter((key) => !key.startsWith('data:') && !apiRoutesOnDisk().includes(key));
    expect(unknown, 'rows naming a route that does not exist').toEqual([]);
  });

  it('has a row for every data route that touches an item', () => {
    const covered = new Set(ROWS.map((r) => r.key.replace(/^data:/, '')));
    const names = dataRoutesOnDisk();
    expect(names).toContain('file download');
    expect(names.filter((name) => !NOT_ITEM_DATA_ROUTES.includes(name) && !covered.has(name))).toEqual([]);
  });

  it('tries every principal on its plane', () => {
    for (const plane of ['owner', 'share', 'request', 'team'] as const) {
      const tried = new Set(CELLS.filter((c) => c.row.plane === plane).map((c) => c.principal));
      expect([...tried].sort()).toEqual([...PRINCIPALS[plane]].sort());
    }
  });

  it.each(CELLS.map((cell) => [cell.name, cell] as const))('%s', async (_name, cell) => {
    try {
      await runCell(cell);
    } finally {
      if (cell.row.restoresTeams) await restoreTeams();
    }
  });
});

async function runCell({ row, principal, object, outcome }: Cell): Promise<void> {
  const a = acting(principal);
  // Closing a live request by its own token uses up that request: such a call gets a fresh one.
  if (row.consumesToken && (a.token === w.requests.active.token || a.token === w.requests.another.token)) {
    const folder = await makeItem(w.owner.user.id, null, 'folder');
    const res = await w.owner.client.post('/api/upload-request', { folder_id: folder.id });
    a.token = res.body.data.attributes.token;
  }
  const target = await objectFor(row, a, object);
  if (row.favourite && target.name !== 'missing') await favourite(target);
  const touched: string[] = [];
  const call = await row.call({ ...target, token: a.token ?? '' }, helpers(row, a, touched));
  const before = await state(target, touched);
  const res = await send(call, a, row.plane);
  const detail = `${call.method} ${call.path}: ${res.status} ${res.text.slice(0, 300)}`;
  if (outcome === 'ok') {
    expect(res.status, detail).toBe(row.ok);
    if (call.path === '/api/upload/remote') await importFinished(w.owner.client, res.body.data.id);
    if (row.listing && call.method === 'GET') {
      const shown = (row.shownTo ?? OWNERS).includes(principal);
      if (row.plane === 'owner' || row.plane === 'team') expect(res.text.includes(target.name), `${detail}: lists the item`).toBe(shown);
    }
    // Another user's call on their own things leaves the owner's alone; so does closing a closed request.
    if ((row.othersSeeOwn && !principal.startsWith('owner')) || (row.write && principal === 'filled request')) expect(await state(target, touched), detail).toBe(before);
    return;
  }
  if (outcome === 'empty') {
    expect(res.status, detail).toBe(200);
    expect(res.body.data, detail).toEqual([]);
  } else expect(res.status, detail).toBe(outcome);
  const code = outcome === 403 ? refusalCode(row, principal, object) : undefined;
  if (code) expect(res.body?.code, detail).toBe(code);
  expect(await state(target, touched), `${detail}: a refusal changed something`).toBe(before);
}
