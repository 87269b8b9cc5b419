import { describe, expect, it } from 'vitest';
import { davAccount, lockInfo } from '../support/dav.ts';
import { mkdir } from '../support/files.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();
const at = (path: string) => `${env.server.url}${path}`;
const hrefs = (xml: string) => [...xml.matchAll(/<d:href>([^<]*)<\/d:href>/g)].map((m) => m[1]);
const TEAM = '/dav/Team%20folders/Projects';

/** An owner with the team folder Projects (holding a.txt) and a member with `permission`, both with app passwords. */
async function team(permission: 'can_edit' | 'can_view') {
  const owner = await davAccount(env.server.url);
  const member = await davAccount(env.server.url);
  const created = await owner.client.post('/api/teams/folders', { name: 'Projects' });
  expect(created.status, created.text).toBe(201);
  const folder: string = created.body.data.id;
  expect((await owner.dav('PUT', '/dav/Projects/a.txt', { body: 'alpha' })).status).toBe(201);
  const invitation = await owner.client.post(`/api/teams/folders/${folder}/invitations`, { email: member.email, permission });
  expect(invitation.status, invitation.text).toBe(201);
  expect((await member.client.request(`/api/teams/invitations/${invitation.body.data.id}`, { method: 'PUT' })).status).toBe(200);
  return { owner, member, folder };
}

describe('WebDAV team folders', () => {
  it('a member finds them under /dav/Team folders/ and works in them as in the app: new items are the owner’s', async () => {
    const { owner, member } = await team('can_edit');
    expect(hrefs((await member.dav('PROPFIND', '/dav/', { headers: { Depth: '1' } })).text)).toEqual(['/dav/', '/dav/Team%20folders/']);
    expect(hrefs((await member.dav('PROPFIND', '/dav/Team%20folders/', { headers: { Depth: '1' } })).text)).toEqual(['/dav/Team%20folders/', `${TEAM}/`]);
    expect(hrefs((await member.dav('PROPFIND', `${TEAM}/`, { headers: { Depth: '1' } })).text)).toEqual([`${TEAM}/`, `${TEAM}/a.txt`]);
    expect((await member.dav('GET', `${TEAM}/a.txt`)).text).toBe('alpha');
    expect((await member.dav('PUT', `${TEAM}/b.txt`, { body: 'beta' })).status).toBe(201);
    expect((await member.dav('MKCOL', `${TEAM}/Sub`)).status).toBe(201);
    expect((await member.dav('MOVE', `${TEAM}/b.txt`, { headers: { Destination: at(`${TEAM}/Sub/b.txt`) } })).status).toBe(201);
    expect((await member.dav('COPY', `${TEAM}/a.txt`, { headers: { Destination: at(`${TEAM}/Sub/a-copy.txt`) } })).status).toBe(201);
    expect((await owner.dav('GET', '/dav/Projects/Sub/b.txt')).text).toBe('beta');
    expect((await owner.dav('GET', '/dav/Projects/Sub/a-copy.txt')).text).toBe('alpha');
    const rows = await env.seed.db.selectFrom('items').select(['owner_id', 'name']).where('name', 'in', ['b.txt', 'a-copy.txt', 'Sub']).where('owner_id', 'in', [owner.userId, member.userId]).execute();
    expect(rows.map((r) => r.owner_id)).toEqual([owner.userId, owner.userId, owner.userId]);
    // Moving out of the team folder is refused, as in the app.
    expect((await member.dav('MOVE', `${TEAM}/a.txt`, { headers: { Destination: at('/dav/mine.txt') } })).status).toBe(403);
    expect((await member.dav('DELETE', `${TEAM}/Sub`)).status).toBe(204);
    expect((await owner.dav('PROPFIND', '/dav/Projects/Sub', { headers: { Depth: '0' } })).status).toBe(404);
  });

  it('a read-only member reads but every write is 403; the team folder itself and Team folders cannot be changed', async () => {
    const { member } = await team('can_view');
    expect((await member.dav('GET', `${TEAM}/a.txt`)).text).toBe('alpha');
    expect((await member.dav('PUT', `${TEAM}/a.txt`, { body: 'x' })).status).toBe(403);
    expect((await member.dav('PUT', `${TEAM}/new.txt`, { body: 'x' })).status).toBe(403);
    expect((await member.dav('MKCOL', `${TEAM}/Sub`)).status).toBe(403);
    expect((await member.dav('DELETE', `${TEAM}/a.txt`)).status).toBe(403);
    expect((await member.dav('MOVE', `${TEAM}/a.txt`, { headers: { Destination: at(`${TEAM}/b.txt`) } })).status).toBe(403);
    expect((await member.dav('COPY', `${TEAM}/a.txt`, { headers: { Destination: at(`${TEAM}/b.txt`) } })).status).toBe(403);
    expect((await member.dav('PROPPATCH', `${TEAM}/a.txt`, { body: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><z xmlns="urn:z">1</z></D:prop></D:set></D:propertyupdate>' })).status).toBe(403);
    expect((await member.dav('LOCK', `${TEAM}/a.txt`, { body: lockInfo('exclusive') })).status).toBe(403);
    // Copying out of it into the member's own files is reading.
    expect((await member.dav('COPY', `${TEAM}/a.txt`, { headers: { Destination: at('/dav/mine.txt') } })).status).toBe(201);
    for (const [method, path] of [['DELETE', TEAM], ['MKCOL', '/dav/Team%20folders/New'], ['PUT', '/dav/Team%20folders/x.txt'], ['DELETE', '/dav/Team%20folders']]) {
      expect((await member.dav(method!, path!, method === 'PUT' ? { body: 'x' } : {})).status, `${method} ${path}`).toBe(403);
    }
    expect((await member.dav('MOVE', TEAM, { headers: { Destination: at('/dav/Elsewhere') } })).status).toBe(403);
  });

  it('owner and members share the locks: a member’s lock holds the owner’s writes at the owner’s path', async () => {
    const { owner, member } = await team('can_edit');
    const locked = await member.dav('LOCK', `${TEAM}/a.txt`, { body: lockInfo('exclusive') });
    expect(locked.status).toBe(200);
    const token = locked.headers.get('lock-token')!.slice(1, -1);
    expect((await owner.dav('PUT', '/dav/Projects/a.txt', { body: 'owner' })).status).toBe(423);
    const seen = await owner.dav('PROPFIND', '/dav/Projects/a.txt', { headers: { Depth: '0' }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>' });
    expect(seen.text).toContain(token);
    expect((await member.dav('PUT', `${TEAM}/a.txt`, { headers: { If: `(<${token}>)` }, body: 'member' })).status).toBe(204);
    expect((await owner.dav('GET', '/dav/Projects/a.txt')).text).toBe('member');
    expect((await member.dav('UNLOCK', `${TEAM}/a.txt`, { headers: { 'Lock-Token': `<${token}>` } })).status).toBe(204);
    expect((await owner.dav('PUT', '/dav/Projects/a.txt', { body: 'owner' })).status).toBe(204);
  });

  it('without a membership there is no Team folders; an own item of that name stays the account’s own', async () => {
    const { member } = await team('can_edit');
    const stranger = await davAccount(env.server.url);
    expect((await stranger.dav('PROPFIND', '/dav/Team%20folders/', { headers: { Depth: '0' } })).status).toBe(404);
    expect((await stranger.dav('GET', `${TEAM}/a.txt`)).status).toBe(404);
    expect((await member.dav('MKCOL', '/dav/team%20FOLDERS')).status).toBe(405);
    // A folder of that name made in the app: it is what /dav/Team folders/ shows.
    const other = await team('can_edit');
    await mkdir(other.member.client, 'Team folders');
    expect(hrefs((await other.member.dav('PROPFIND', '/dav/Team%20folders/', { headers: { Depth: '1' } })).text)).toEqual(['/dav/Team%20folders/']);
  });
});
