import { describe, expect, it } from 'vitest';
import { davAccount, davClient, lockInfo } from '../support/dav.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();
const account = () => davAccount(env.server.url);
const at = (path: string) => `${env.server.url}${path}`;
const ifToken = (token: string) => ({ If: `(<${token}>)` });

/** Takes a lock; answers its token (from the Lock-Token header) and the response. */
async function takeLock(dav: Awaited<ReturnType<typeof account>>['dav'], path: string, scope: 'exclusive' | 'shared' = 'exclusive', headers: Record<string, string> = {}) {
  const res = await dav('LOCK', path, { headers: { 'Content-Type': 'application/xml', ...headers }, body: lockInfo(scope) });
  const token = res.headers.get('lock-token')?.match(/^<(.+)>$/)?.[1] ?? '';
  return { res, token };
}

describe('WebDAV LOCK and UNLOCK', () => {
  it('an exclusive lock: writes without its token are 423, with it they pass; a second lock is 423', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/doc.txt', { body: 'one' });
    await me.dav('PUT', '/dav/other.txt', { body: 'other' });
    const { res, token } = await takeLock(me.dav, '/dav/doc.txt', 'exclusive', { Depth: '0' });
    expect(res.status).toBe(200);
    expect(token).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(res.text).toContain(`<d:locktoken><d:href>${token}</d:href></d:locktoken>`);
    expect(res.text).toContain('<d:timeout>Second-600</d:timeout>');
    expect(res.text).toContain('<d:owner><href xmlns="DAV:">tests</href></d:owner>');
    // Without the token: every kind of write is refused.
    expect((await me.dav('PUT', '/dav/doc.txt', { body: 'two' })).status).toBe(423);
    expect((await me.dav('DELETE', '/dav/doc.txt')).status).toBe(423);
    expect((await me.dav('MOVE', '/dav/doc.txt', { headers: { Destination: at('/dav/moved.txt') } })).status).toBe(423);
    expect((await me.dav('COPY', '/dav/other.txt', { headers: { Destination: at('/dav/doc.txt') } })).status).toBe(423);
    expect((await me.dav('PROPPATCH', '/dav/doc.txt', { body: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><z xmlns="urn:z">1</z></D:prop></D:set></D:propertyupdate>' })).status).toBe(423);
    expect((await takeLock(me.dav, '/dav/doc.txt', 'exclusive')).res.status).toBe(423);
    expect((await takeLock(me.dav, '/dav/doc.txt', 'shared')).res.status).toBe(423);
    expect((await me.dav('GET', '/dav/doc.txt')).text).toBe('one');
    // Reading is not locked; copying the locked file elsewhere is fine and the copy is not locked.
    expect((await me.dav('COPY', '/dav/doc.txt', { headers: { Destination: at('/dav/copy.txt') } })).status).toBe(201);
    expect((await me.dav('PUT', '/dav/copy.txt', { body: 'free' })).status).toBe(204);
    // With the token: the write passes, and the lock stays.
    expect((await me.dav('PUT', '/dav/doc.txt', { headers: ifToken(token), body: 'two' })).status).toBe(204);
    expect((await me.dav('GET', '/dav/doc.txt')).text).toBe('two');
    expect((await me.dav('PUT', '/dav/doc.txt', { body: 'three' })).status).toBe(423);
    // A tagged list names the resource.
    expect((await me.dav('PUT', '/dav/doc.txt', { headers: { If: `<${at('/dav/doc.txt')}> (<${token}>)` }, body: 'four' })).status).toBe(204);
  });

  it('a lock held by another token (a second app password, its own lock) is 423 for the first', async () => {
    const me = await account();
    const second = (await me.client.post('/api/user/tokens', { name: 'Laptop' })).body.meta.token as string;
    const laptop = davClient(env.server.url, me.email, second);
    await me.dav('PUT', '/dav/shared.txt', { body: 'x' });
    await me.dav('PUT', '/dav/mine.txt', { body: 'x' });
    const theirs = await takeLock(laptop, '/dav/shared.txt');
    const mine = await takeLock(me.dav, '/dav/mine.txt');
    expect((await me.dav('PUT', '/dav/shared.txt', { body: 'y' })).status).toBe(423);
    // Another lock's token does not open this one.
    expect((await me.dav('PUT', '/dav/shared.txt', { headers: ifToken(mine.token), body: 'y' })).status).toBe(412);
    expect((await me.dav('PUT', '/dav/shared.txt', { headers: { If: `(<${mine.token}>) (Not <DAV:no-lock>)` }, body: 'y' })).status).toBe(423);
    expect((await laptop('PUT', '/dav/shared.txt', { headers: ifToken(theirs.token), body: 'y' })).status).toBe(204);
  });

  it('UNLOCK: a wrong token is 409, none 400, the right one 204 and the resource is writable again', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/a.txt', { body: 'x' });
    await me.dav('PUT', '/dav/b.txt', { body: 'x' });
    const a = await takeLock(me.dav, '/dav/a.txt');
    const b = await takeLock(me.dav, '/dav/b.txt');
    const wrong = await me.dav('UNLOCK', '/dav/a.txt', { headers: { 'Lock-Token': `<${b.token}>` } });
    expect(wrong.status).toBe(409);
    expect(wrong.text).toContain('<d:lock-token-matches-request-uri/>');
    expect((await me.dav('UNLOCK', '/dav/a.txt', { headers: { 'Lock-Token': '<urn:uuid:00000000-0000-0000-0000-000000000000>' } })).status).toBe(409);
    expect((await me.dav('UNLOCK', '/dav/a.txt')).status).toBe(400);
    expect((await me.dav('UNLOCK', '/dav/a.txt', { headers: { 'Lock-Token': `<${a.token}>` } })).status).toBe(204);
    expect((await me.dav('PUT', '/dav/a.txt', { body: 'y' })).status).toBe(204);
    expect((await me.dav('PUT', '/dav/b.txt', { body: 'y' })).status).toBe(423);
  });

  it('shared locks: two may be held; either token writes; an exclusive one is refused', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/s.txt', { body: 'x' });
    const first = await takeLock(me.dav, '/dav/s.txt', 'shared');
    const second = await takeLock(me.dav, '/dav/s.txt', 'shared');
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    expect((await takeLock(me.dav, '/dav/s.txt', 'exclusive')).res.status).toBe(423);
    expect((await me.dav('PUT', '/dav/s.txt', { body: 'y' })).status).toBe(423);
    expect((await me.dav('PUT', '/dav/s.txt', { headers: ifToken(second.token), body: 'y' })).status).toBe(204);
    const found = await me.dav('PROPFIND', '/dav/s.txt', { headers: { Depth: '0' }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/><D:supportedlock/></D:prop></D:propfind>' });
    expect(found.text).toContain(first.token);
    expect(found.text).toContain(second.token);
    expect(found.text).toContain('<d:lockentry><d:lockscope><d:shared/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry>');
  });

  it('Timeout: 10 minutes by default, at most an hour; a refresh renews it; an expired lock no longer counts', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/t.txt', { body: 'x' });
    const capped = await takeLock(me.dav, '/dav/t.txt', 'exclusive', { Timeout: 'Second-86400' });
    expect(capped.res.text).toContain('<d:timeout>Second-3600</d:timeout>');
    await me.dav('UNLOCK', '/dav/t.txt', { headers: { 'Lock-Token': `<${capped.token}>` } });
    const infinite = await takeLock(me.dav, '/dav/t.txt', 'exclusive', { Timeout: 'Infinite, Second-4100000000' });
    expect(infinite.res.text).toContain('<d:timeout>Second-3600</d:timeout>');
    const refreshed = await me.dav('LOCK', '/dav/t.txt', { headers: { ...ifToken(infinite.token), Timeout: 'Second-120' } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.text).toContain('<d:timeout>Second-120</d:timeout>');
    expect(refreshed.text).toContain(infinite.token);
    // A refresh without a token of a lock here: 412; without an If header: 400.
    expect((await me.dav('LOCK', '/dav/t.txt', { headers: ifToken('urn:uuid:00000000-0000-0000-0000-000000000000') })).status).toBe(412);
    expect((await me.dav('LOCK', '/dav/t.txt')).status).toBe(400);
    // The lock is a row in the database (every app node sees it); once expired it is ignored.
    const row = await env.seed.db.selectFrom('dav_locks').selectAll().where('id', '=', infinite.token.slice('urn:uuid:'.length)).executeTakeFirstOrThrow();
    expect([row.owner_id, row.path_key, row.scope, row.depth, row.timeout_seconds]).toEqual([me.userId, 't.txt', 'exclusive', 'infinity', 120]);
    expect((await me.dav('PUT', '/dav/t.txt', { body: 'y' })).status).toBe(423);
    await env.seed.db.updateTable('dav_locks').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', row.id).execute();
    expect((await me.dav('PUT', '/dav/t.txt', { body: 'y' })).status).toBe(204);
  });

  it('a depth-infinity lock on a folder covers what is in it; an unmapped URL is locked as a new empty file (201)', async () => {
    const me = await account();
    await me.dav('MKCOL', '/dav/Box');
    const box = await takeLock(me.dav, '/dav/Box/');
    expect(box.res.text).toContain('<d:depth>infinity</d:depth>');
    expect((await me.dav('PUT', '/dav/Box/new.txt', { body: 'x' })).status).toBe(423);
    expect((await me.dav('MKCOL', '/dav/Box/Sub')).status).toBe(423);
    expect((await me.dav('PUT', '/dav/Box/new.txt', { headers: { If: `<${at('/dav/Box/')}> (<${box.token}>)` }, body: 'x' })).status).toBe(201);
    // A member's lockdiscovery shows the folder's lock, with the folder as its root.
    const member = await me.dav('PROPFIND', '/dav/Box/new.txt', { headers: { Depth: '0' }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>' });
    expect(member.text).toContain(`<d:lockroot><d:href>/dav/Box/</d:href></d:lockroot>`);
    // An indirect refresh through the member.
    expect((await me.dav('LOCK', '/dav/Box/new.txt', { headers: ifToken(box.token) })).status).toBe(200);
    expect((await me.dav('DELETE', '/dav/Box')).status).toBe(423);
    expect((await me.dav('DELETE', '/dav/Box', { headers: ifToken(box.token) })).status).toBe(204);
    // Deleting the folder removed its lock: the name is free again.
    expect((await me.dav('MKCOL', '/dav/Box')).status).toBe(201);

    const unmapped = await takeLock(me.dav, '/dav/reserved.txt', 'exclusive', { Depth: '0' });
    expect(unmapped.res.status).toBe(201);
    const rows = await env.seed.db.selectFrom('items').select(['size', 'type']).where('owner_id', '=', me.userId).where('name', '=', 'reserved.txt').execute();
    expect(rows.map((r) => [Number(r.size), r.type])).toEqual([[0, 'file']]);
    expect((await me.dav('PUT', '/dav/reserved.txt', { body: 'z' })).status).toBe(423);
    // The client's PUT with the token replaces the empty file, which is deleted rather than trashed.
    expect((await me.dav('PUT', '/dav/reserved.txt', { headers: ifToken(unmapped.token), body: 'z' })).status).toBe(204);
    const after = await env.seed.db.selectFrom('items').select(['size', 'deleted_at']).where('owner_id', '=', me.userId).where('name', '=', 'reserved.txt').execute();
    expect(after.map((r) => [Number(r.size), r.deleted_at])).toEqual([[1, null]]);
    expect((await me.dav('LOCK', '/dav/nowhere/x.txt', { body: lockInfo('exclusive') })).status).toBe(409);
  });

  it('the If header: an entity tag that does not match is 412, a malformed header 400, a bad LOCK body 400', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/e.txt', { body: 'x' });
    const etag = (await me.dav('HEAD', '/dav/e.txt')).headers.get('etag')!;
    expect((await me.dav('PUT', '/dav/e.txt', { headers: { If: `(["not-it"])` }, body: 'y' })).status).toBe(412);
    expect((await me.dav('PUT', '/dav/e.txt', { headers: { If: `([${etag}])` }, body: 'y' })).status).toBe(204);
    expect((await me.dav('PUT', '/dav/e.txt', { headers: { If: '(<DAV:no-lock>)' }, body: 'y' })).status).toBe(412);
    expect((await me.dav('PUT', '/dav/e.txt', { headers: { If: '(Not <DAV:no-lock>)' }, body: 'z' })).status).toBe(204);
    for (const If of ['<urn:x>', '(', '()', 'nonsense']) expect((await me.dav('PUT', '/dav/e.txt', { headers: { If }, body: 'y' })).status, If).toBe(400);
    expect((await me.dav('LOCK', '/dav/e.txt', { body: '<D:lockinfo xmlns:D="DAV:"><D:locktype><D:write/></D:locktype></D:lockinfo>' })).status).toBe(400);
    expect((await me.dav('LOCK', '/dav/e.txt', { body: '<lockinfo' })).status).toBe(400);
    expect((await me.dav('LOCK', '/dav/e.txt', { headers: { Depth: '1' }, body: lockInfo('exclusive') })).status).toBe(400);
  });
});
