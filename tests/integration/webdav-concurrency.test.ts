import { describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

/** A new account with an app password, and raw WebDAV requests with HTTP Basic. */
async function account() {
  const { client, email, user } = await registerUser(env.server.url);
  const token: string = (await client.post('/api/user/tokens', { name: 'WebDAV' })).body.meta.token;
  const auth = `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
  const dav = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
    const res = await fetch(`${env.server.url}${path}`, { method, headers: { Authorization: auth, ...init.headers }, body: init.body ?? null });
    return { status: res.status, text: await res.text() };
  };
  return { userId: user.id as string, dav };
}

/** The account's live items in a folder (null: home), by name. */
async function liveNames(userId: string, parentId: string | null) {
  let query = env.seed.db.selectFrom('items').select(['id', 'name', 'type']).where('owner_id', '=', userId).where('deleted_at', 'is', null);
  query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
  return (await query.orderBy('name').execute()).map((r) => r.name);
}

async function folderId(userId: string, name: string): Promise<string> {
  return (await env.seed.db.selectFrom('items').select('id').where('owner_id', '=', userId).where('name', '=', name).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).id;
}

describe('WebDAV: concurrent writes to one URL, names with edge spaces', () => {
  it('eight PUTs to one new URL at once leave one file there (one of the bodies), the rest in the trash, no `name (n)`', async () => {
    const me = await account();
    expect((await me.dav('MKCOL', '/dav/race')).status).toBe(201);
    const puts = await Promise.all(Array.from({ length: 8 }, (_, i) => me.dav('PUT', '/dav/race/f.txt', { body: `body ${i}` })));
    for (const put of puts) expect([201, 204], put.text).toContain(put.status);
    expect(await liveNames(me.userId, await folderId(me.userId, 'race'))).toEqual(['f.txt']);
    expect((await me.dav('GET', '/dav/race/f.txt')).text).toMatch(/^body [0-7]$/);
  });

  it('eight PUTs replacing one file at once: each answers 204, one file stays', async () => {
    const me = await account();
    expect((await me.dav('MKCOL', '/dav/replace')).status).toBe(201);
    expect((await me.dav('PUT', '/dav/replace/f.txt', { body: 'first' })).status).toBe(201);
    const puts = await Promise.all(Array.from({ length: 8 }, (_, i) => me.dav('PUT', '/dav/replace/f.txt', { body: `again ${i}` })));
    for (const put of puts) expect(put.status, put.text).toBe(204);
    expect(await liveNames(me.userId, await folderId(me.userId, 'replace'))).toEqual(['f.txt']);
    expect((await me.dav('GET', '/dav/replace/f.txt')).text).toMatch(/^again [0-7]$/);
  });

  it('eight MKCOLs of one URL at once: one 201, the others 405', async () => {
    const me = await account();
    const made = await Promise.all(Array.from({ length: 8 }, () => me.dav('MKCOL', '/dav/same')));
    expect(made.map((r) => r.status).sort()).toEqual([201, 405, 405, 405, 405, 405, 405, 405]);
    expect(await liveNames(me.userId, null)).toEqual(['same']);
  });

  it('a name beginning or ending with a space is a 400 (it was trimmed: ` a.txt` overwrote `a.txt`)', async () => {
    const me = await account();
    expect((await me.dav('PUT', '/dav/a.txt', { body: 'kept' })).status).toBe(201);
    expect((await me.dav('PUT', '/dav/%20a.txt', { body: 'other' })).status).toBe(400);
    expect((await me.dav('PUT', '/dav/a.txt%20', { body: 'other' })).status).toBe(400);
    expect((await me.dav('PUT', '/dav/a.txt%C2%A0', { body: 'other' })).status).toBe(400);
    expect((await me.dav('MKCOL', '/dav/%20dir')).status).toBe(400);
    expect((await me.dav('PROPFIND', '/dav/%20a.txt', { headers: { Depth: '0' } })).status).toBe(400);
    expect((await me.dav('GET', '/dav/a.txt')).text).toBe('kept');
    expect(await liveNames(me.userId, null)).toEqual(['a.txt']);
    // Inside a name, spaces are names like any other.
    expect((await me.dav('PUT', '/dav/two%20%20spaces.txt', { body: 'x' })).status).toBe(201);
  });
});
