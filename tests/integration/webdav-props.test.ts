import { describe, expect, it } from 'vitest';
import { davAccount } from '../support/dav.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();
const account = () => davAccount(env.server.url);
const at = (path: string) => `${env.server.url}${path}`;
const hrefs = (xml: string) => [...xml.matchAll(/<d:href>([^<]*)<\/d:href>/g)].map((m) => m[1]);

const update = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example:z">${inner}</D:propertyupdate>`;
const ask = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:example:z"><D:prop>${inner}</D:prop></D:propfind>`;

describe('WebDAV PROPPATCH (dead properties)', () => {
  it('sets and removes properties in document order, answers a multistatus, and PROPFIND reads them back', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/p.txt', { body: 'x' });
    const set = await me.dav('PROPPATCH', '/dav/p.txt', {
      body: update('<D:set><D:prop><Z:colour>blue &amp; green</Z:colour><Z:tree><Z:leaf n="1">ü 𐀀</Z:leaf><other xmlns="urn:other"/></Z:tree><bare xmlns="">plain</bare></D:prop></D:set>'),
    });
    expect(set.status).toBe(207);
    expect(hrefs(set.text)).toEqual(['/dav/p.txt']);
    expect(set.text).toContain('<d:propstat><d:prop><colour xmlns="urn:example:z"/><tree xmlns="urn:example:z"/><bare xmlns=""/></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>');
    const got = await me.dav('PROPFIND', '/dav/p.txt', { headers: { Depth: '0' }, body: ask('<Z:colour/><Z:tree/><bare xmlns=""/><Z:missing/>') });
    expect(got.status).toBe(207);
    expect(got.text).toContain('<colour xmlns="urn:example:z">blue &amp; green</colour>');
    expect(got.text).toContain('<tree xmlns="urn:example:z"><leaf xmlns="urn:example:z" n="1">ü 𐀀</leaf><other xmlns="urn:other"/></tree>');
    expect(got.text).toContain('<bare xmlns="">plain</bare>');
    expect(got.text).toContain('<d:propstat><d:prop><missing xmlns="urn:example:z"/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>');
    // allprop and propname list dead properties too.
    const all = await me.dav('PROPFIND', '/dav/p.txt', { headers: { Depth: '0' } });
    expect(all.text).toContain('<colour xmlns="urn:example:z">blue &amp; green</colour>');
    const names = await me.dav('PROPFIND', '/dav/p.txt', { headers: { Depth: '0' }, body: '<propfind xmlns="DAV:"><propname/></propfind>' });
    expect(names.text).toContain('<colour xmlns="urn:example:z"/>');

    // Remove then set: set wins; set then remove: removed.
    await me.dav('PROPPATCH', '/dav/p.txt', { body: update('<D:remove><D:prop><Z:colour/></D:prop></D:remove><D:set><D:prop><Z:colour>red</Z:colour></D:prop></D:set>') });
    await me.dav('PROPPATCH', '/dav/p.txt', { body: update('<D:set><D:prop><Z:tree>x</Z:tree></D:prop></D:set><D:remove><D:prop><Z:tree/></D:prop></D:remove>') });
    const after = await me.dav('PROPFIND', '/dav/p.txt', { headers: { Depth: '0' }, body: ask('<Z:colour/><Z:tree/>') });
    expect(after.text).toContain('<colour xmlns="urn:example:z">red</colour>');
    expect(after.text).toContain('<d:propstat><d:prop><tree xmlns="urn:example:z"/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>');
  });

  it('a protected live property is 403 and the rest 424, all or nothing; the home folder refuses; bad bodies are 400', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/q.txt', { body: 'x' });
    const refused = await me.dav('PROPPATCH', '/dav/q.txt', { body: update('<D:set><D:prop><Z:a>1</Z:a><D:getetag>"x"</D:getetag></D:prop></D:set>') });
    expect(refused.status).toBe(207);
    expect(refused.text).toContain('<d:propstat><d:prop><a xmlns="urn:example:z"/></d:prop><d:status>HTTP/1.1 424 Failed Dependency</d:status></d:propstat>');
    expect(refused.text).toContain('<d:propstat><d:prop><d:getetag/></d:prop><d:status>HTTP/1.1 403 Forbidden</d:status></d:propstat>');
    expect(await env.seed.db.selectFrom('dav_properties').selectAll().execute().then((rows) => rows.filter((r) => r.name === 'a'))).toEqual([]);
    const big = await me.dav('PROPPATCH', '/dav/q.txt', { body: update(`<D:set><D:prop><Z:big>${'x'.repeat(70 * 1024)}</Z:big></D:prop></D:set>`) });
    expect(big.text).toContain('HTTP/1.1 507 Insufficient Storage');
    const home = await me.dav('PROPPATCH', '/dav/', { body: update('<D:set><D:prop><Z:a>1</Z:a></D:prop></D:set>') });
    expect(home.text).toContain('HTTP/1.1 403 Forbidden');
    for (const body of ['', '<D:propertyupdate xmlns:D="DAV:">', '<D:other xmlns:D="DAV:"/>', update('')]) {
      expect((await me.dav('PROPPATCH', '/dav/q.txt', { body })).status, body).toBe(400);
    }
    expect((await me.dav('PROPPATCH', '/dav/nothing.txt', { body: update('<D:set><D:prop><Z:a>1</Z:a></D:prop></D:set>') })).status).toBe(404);
    // A dead property nested thousands deep is refused before anything is stored; a hundred levels are kept.
    const nest = (depth: number) => `${'<Z:n>'.repeat(depth)}${'</Z:n>'.repeat(depth)}`;
    const deep = await me.dav('PROPPATCH', '/dav/q.txt', { body: update(`<D:set><D:prop><Z:deep>${nest(3000)}</Z:deep></D:prop></D:set>`) });
    expect(deep.status, deep.text).toBe(400);
    expect(deep.text).toContain('nests elements more than 100 deep');
    expect(await env.seed.db.selectFrom('dav_properties').selectAll().execute().then((rows) => rows.filter((r) => r.name === 'deep'))).toEqual([]);
    const fair = await me.dav('PROPPATCH', '/dav/q.txt', { body: update(`<D:set><D:prop><Z:fair>${nest(90)}</Z:fair></D:prop></D:set>`) });
    expect(fair.status, fair.text).toBe(207);
    expect(fair.text).toContain('HTTP/1.1 200 OK');
  });

  it('properties move with MOVE, are copied by COPY and kept by a replacing PUT', async () => {
    const me = await account();
    await me.dav('MKCOL', '/dav/Dir');
    await me.dav('PUT', '/dav/Dir/f.txt', { body: 'x' });
    await me.dav('PROPPATCH', '/dav/Dir/f.txt', { body: update('<D:set><D:prop><Z:tag>kept</Z:tag></D:prop></D:set>') });
    await me.dav('PROPPATCH', '/dav/Dir', { body: update('<D:set><D:prop><Z:tag>folder</Z:tag></D:prop></D:set>') });
    const tag = async (path: string) => (await me.dav('PROPFIND', path, { headers: { Depth: '0' }, body: ask('<Z:tag/>') })).text.match(/<tag xmlns="urn:example:z">([^<]*)<\/tag>/)?.[1];
    expect((await me.dav('MOVE', '/dav/Dir/f.txt', { headers: { Destination: at('/dav/Dir/g.txt') } })).status).toBe(201);
    expect(await tag('/dav/Dir/g.txt')).toBe('kept');
    expect((await me.dav('PUT', '/dav/Dir/g.txt', { body: 'new content' })).status).toBe(204);
    expect(await tag('/dav/Dir/g.txt')).toBe('kept');
    expect((await me.dav('COPY', '/dav/Dir', { headers: { Destination: at('/dav/Copy') } })).status).toBe(201);
    expect(await tag('/dav/Copy')).toBe('folder');
    expect(await tag('/dav/Copy/g.txt')).toBe('kept');
    // A new file at a deleted file's path starts without its properties.
    await me.dav('DELETE', '/dav/Copy/g.txt');
    await me.dav('PUT', '/dav/Copy/g.txt', { body: 'y' });
    expect(await tag('/dav/Copy/g.txt')).toBeUndefined();
  });
});

describe('WebDAV PROPFIND on the home folder', () => {
  it('answers at /dav and /dav/, Depth 0 and 1, with the lock properties; Depth infinity is 403', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/top.txt', { body: 'x' });
    for (const path of ['/dav', '/dav/']) {
      const zero = await me.dav('PROPFIND', path, { headers: { Depth: '0' } });
      expect(zero.status).toBe(207);
      expect(hrefs(zero.text)).toEqual(['/dav/']);
      expect(zero.text).toContain('<d:resourcetype><d:collection/></d:resourcetype>');
      expect(zero.text).toContain('<d:supportedlock><d:lockentry>');
      expect(zero.text).toContain('<d:lockdiscovery/>');
      const one = await me.dav('PROPFIND', path, { headers: { Depth: '1' } });
      expect(hrefs(one.text)).toEqual(['/dav/', '/dav/top.txt']);
      const infinite = await me.dav('PROPFIND', path, { headers: { Depth: 'infinity' } });
      expect(infinite.status).toBe(403);
      expect(infinite.text).toContain('<d:propfind-finite-depth/>');
    }
  });
});
