import { describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedFile, seedFolder, useSeededServer } from '../support/seed.ts';
import { share, visitor } from '../support/shares.ts';

const env = useSeededServer();

/** Name, has_folders and the names of the loaded subfolders, per node. */
const shape = (nodes: any[]): unknown[] => nodes.map((n) => [n.name, n.has_folders, shape(n.folders)]);

describe('the navigation tree, a level at a time', () => {
  it('answers the top level alone, each folder saying whether it holds folders', async () => {
    const { client } = await registerUser(env.server.url);
    const a = await mkdir(client, 'A');
    const b = await mkdir(client, 'B', a);
    await mkdir(client, 'C', b);
    await mkdir(client, 'D');
    const res = await client.get('/api/browse/navigation');
    expect(res.status).toBe(200);
    expect(shape(res.body.data)).toEqual([
      ['A', true, []],
      ['D', false, []],
    ]);
    expect(res.body.data[0]).toMatchObject({ id: a, parent_id: null, color: null, emoji: null, abilities: { rename: true } });
  });

  it('answers one folder’s subfolders with parent_id, by name, files and trashed folders left out', async () => {
    const { client, user } = await registerUser(env.server.url);
    const a = await mkdir(client, 'A');
    const zeta = await mkdir(client, 'zeta', a);
    await mkdir(client, 'Beta', a);
    await mkdir(client, 'inner', zeta);
    const gone = await mkdir(client, 'Gone', a);
    await seedFile(env.seed, user.id, { name: 'file.txt', parentId: a });
    expect((await client.post('/api/remove', { items: [{ id: gone, type: 'folder' }] })).status).toBe(204);
    const res = await client.get(`/api/browse/navigation?parent_id=${a}`);
    expect(res.status).toBe(200);
    expect(shape(res.body.data)).toEqual([
      ['Beta', false, []],
      ['zeta', true, []],
    ]);
    expect(res.body.data[1]).toMatchObject({ id: zeta, parent_id: a, abilities: { move: true } });
    // A folder whose only subfolder is in the trash holds none.
    expect((await client.get('/api/browse/navigation')).body.data[0].has_folders).toBe(true);
  });

  it('opens the branches down to `open`, and that folder’s own subfolders', async () => {
    const { client } = await registerUser(env.server.url);
    const a = await mkdir(client, 'A');
    const b = await mkdir(client, 'B', a);
    await mkdir(client, 'B2', a);
    const c = await mkdir(client, 'C', b);
    await mkdir(client, 'D', c);
    await mkdir(client, 'E');
    const res = await client.get(`/api/browse/navigation?open=${c}`);
    expect(res.status).toBe(200);
    expect(shape(res.body.data)).toEqual([
      ['A', true, [['B', true, [['C', true, [['D', false, []]]]]], ['B2', false, []]]],
      ['E', false, []],
    ]);
  });

  it('keeps the first answer small whatever the account holds below the top', async () => {
    const { client, user } = await registerUser(env.server.url);
    const top = await seedFolder(env.seed, user.id, 'Top');
    for (let i = 0; i < 300; i += 1) await seedFolder(env.seed, user.id, `sub ${i}`, top);
    const res = await client.get('/api/browse/navigation');
    expect(shape(res.body.data)).toEqual([['Top', true, []]]);
    expect(res.text.length).toBeLessThan(2000);
    expect((await client.get(`/api/browse/navigation?parent_id=${top}`)).body.data).toHaveLength(300);
  });

  it('refuses another user’s folder, a file, an unknown id and both parameters at once, with a 4xx', async () => {
    const { client, user } = await registerUser(env.server.url);
    const other = await registerUser(env.server.url);
    const mine = await mkdir(client, 'Mine');
    const theirs = await mkdir(other.client, 'Theirs');
    const file = await seedFile(env.seed, user.id, { name: 'a.txt' });
    expect((await client.get(`/api/browse/navigation?parent_id=${theirs}`)).status).toBe(404);
    expect((await client.get(`/api/browse/navigation?open=${theirs}`)).status).toBe(404);
    expect((await client.get('/api/browse/navigation?parent_id=nope')).status).toBe(404);
    const notFolder = await client.get(`/api/browse/navigation?parent_id=${file}`);
    expect(notFolder.status).toBeGreaterThanOrEqual(400);
    expect(notFolder.status).toBeLessThan(500);
    const both = await client.get(`/api/browse/navigation?parent_id=${mine}&open=${mine}`);
    expect(both.status).toBe(422);
    expect(both.body.errors.open).toEqual(['Ask for parent_id or open, not both.']);
    const long = await client.get(`/api/browse/navigation?parent_id=${'x'.repeat(101)}`);
    expect(long.status).toBe(422);
  });

  it('a link’s tree: the shared folder with its subfolders, deeper levels on asking, nothing outside', async () => {
    const owner = await registerUser(env.server.url);
    const shared = await mkdir(owner.client, 'Shared');
    const inner = await mkdir(owner.client, 'Inner', shared);
    await mkdir(owner.client, 'Deep', inner);
    const outside = await mkdir(owner.client, 'Outside');
    const { token } = await share(owner.client, shared);
    const guest = visitor(env.server.url);
    const top = await guest.get(`/api/browse/navigation/${token}`);
    expect(top.status).toBe(200);
    expect(shape(top.body.data)).toEqual([['Shared', true, [['Inner', true, []]]]]);
    expect(top.body.data[0].parent_id).toBeNull();
    const deeper = await guest.get(`/api/browse/navigation/${token}?parent_id=${inner}`);
    expect(shape(deeper.body.data)).toEqual([['Deep', false, []]]);
    expect((await guest.get(`/api/browse/navigation/${token}?parent_id=${outside}`)).status).toBe(404);
  });

  it('a team folder’s tree: the team folder with its subfolders, deeper levels on asking, for owner and member', async () => {
    const owner = await registerUser(env.server.url);
    const member = await registerUser(env.server.url);
    const made = await owner.client.post('/api/teams/folders', { name: 'Team', invitations: [] });
    expect(made.status, made.text).toBe(201);
    const folder = made.body.data.id as string;
    const inner = await mkdir(owner.client, 'Inner', folder);
    await mkdir(owner.client, 'Deep', inner);
    const outside = await mkdir(owner.client, 'Outside');
    const invitation = await owner.client.post(`/api/teams/folders/${folder}/invitations`, { email: member.email, permission: 'can_view' });
    expect(invitation.status, invitation.text).toBe(201);
    expect((await member.client.request(`/api/teams/invitations/${invitation.body.data.id}`, { method: 'PUT' })).status).toBe(200);
    for (const who of [owner, member]) {
      const tree = await who.client.get(`/api/teams/folders/${folder}/tree`);
      expect(tree.status).toBe(200);
      expect(shape(tree.body.data)).toEqual([['Team', true, [['Inner', true, []]]]]);
      const deeper = await who.client.get(`/api/teams/folders/${folder}/tree?parent_id=${inner}`);
      expect(shape(deeper.body.data)).toEqual([['Deep', false, []]]);
      expect((await who.client.get(`/api/teams/folders/${folder}/tree?parent_id=${outside}`)).status).toBe(404);
    }
    expect((await owner.client.get(`/api/teams/folders/${folder}/tree?parent_id=${inner}&open=${inner}`)).status).toBe(422);
  });
});
