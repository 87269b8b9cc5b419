import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { accessTo } from '../../src/server/files/access.ts';
import { putSettings } from '../../src/server/settings/service.ts';
import { actorFor } from '../../src/server/teams/actor.ts';
import { setRestrictions } from '../../src/server/users/restrictions.ts';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { browse, mkdir } from '../support/files.ts';
import { seedFile, useSeededServer, userById } from '../support/seed.ts';
import { tusAsTokenHolder } from '../support/shares.ts';
import { createToken } from '../support/uploads.ts';

const env = useSeededServer();
type Person = Awaited<ReturnType<typeof registerUser>>;

async function createTeam(owner: Person, name = 'Team', invitations: { email: string; permission: string }[] = []): Promise<string> {
  const res = await owner.client.post('/api/teams/folders', { name, invitations });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function invite(owner: Person, folder: string, email: string, permission = 'can_edit'): Promise<string> {
  const res = await owner.client.post(`/api/teams/folders/${folder}/invitations`, { email, permission });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function accept(member: Person, invitation: string) {
  return member.client.request(`/api/teams/invitations/${invitation}`, { method: 'PUT' });
}

/** An owner with Team/{Inner/{deep.txt}, a.txt} and Private/{secret.txt}, and a member with `permission`. */
async function team(permission: 'can_edit' | 'can_view' = 'can_edit') {
  const owner = await registerUser(env.server.url, { name: 'Olivia Owner' });
  const member = await registerUser(env.server.url, { name: 'Mia Member' });
  const folder = await createTeam(owner);
  const inner = await mkdir(owner.client, 'Inner', folder);
  const priv = await mkdir(owner.client, 'Private');
  const a = await seedFile(env.seed, owner.user.id, { name: 'a.txt', parentId: folder, content: 'alpha' });
  const deep = await seedFile(env.seed, owner.user.id, { name: 'deep.txt', parentId: inner, content: 'deep' });
  const secret = await seedFile(env.seed, owner.user.id, { name: 'secret.txt', parentId: priv, content: 'secret' });
  const invitation = await invite(owner, folder, member.email, permission);
  expect((await accept(member, invitation)).status).toBe(200);
  return { owner, member, folder, inner, priv, a, deep, secret, invitation };
}

async function storageUsed(userId: string): Promise<number> {
  const row = await env.seed.db.selectFrom('users').select('storage_used_bytes').where('id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.storage_used_bytes);
}

async function outbox(): Promise<{ to: string; subject: string; text: string }[]> {
  const raw = await readFile(path.join(env.server.dataDir, 'mail', 'outbox.jsonl'), 'utf8').catch(() => '');
  return raw.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

describe('team folders: the owner', () => {
  it('creates a team folder, invites an account, which gets a notification, accepts, and shows as a member', async () => {
    const owner = await registerUser(env.server.url, { name: 'Olivia' });
    const member = await registerUser(env.server.url, { name: 'Mia' });
    const folder = await createTeam(owner, 'Projects');
    const invitation = await invite(owner, folder, member.email.toUpperCase(), 'can_view');

    const me = await member.client.get('/api/user');
    const note = me.body.data.relationships.unreadNotifications.data.find((n: any) => n.attributes.category === 'team-invitation');
    expect(note.attributes.action).toMatchObject({ type: 'invitation', params: { id: invitation } });

    const pub = await new Client(env.server.url).get(`/api/teams/invitations/${invitation}`);
    expect(pub.status).toBe(200);
    expect(pub.body.data).toMatchObject({ email: member.email, status: 'pending', folder: { name: 'Projects' }, inviter: { name: 'Olivia' }, has_account: true });
    // Only the invited account learns where the folder is; a visitor with the link and another account do not.
    expect(pub.body.data.folder.id).toBeUndefined();
    expect((await owner.client.get(`/api/teams/invitations/${invitation}`)).body.data.folder.id).toBeUndefined();
    expect((await member.client.get(`/api/teams/invitations/${invitation}`)).body.data.folder).toEqual({ name: 'Projects', id: folder });

    const accepted = await accept(member, invitation);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data).toMatchObject({ folder_id: folder, permission: 'can_view' });

    const after = await member.client.get('/api/user');
    const cleared = [...after.body.data.relationships.unreadNotifications.data].find((n: any) => n.attributes.category === 'team-invitation');
    expect(cleared.attributes.action).toBeNull();
    const ownerMe = await owner.client.get('/api/user');
    expect(ownerMe.body.data.relationships.unreadNotifications.data.map((n: any) => n.attributes.category)).toContain('team-member-joined');
    expect(ownerMe.body.data.meta.limitations.max_team_members).toMatchObject({ use: 1, meta: { allowed_emails: [member.email] } });

    const list = await owner.client.get('/api/teams/folders');
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: any) => i.id)).toEqual([folder]);
    expect(list.body.meta.teams[folder].members).toEqual([expect.objectContaining({ id: member.user.id, name: 'Mia', email: member.email, permission: 'can_view', color: expect.any(String) })]);

    const detail = await owner.client.get(`/api/teams/folders/${folder}/`);
    expect(detail.status).toBe(200);
    expect(detail.body.meta.root.id).toBe(folder);
    expect(detail.body.meta.team).toMatchObject({ folder_id: folder, invitations: [] });

    const shared = await member.client.get('/api/teams/shared-with-me');
    expect(shared.body.data.map((i: any) => i.id)).toEqual([folder]);
    expect(shared.body.meta.teams[folder]).toMatchObject({ permission: 'can_view', owner: { id: owner.user.id, name: 'Olivia' } });
    expect((await accept(member, invitation)).body.code).toBe('invitation_used');
  });

  it('converts a folder, changes a permission, removes a member, revokes and dissolves', async () => {
    const { owner, member, folder, inner } = await team('can_edit');
    const plain = await mkdir(owner.client, 'Plain');
    const converted = await owner.client.post(`/api/teams/folders/${plain}/convert`, {});
    expect(converted.status, converted.text).toBe(201);
    expect(converted.body.meta.team.folder_id).toBe(plain);
    expect((await owner.client.post(`/api/teams/folders/${plain}/convert`, {})).status).toBe(409);
    // A team folder inside another, or around one, is refused.
    expect((await owner.client.post(`/api/teams/folders/${inner}/convert`, {})).status).toBe(422);
    const outer = await mkdir(owner.client, 'Outer');
    const nested = await mkdir(owner.client, 'Nested', outer);
    expect((await owner.client.post(`/api/teams/folders/${nested}/convert`, {})).status).toBe(201);
    expect((await owner.client.post(`/api/teams/folders/${outer}/convert`, {})).status).toBe(422);
    expect((await owner.client.post('/api/teams/folders', { name: 'Deeper', parent_id: folder })).status).toBe(422);

    const patched = await owner.client.request(`/api/teams/folders/${folder}/members/${member.user.id}`, { method: 'PATCH', json: { permission: 'can_view' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ id: member.user.id, permission: 'can_view' });
    expect((await member.client.post('/api/create-folder', { name: 'Nope', parent_id: folder })).body.code).toBe('team_read_only');

    const pending = await invite(owner, folder, uniqueEmail('later'));
    expect((await owner.client.request(`/api/teams/folders/${folder}/invitations/${pending}`, { method: 'DELETE' })).status).toBe(204);
    expect((await owner.client.request(`/api/teams/folders/${folder}/invitations/${pending}`, { method: 'DELETE' })).status).toBe(409);

    expect((await owner.client.request(`/api/teams/folders/${folder}/members/${member.user.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await member.client.get(`/api/teams/shared-with-me/${folder}/`)).status).toBe(404);
    expect((await member.client.get(`/api/browse/folders/${folder}`)).status).toBe(404);
    // The removed member is told, with no action: the folder is out of their reach.
    const removed = (await member.client.get('/api/user')).body.data.relationships.unreadNotifications.data.find((n: any) => n.attributes.category === 'team-member-removed');
    expect(removed.attributes).toMatchObject({ title: 'You were removed from a team folder', action: null });

    expect((await owner.client.request(`/api/teams/folders/${folder}`, { method: 'DELETE' })).status).toBe(204);
    expect((await owner.client.get(`/api/teams/folders/${folder}/`)).status).toBe(404);
    expect((await browse(owner.client, folder)).names).toEqual(['Inner', 'a.txt']);
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const { owner, member, folder } = await team();
    const cases: [string, string, unknown, number][] = [
      ['POST', '/api/teams/folders', {}, 422],
      ['POST', '/api/teams/folders', { name: '' }, 422],
      ['POST', '/api/teams/folders', { name: 'x', invitations: 'a' }, 422],
      ['POST', '/api/teams/folders', { name: 'x', invitations: [{ email: 'not an email', permission: 'can_edit' }] }, 422],
      ['POST', '/api/teams/folders', { name: 'x', invitations: [{ email: 'a@b.c', permission: 'master' }] }, 422],
      ['POST', '/api/teams/folders', { name: 'x', invitations: [{ email: 'a@b.c', permission: 'can_edit' }, { email: 'A@b.c', permission: 'can_view' }] }, 422],
      ['POST', '/api/teams/folders', { name: 'x', parent_id: 'nope' }, 404],
      ['POST', '/api/teams/folders', { name: 'x', invitations: Array.from({ length: 6 }, (_, i) => ({ email: `many${i}@example.test`, permission: 'can_view' })) }, 422],
      ['POST', `/api/teams/folders/${folder}/convert`, { invitations: [{}] }, 422],
      ['POST', '/api/teams/folders/not-an-id/convert', {}, 404],
      ['POST', `/api/teams/folders/${folder}/invitations`, {}, 422],
      ['POST', `/api/teams/folders/${folder}/invitations`, { email: 'a b@c.d', permission: 'can_edit' }, 422],
      ['POST', `/api/teams/folders/${folder}/invitations`, { email: 'ok@example.test', permission: 'owner' }, 422],
      ['POST', `/api/teams/folders/${folder}/invitations`, { email: owner.email, permission: 'can_edit' }, 422],
      ['POST', `/api/teams/folders/${folder}/invitations`, { email: member.email, permission: 'can_edit' }, 422],
      ['DELETE', `/api/teams/folders/${folder}/invitations/unknown`, undefined, 404],
      ['PATCH', `/api/teams/folders/${folder}/members/${member.user.id}`, { permission: 'master' }, 422],
      ['PATCH', `/api/teams/folders/${folder}/members/${member.user.id}`, {}, 422],
      ['PATCH', `/api/teams/folders/${folder}/members/${owner.user.id}`, { permission: 'can_view' }, 404],
      ['DELETE', `/api/teams/folders/${folder}/members/nobody`, undefined, 404],
      ['DELETE', '/api/teams/folders/nope', undefined, 404],
      ['GET', '/api/teams/folders/nope/', undefined, 404],
      ['GET', `/api/teams/folders/${folder}/?sort=nope`, undefined, 422],
      ['GET', '/api/teams/folders/nope/tree', undefined, 404],
      ['DELETE', `/api/teams/shared-with-me/${folder}`, undefined, 404],
      ['GET', '/api/teams/invitations/unknown', undefined, 404],
      ['PUT', '/api/teams/invitations/unknown', undefined, 404],
      ['DELETE', '/api/teams/invitations/unknown', undefined, 404],
    ];
    const before = JSON.stringify((await owner.client.get('/api/teams/folders')).body);
    for (const [method, url, json, status] of cases) {
      const res = await owner.client.request(url, { method, ...(json === undefined ? {} : { json }) });
      expect(res.status, `${method} ${url} ${JSON.stringify(json)}: ${res.text}`).toBe(status);
      expect(res.body.message, url).toEqual(expect.any(String));
    }
    expect(JSON.stringify((await owner.client.get('/api/teams/folders')).body)).toBe(before);
    expect((await member.client.get('/api/teams/shared-with-me/nope/')).status).toBe(404);
    expect((await member.client.get(`/api/teams/shared-with-me/${folder}/?limit=0`)).status).toBe(422);
  });

  it('refuses every team route to another user, a wrong token and a signed-out client', async () => {
    const { owner, member, folder, invitation } = await team();
    const stranger = await registerUser(env.server.url);
    const pending = await invite(owner, folder, uniqueEmail('pending'));
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/teams/folders/${folder}/`],
      ['GET', `/api/teams/folders/${folder}/tree`],
      ['POST', `/api/teams/folders/${folder}/convert`, {}],
      ['POST', `/api/teams/folders/${folder}/invitations`, { email: uniqueEmail('x'), permission: 'can_edit' }],
      ['DELETE', `/api/teams/folders/${folder}/invitations/${pending}`],
      ['PATCH', `/api/teams/folders/${folder}/members/${member.user.id}`, { permission: 'can_view' }],
      ['DELETE', `/api/teams/folders/${folder}/members/${member.user.id}`],
      ['DELETE', `/api/teams/folders/${folder}`],
      ['GET', `/api/teams/shared-with-me/${folder}/`],
      ['DELETE', `/api/teams/shared-with-me/${folder}`],
    ];
    const anonymous = new Client(env.server.url);
    for (const [method, url, json] of routes) {
      const init = { method, ...(json === undefined ? {} : { json }) };
      expect((await stranger.client.request(url, init)).status, `stranger ${method} ${url}`).toBe(404);
      expect((await anonymous.request(url, init)).status, `signed out ${method} ${url}`).toBe(401);
      expect((await anonymous.request(url, { ...init, bearer: 'wrongtoken', origin: null, xrw: false })).status, `bad token ${method} ${url}`).toBe(401);
    }
    // A member is no owner: the owner's calls are 404 for them too.
    for (const [method, url, json] of routes.slice(2, 8)) expect((await member.client.request(url, { method, ...(json === undefined ? {} : { json }) })).status, `member ${url}`).toBe(404);
    for (const url of ['/api/teams/folders', '/api/teams/shared-with-me']) {
      expect((await anonymous.get(url)).status).toBe(401);
      expect((await anonymous.get(url, { bearer: 'wrongtoken', origin: null, xrw: false })).status).toBe(401);
      expect((await stranger.client.get(url)).body.data).toEqual([]);
    }
    expect((await anonymous.request(`/api/teams/invitations/${invitation}`, { method: 'PUT' })).status).toBe(401);
    expect((await anonymous.request(`/api/teams/invitations/${pending}`, { method: 'DELETE' })).status).toBe(401);
    expect((await stranger.client.request(`/api/teams/invitations/${pending}`, { method: 'PUT' })).body.code).toBe('invitation_other_account');
    expect((await stranger.client.request(`/api/teams/invitations/${pending}`, { method: 'DELETE' })).status).toBe(403);
    // Nothing changed: the team is whole.
    const list = await owner.client.get('/api/teams/folders');
    expect(list.body.meta.teams[folder].members.map((m: any) => m.permission)).toEqual(['can_edit']);
    expect(list.body.meta.teams[folder].invitations.map((i: any) => i.id)).toEqual([pending]);
  });

  it('pages the team folder lists by name with a keyset cursor', async () => {
    const owner = await registerUser(env.server.url);
    const member = await registerUser(env.server.url);
    for (const name of ['Charlie', 'alpha', 'Bravo']) {
      const folder = await createTeam(owner, name);
      expect((await accept(member, await invite(owner, folder, member.email))).status).toBe(200);
    }
    for (const [client, url] of [[owner.client, '/api/teams/folders'], [member.client, '/api/teams/shared-with-me']] as const) {
      const first = await client.get(`${url}?limit=2`);
      expect(first.body.data.map((i: any) => i.attributes.name), url).toEqual(['alpha', 'Bravo']);
      expect(Object.keys(first.body.meta.teams).sort()).toEqual(first.body.data.map((i: any) => i.id).sort());
      const second = await client.get(`${url}?limit=2&cursor=${first.body.meta.next_cursor}`);
      expect(second.body.data.map((i: any) => i.attributes.name)).toEqual(['Charlie']);
      expect(second.body.meta.next_cursor).toBeNull();
      expect((await client.get(`${url}?limit=0`)).status).toBe(400);
      expect((await client.get(`${url}?cursor=nonsense`)).status).toBe(400);
    }
  });

  it('blocks creating and converting with canCreateTeamFolder off', async () => {
    const owner = await registerUser(env.server.url);
    const plain = await mkdir(owner.client, 'Plain');
    await setRestrictions(env.seed, owner.user.id, { canCreateTeamFolder: false });
    const created = await owner.client.post('/api/teams/folders', { name: 'T' });
    expect(created.status).toBe(423);
    expect(created.body.code).toBe('create_team_folder_temporarily_disabled');
    expect((await owner.client.post(`/api/teams/folders/${plain}/convert`, {})).status).toBe(423);
    expect((await owner.client.get('/api/teams/folders')).body.data).toEqual([]);
  });

  it('blocks inviting past the member limit on a fixed subscription, not for addresses already counted', async () => {
    await putSettings(env.seed, { subscription_type: 'fixed', max_team_members: 2 });
    try {
      const owner = await registerUser(env.server.url);
      const first = uniqueEmail('one');
      const folder = await createTeam(owner, 'Limited', [{ email: first, permission: 'can_edit' }]);
      await invite(owner, folder, uniqueEmail('two'));
      const over = await owner.client.post(`/api/teams/folders/${folder}/invitations`, { email: uniqueEmail('three'), permission: 'can_edit' });
      expect(over.status).toBe(403);
      expect(over.body.code).toBe('max_team_members_reached');
      // The same address in a second team is not a new one.
      const other = await createTeam(owner, 'Other');
      await invite(owner, other, first);
      const me = await owner.client.get('/api/user');
      expect(me.body.data.meta.limitations.max_team_members).toMatchObject({ total: 2, use: 2 });
      const overCreate = await owner.client.post('/api/teams/folders', { name: 'Third', invitations: [{ email: uniqueEmail('four'), permission: 'can_view' }] });
      expect(overCreate.status).toBe(403);
      expect((await owner.client.get('/api/teams/folders')).body.data).toHaveLength(2);
    } finally {
      await putSettings(env.seed, { subscription_type: 'none', max_team_members: 10 });
    }
  });
});

describe('team folders: invitations', () => {
  it('refuses accepting an expired, revoked or declined invitation and another account’s', async () => {
    const owner = await registerUser(env.server.url);
    const member = await registerUser(env.server.url);
    const other = await registerUser(env.server.url);
    const folder = await createTeam(owner);
    const expired = await invite(owner, folder, member.email);
    await env.seed.db.updateTable('team_invitations').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', expired).execute();
    const res = await accept(member, expired);
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('invitation_expired');
    expect((await new Client(env.server.url).get(`/api/teams/invitations/${expired}`)).body.data.status).toBe('expired');

    const revoked = await invite(owner, folder, member.email);
    await owner.client.request(`/api/teams/folders/${folder}/invitations/${revoked}`, { method: 'DELETE' });
    expect((await accept(member, revoked)).body.code).toBe('invitation_revoked');

    const mine = await invite(owner, folder, member.email);
    expect((await accept(other, mine)).status).toBe(403);
    expect((await member.client.request(`/api/teams/invitations/${mine}`, { method: 'DELETE' })).status).toBe(204);
    expect((await accept(member, mine)).body.code).toBe('invitation_used');
    expect((await member.client.get('/api/teams/shared-with-me')).body.data).toEqual([]);
  });

  it('mails an address without an account, and signing up with it joins the team', async () => {
    const owner = await registerUser(env.server.url, { name: 'Otto' });
    const folder = await createTeam(owner, 'Welcome');
    const email = uniqueEmail('newcomer');
    const invitation = await invite(owner, folder, email, 'can_view');
    await expect.poll(async () => (await outbox()).find((m) => m.to === email)?.text ?? '').toContain(`/team-folder-invitation/${invitation}`);
    expect((await new Client(env.server.url).get(`/api/teams/invitations/${invitation}`)).body.data).toMatchObject({ has_account: false, folder: { name: 'Welcome' } });
    const newcomer = await registerUser(env.server.url, { email });
    await expect.poll(async () => (await newcomer.client.get('/api/teams/shared-with-me')).body.data.map((i: any) => i.id)).toEqual([folder]);
  });
});

describe('team folders: invitations to unverified addresses', () => {
  it('with verification required, a new account gets the invitation as a notification and may accept only once verified', async () => {
    await putSettings(env.seed, { email_verification_required: true });
    try {
      const owner = await registerUser(env.server.url);
      await env.seed.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', owner.user.id).execute();
      const folder = await createTeam(owner, 'Careful');
      const email = uniqueEmail('unverified');
      const invitation = await invite(owner, folder, email);
      const newcomer = await registerUser(env.server.url, { email });
      await expect
        .poll(async () => (await newcomer.client.get('/api/user')).body.data.relationships.unreadNotifications.data.map((n: any) => n.attributes.action?.params?.id))
        .toContain(invitation);
      expect((await newcomer.client.get('/api/teams/shared-with-me')).body.data).toEqual([]);
      const refused = await accept(newcomer, invitation);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('email_verification_required');
      await env.seed.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', newcomer.user.id).execute();
      expect((await accept(newcomer, invitation)).status).toBe(200);
      expect((await newcomer.client.get('/api/teams/shared-with-me')).body.data.map((i: any) => i.id)).toEqual([folder]);
    } finally {
      await putSettings(env.seed, { email_verification_required: false });
    }
  });
});

describe('team folders: what a member may do', () => {
  it('a can_edit member browses, creates, renames, moves inside, trashes and uploads, counted against the owner', async () => {
    const { owner, member, folder, inner, a } = await team('can_edit');
    const page = await member.client.get(`/api/teams/shared-with-me/${folder}/`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((i: any) => i.attributes.name)).toEqual(['Inner', 'a.txt']);
    expect(page.body.meta.team).toMatchObject({ folder_id: folder, permission: 'can_edit', owner: { id: owner.user.id } });
    expect((await browse(member.client, inner)).names).toEqual(['deep.txt']);

    const tree = await member.client.get(`/api/teams/folders/${folder}/tree`);
    expect(tree.body.data.map((n: any) => n.id)).toEqual([folder]);
    expect(tree.body.data[0].folders.map((n: any) => n.name)).toEqual(['Inner']);
    expect((await owner.client.get(`/api/teams/folders/${inner}/tree`)).body.data[0].id).toBe(folder);

    const made = await mkdir(member.client, 'Made by member', folder);
    const renamed = await member.client.request(`/api/rename/${made}`, { method: 'PATCH', json: { name: 'Renamed' } });
    expect(renamed.status, renamed.text).toBe(200);
    const moved = await member.client.post('/api/move', { to_id: inner, items: [{ id: made, type: 'folder' }] });
    expect(moved.status, moved.text).toBe(200);

    const before = await storageUsed(owner.user.id);
    const plain = await member.client.request(`/api/upload?parent_id=${folder}`, { method: 'POST', body: formWith('hello', { parent_id: folder }) });
    expect(plain.status, plain.text).toBe(201);
    const token = await createToken(member.client);
    const tus = await tusAsTokenHolder(env.server.url, { Authorization: `Bearer ${token}` }, 'tus bytes', { filename: 't.txt', parent_id: inner });
    expect(tus.patch, tus.text).toBe(204);
    expect(await storageUsed(owner.user.id)).toBe(before + 'hello'.length + 'tus bytes'.length);
    expect(await storageUsed(member.user.id)).toBe(0);
    expect((await browse(owner.client, folder)).names).toContain('upload.txt');

    const file = await download(env.server.url, `/file/${a.id}`, member.client);
    expect(file.status).toBe(200);
    const removed = await member.client.post('/api/remove', { items: [{ id: a.id, type: 'file', force_delete: true }] });
    expect(removed.status, removed.text).toBe(204);
    expect((await browse(owner.client, folder)).names).not.toContain('a.txt');
    // Only trashed, for the owner to decide.
    expect((await owner.client.get('/api/browse/trash/all')).body.data.map((i: any) => i.id)).toContain(a.id);
  });

  it('a can_edit member may not move out of the team folder, touch the team folder itself or name an item outside it', async () => {
    const { owner, member, folder, inner, priv, secret } = await team('can_edit');
    const own = await mkdir(member.client, 'Mine');
    const out = await member.client.post('/api/move', { to_id: own, items: [{ id: inner, type: 'folder' }] });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('team_move_out');
    expect((await member.client.post('/api/move', { to_id: null, items: [{ id: inner, type: 'folder' }] })).status).toBe(403);
    expect((await member.client.post('/api/move', { to_id: priv, items: [{ id: inner, type: 'folder' }] })).status).toBe(403);
    expect((await member.client.request(`/api/rename/${folder}`, { method: 'PATCH', json: { name: 'Mine now' } })).status).toBe(403);
    expect((await member.client.post('/api/remove', { items: [{ id: folder, type: 'folder' }] })).status).toBe(403);
    expect((await member.client.post(`/api/share/${inner}`, { type: 'folder' })).status).toBe(404);
    for (const id of [priv, secret.id]) {
      expect((await member.client.get(`/api/browse/folders/${id}`)).status).toBe(404);
      expect((await member.client.get(`/api/teams/shared-with-me/${id}/`)).status).toBe(404);
      expect((await member.client.request(`/api/rename/${id}`, { method: 'PATCH', json: { name: 'x' } })).status).toBe(404);
    }
    expect((await download(env.server.url, `/file/${secret.id}`, member.client)).status).toBe(404);
    expect((await member.client.request(`/api/upload?parent_id=${priv}`, { method: 'POST', body: formWith('x', { parent_id: priv }) })).status).toBe(404);
    const token = await createToken(member.client);
    expect((await tusAsTokenHolder(env.server.url, { Authorization: `Bearer ${token}` }, 'x', { filename: 'x.txt', parent_id: priv })).created).toBe(404);
    // A form field naming a folder outside the team folder the query string named is refused too.
    expect((await member.client.request(`/api/upload?parent_id=${folder}`, { method: 'POST', body: formWith('x', { parent_id: priv }) })).status).toBe(404);
    expect((await browse(owner.client, folder)).names).toEqual(['Inner', 'a.txt']);
  });

  it('a can_edit member uploads in chunks into the team folder, bound to them, counted against the owner', async () => {
    const { owner, member, folder } = await team('can_edit');
    const stranger = await registerUser(env.server.url);
    await putSettings(env.seed, { chunk_size_bytes: 1024 ** 2 });
    try {
      const bytes = Buffer.alloc(1024 ** 2 + 10, 7);
      const before = await storageUsed(owner.user.id);
      const uploadId = 'c'.repeat(32);
      const chunk = (client: Client, part: Buffer, offset: number, last: boolean) => {
        const form = new FormData();
        for (const [k, v] of Object.entries({ filename: 'big.bin', parent_id: folder, upload_id: uploadId, offset: String(offset), is_last: String(last) })) form.append(k, v);
        form.append('file', new Blob([new Uint8Array(part)]), 'blob');
        return client.request(`/api/upload?parent_id=${folder}`, { method: 'POST', body: form });
      };
      const first = await chunk(member.client, bytes.subarray(0, 1024 ** 2), 0, false);
      expect(first.status, first.text).toBe(200);
      // Another account cannot add to the member's upload, even knowing its id.
      expect((await chunk(stranger.client, bytes.subarray(1024 ** 2), 1024 ** 2, true)).status).toBe(404);
      const last = await chunk(member.client, bytes.subarray(1024 ** 2), 1024 ** 2, true);
      expect(last.status, last.text).toBe(201);
      expect(await storageUsed(owner.user.id)).toBe(before + bytes.length);
      expect((await browse(owner.client, folder)).names).toContain('big.bin');
    } finally {
      await putSettings(env.seed, { chunk_size_bytes: 8 * 1024 ** 2 });
    }
  });

  it('a member whose own account may not upload is refused in the team folder too', async () => {
    const { owner, member, folder } = await team('can_edit');
    await setRestrictions(env.seed, member.user.id, { canUpload: false });
    expect((await member.client.request(`/api/upload?parent_id=${folder}`, { method: 'POST', body: formWith('x', { parent_id: folder }) })).status).toBe(423);
    const token = await createToken(member.client);
    expect((await tusAsTokenHolder(env.server.url, { Authorization: `Bearer ${token}` }, 'x', { filename: 'x.txt', parent_id: folder })).created).toBe(423);
    expect((await browse(owner.client, folder)).names).toEqual(['Inner', 'a.txt']);
  });

  it('a can_view member reads but every write is refused', async () => {
    const { owner, member, folder, inner, a, secret } = await team('can_view');
    expect((await browse(member.client, folder)).names).toEqual(['Inner', 'a.txt']);
    expect((await download(env.server.url, `/file/${a.id}`, member.client)).status).toBe(200);
    const zip = (items: string) => download(env.server.url, `/api/zip?items=${encodeURIComponent(items)}`, member.client);
    expect((await zip(`${inner}|folder,${a.id}|file`)).status).toBe(200);
    expect((await zip(`${a.id}|file,${secret.id}|file`)).status).toBe(404);
    expect((await download(env.server.url, `/thumbnail/${secret.id}/sm`, member.client)).status).toBe(404);
    const before = await storageUsed(owner.user.id);
    const writes = [
      await member.client.post('/api/create-folder', { name: 'New', parent_id: folder }),
      await member.client.request(`/api/rename/${a.id}`, { method: 'PATCH', json: { name: 'b.txt' } }),
      await member.client.post('/api/move', { to_id: inner, items: [{ id: a.id, type: 'file' }] }),
      await member.client.post('/api/remove', { items: [{ id: a.id, type: 'file' }] }),
      await member.client.request(`/api/upload?parent_id=${folder}`, { method: 'POST', body: formWith('nope', { parent_id: folder }) }),
    ];
    for (const res of writes) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('team_read_only');
    }
    const token = await createToken(member.client);
    const tus = await tusAsTokenHolder(env.server.url, { Authorization: `Bearer ${token}` }, 'nope', { filename: 'n.txt', parent_id: folder });
    expect(tus.created).toBe(403);
    expect(await storageUsed(owner.user.id)).toBe(before);
    expect((await browse(owner.client, folder)).names).toEqual(['Inner', 'a.txt']);
  });

  it('a member whose own account may not download gets neither a file nor a zip of the team folder', async () => {
    const { member, folder, a } = await team('can_view');
    expect((await download(env.server.url, `/file/${a.id}`, member.client)).status).toBe(200);
    await setRestrictions(env.seed, member.user.id, { canDownload: false });
    const file = await download(env.server.url, `/file/${a.id}`, member.client);
    expect(file.status).toBe(403);
    expect(JSON.parse(file.body.toString()).code).toBe('download_temporarily_disabled');
    expect((await download(env.server.url, `/api/zip?items=${folder}|folder`, member.client)).status).toBe(403);
  });

  it('a member who left, was removed or whose team was dissolved sees nothing', async () => {
    const { owner, member, folder, a } = await team('can_edit');
    expect((await member.client.request(`/api/teams/shared-with-me/${folder}`, { method: 'DELETE' })).status).toBe(204);
    const ownerMe = await owner.client.get('/api/user');
    expect(ownerMe.body.data.relationships.unreadNotifications.data.map((n: any) => n.attributes.category)).toContain('team-member-left');
    expect((await member.client.get(`/api/browse/folders/${folder}`)).status).toBe(404);
    expect((await download(env.server.url, `/file/${a.id}`, member.client)).status).toBe(404);

    const again = await invite(owner, folder, member.email);
    expect((await accept(member, again)).status).toBe(200);
    expect((await browse(member.client, folder)).names).toEqual(['Inner', 'a.txt']);
    expect((await owner.client.request(`/api/teams/folders/${folder}`, { method: 'DELETE' })).status).toBe(204);
    // Every member of a dissolved team is told.
    const closed = (await member.client.get('/api/user')).body.data.relationships.unreadNotifications.data.filter((n: any) => n.attributes.category === 'team-dissolved');
    expect(closed).toHaveLength(1);
    expect(closed[0].attributes.action).toBeNull();
    expect((await member.client.get(`/api/browse/folders/${folder}`)).status).toBe(404);
    expect((await member.client.get(`/api/teams/shared-with-me/${folder}/`)).status).toBe(404);
    expect((await member.client.post('/api/create-folder', { name: 'Late', parent_id: folder })).status).toBe(404);
    expect((await member.client.get('/api/teams/shared-with-me')).body.data).toEqual([]);
  });
});

function formWith(content: string, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([content], { type: 'text/plain' }), 'upload.txt');
  return form;
}

describe('the member actor', () => {
  it('is found with one statement, and what it may do is decided in one more, whatever the count', async () => {
    const { owner, member, folder, inner, a, deep, secret } = await team('can_view');
    const counter = { statements: 0 };
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        counter.statements++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const ctx = { ...env.seed, db: env.seed.db.withPlugin(plugin) };
    const signedIn = await userById(env.seed, member.user.id);
    const ids = [folder, inner, a.id, deep.id];
    const actor = await actorFor(ctx, signedIn, ids);
    expect(actor.id).toBe(owner.user.id);
    expect(actor.scope).toMatchObject({ rootId: folder, member: { userId: member.user.id, permission: 'can_view' } });
    counter.statements = 0;
    const grants = await accessTo(ctx.db, actor, [...ids, secret.id]);
    expect(counter.statements).toBe(1);
    expect([...grants.keys()].sort()).toEqual([...ids].sort());
    expect([...grants.values()].every((g) => g.may.read && !g.may.write && !g.may.delete && !g.may.share)).toBe(true);
    // An id outside the team folder, or a mix with the member's own items, makes no member actor.
    expect((await actorFor(ctx, signedIn, [a.id, secret.id])).scope).toBeUndefined();
    // After removal the same actor sees nothing: the membership is part of the statement.
    await owner.client.request(`/api/teams/folders/${folder}/members/${member.user.id}`, { method: 'DELETE' });
    expect((await accessTo(ctx.db, actor, ids)).size).toBe(0);
  });
});
