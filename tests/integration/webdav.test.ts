import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { registerUser } from '../support/client.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();
const MiB = 1024 * 1024;

/** A small WebDAV client: raw requests with HTTP Basic. */
function dav(email: string, secret: string) {
  const auth = `Basic ${Buffer.from(`${email}:${secret}`).toString('base64')}`;
  return async (method: string, path: string, init: { headers?: Record<string, string>; body?: Buffer | string } = {}) => {
    const res = await fetch(`${env.server.url}${path}`, { method, headers: { Authorization: auth, ...init.headers }, body: init.body === undefined ? null : typeof init.body === 'string' ? init.body : new Uint8Array(init.body) });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
  };
}

/** A new account with an app password (a personal access token). */
async function account() {
  const { client, email, password, user } = await registerUser(env.server.url);
  const created = await client.post('/api/user/tokens', { name: 'WebDAV' });
  const token: string = created.body.meta.token;
  return { client, email, password, userId: user.id as string, token, dav: dav(email, token) };
}

const hrefs = (xml: string) => [...xml.matchAll(/<d:href>([^<]*)<\/d:href>/g)].map((m) => m[1]);

async function items(userId: string, name: string) {
  return env.seed.db.selectFrom('items').select(['id', 'name', 'parent_id', 'deleted_at', 'size', 'type']).where('owner_id', '=', userId).where('name', '=', name).execute();
}

describe('WebDAV authentication', () => {
  it('takes the email and an app password; a wrong one or none is a 401 with the Basic challenge', async () => {
    const me = await account();
    expect((await me.dav('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(207);
    const wrong = await dav(me.email, 'cd_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')('PROPFIND', '/dav/', { headers: { Depth: '0' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm="Cloud Drive"/);
    const other = await account();
    // Another account's token with this email: refused.
    expect((await dav(me.email, other.token)('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(401);
    const none = await fetch(`${env.server.url}/dav/`, { method: 'PROPFIND', headers: { Depth: '0' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="Cloud Drive"/);
    // OPTIONS answers without credentials (clients probe first).
    const opts = await fetch(`${env.server.url}/dav/`, { method: 'OPTIONS' });
    expect(opts.status).toBe(200);
    expect(opts.headers.get('dav')).toBe('1, 2');
    expect(opts.headers.get('allow')).toContain('PROPFIND');
  });

  it('takes the account password without 2FA, refuses it with 2FA on, and refuses a revoked app password', async () => {
    const me = await account();
    expect((await dav(me.email, me.password)('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(207);
    expect((await dav(me.email, 'not the password')('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(401);
    await env.seed.db.updateTable('users').set({ two_factor_enabled_at: new Date().toISOString() }).where('id', '=', me.userId).execute();
    expect((await dav(me.email, me.password)('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(401);
    expect((await me.dav('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(207);
    const list = await me.client.get('/api/user/tokens');
    expect((await me.client.post(`/api/user/tokens/${list.body.data[0].id}`, { _method: 'delete' })).status).toBe(204);
    expect((await me.dav('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(401);
  });
});

describe('WebDAV methods', () => {
  it('PROPFIND depth 0 and 1 lists properties, escaped; infinity is refused', async () => {
    const me = await account();
    expect((await me.dav('MKCOL', '/dav/Tom%20%26%20Jerry')).status).toBe(201);
    expect((await me.dav('PUT', '/dav/Tom%20%26%20Jerry/a%3Cb%3E.txt', { body: 'hello' })).status).toBe(201);
    const zero = await me.dav('PROPFIND', '/dav/Tom%20%26%20Jerry/', { headers: { Depth: '0' } });
    expect(zero.status).toBe(207);
    expect(hrefs(zero.text)).toEqual(['/dav/Tom%20%26%20Jerry/']);
    expect(zero.text).toContain('<d:displayname>Tom &amp; Jerry</d:displayname>');
    expect(zero.text).toContain('<d:collection/>');
    expect(zero.text).toContain('<d:quota-used-bytes>5</d:quota-used-bytes>');
    expect(zero.text).toMatch(/<d:quota-available-bytes>\d+<\/d:quota-available-bytes>/);
    const one = await me.dav('PROPFIND', '/dav/Tom%20%26%20Jerry/', { headers: { Depth: '1' }, body: '<?xml version="1.0"?><propfind xmlns="DAV:"><allprop/></propfind>' });
    expect(hrefs(one.text)).toEqual(['/dav/Tom%20%26%20Jerry/', '/dav/Tom%20%26%20Jerry/a%3Cb%3E.txt']);
    expect(one.text).toContain('<d:displayname>a&lt;b&gt;.txt</d:displayname>');
    expect(one.text).toContain('<d:getcontentlength>5</d:getcontentlength>');
    expect(one.text).toContain('<d:getcontenttype>text/plain</d:getcontenttype>');
    const etag = one.text.match(/<d:getetag>("[^"<]+")<\/d:getetag>/)?.[1];
    expect(etag).toBe((await me.dav('HEAD', '/dav/Tom%20%26%20Jerry/a%3Cb%3E.txt')).headers.get('etag'));
    expect(one.text).toMatch(/<d:getlastmodified>\w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT<\/d:getlastmodified>/);
    expect(one.text).toMatch(/<d:creationdate>\d{4}-\d{2}-\d{2}T[\d:.]+Z<\/d:creationdate>/);
    for (const depth of ['infinity', undefined]) {
      const inf = await me.dav('PROPFIND', '/dav/', depth ? { headers: { Depth: depth } } : {});
      expect(inf.status).toBe(403);
      expect(inf.text).toContain('<d:propfind-finite-depth/>');
    }
    expect((await me.dav('PROPFIND', '/dav/missing', { headers: { Depth: '0' } })).status).toBe(404);
  });

  it('PROPFIND answers the properties asked for, the unknown ones in a 404 propstat; propname; malformed XML is 400', async () => {
    const me = await account();
    await me.dav('PUT', '/dav/f.txt', { body: 'abc' });
    const asked = await me.dav('PROPFIND', '/dav/f.txt', {
      headers: { Depth: '0', 'Content-Type': 'application/xml' },
      body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:x-example"><D:prop><D:getcontentlength/><Z:color/><D:quota-used-bytes/></D:prop></D:propfind>',
    });
    expect(asked.status).toBe(207);
    expect(asked.text).toContain('<d:propstat><d:prop><d:getcontentlength>3</d:getcontentlength></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>');
    expect(asked.text).toContain('<d:propstat><d:prop><color xmlns="urn:x-example"/><d:quota-used-bytes/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>');
    expect(asked.text).not.toContain('displayname');
    const names = await me.dav('PROPFIND', '/dav/f.txt', { headers: { Depth: '0' }, body: '<propfind xmlns="DAV:"><propname/></propfind>' });
    expect(names.text).toContain('<d:getcontentlength/>');
    expect(names.text).not.toContain('>3<');
    for (const body of ['<propfind xmlns="DAV:"><prop>', '<D:propfind xmlns:D="DAV:"><Z:x/></D:propfind>', '<foo:propfind xmlns:foo=""/>', '<other xmlns="DAV:"/>']) {
      expect((await me.dav('PROPFIND', '/dav/f.txt', { headers: { Depth: '0' }, body })).status, body).toBe(400);
    }
  });

  it('PUT then GET a 5 MiB body byte for byte, with a Range; replacing answers 204 and trashes the old content', async () => {
    const me = await account();
    const body = randomBytes(5 * MiB);
    expect((await me.dav('PUT', '/dav/big.bin', { body })).status).toBe(201);
    const got = await me.dav('GET', '/dav/big.bin');
    expect(got.status).toBe(200);
    expect(got.bytes.equals(body)).toBe(true);
    const ranged = await me.dav('GET', '/dav/big.bin', { headers: { Range: 'bytes=1000-1999' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${body.length}`);
    expect(ranged.bytes.equals(body.subarray(1000, 2000))).toBe(true);
    const head = await me.dav('HEAD', '/dav/big.bin');
    expect(head.headers.get('content-length')).toBe(String(body.length));

    expect((await me.dav('PUT', '/dav/big.bin', { body: 'small now' })).status).toBe(204);
    expect((await me.dav('GET', '/dav/big.bin')).text).toBe('small now');
    const rows = await items(me.userId, 'big.bin');
    expect(rows.filter((r) => r.deleted_at === null)).toHaveLength(1);
    expect(rows.filter((r) => r.deleted_at !== null).map((r) => Number(r.size))).toEqual([body.length]);
  });

  it('PUT without a declared length (chunked) is counted as it streams', async () => {
    const me = await account();
    const parts = [randomBytes(MiB), randomBytes(MiB), randomBytes(123)];
    const whole = Buffer.concat(parts);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next) controller.enqueue(new Uint8Array(next));
        else controller.close();
      },
    });
    const auth = `Basic ${Buffer.from(`${me.email}:${me.token}`).toString('base64')}`;
    const res = await fetch(`${env.server.url}/dav/streamed.bin`, { method: 'PUT', headers: { Authorization: auth }, body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(201);
    expect((await me.dav('GET', '/dav/streamed.bin')).bytes.equals(whole)).toBe(true);
  });

  it('PUT: a missing parent is 409, a refused name 400, over the quota 507', async () => {
    const me = await account();
    expect((await me.dav('PUT', '/dav/nowhere/a.txt', { body: 'x' })).status).toBe(409);
    expect((await me.dav('PUT', '/dav/a%0Ab.txt', { body: 'x' })).status).toBe(400);
    expect((await me.dav('PUT', '/dav/CON.txt', { body: 'x' })).status).toBe(400);
    expect((await me.dav('PUT', '/dav/a%2Fb.txt', { body: 'x' })).status).toBe(400);
    await env.seed.db.updateTable('users').set({ storage_limit_bytes: 1024 }).where('id', '=', me.userId).execute();
    expect((await me.dav('PUT', '/dav/too-big.bin', { body: randomBytes(4096) })).status).toBe(507);
    expect(await items(me.userId, 'too-big.bin')).toEqual([]);
  });

  it('PUT: a blocked type is 415 and leaves nothing; an account that may not upload gets 403', async () => {
    const me = await account();
    await putSetting(env.seed, 'mimetypes_blacklist', ['exe']);
    try {
      expect((await me.dav('PUT', '/dav/setup.exe', { body: 'MZ' })).status).toBe(415);
    } finally {
      await putSetting(env.seed, 'mimetypes_blacklist', []);
    }
    expect(await items(me.userId, 'setup.exe')).toEqual([]);
    await env.seed.db.updateTable('users').set({ restrictions: JSON.stringify({ canUpload: false }) }).where('id', '=', me.userId).execute();
    expect((await me.dav('PUT', '/dav/a.txt', { body: 'x' })).status).toBe(403);
  });

  it('MKCOL: 201, 405 when something is there, 409 without the parent, 415 with a body', async () => {
    const me = await account();
    expect((await me.dav('MKCOL', '/dav/Docs')).status).toBe(201);
    expect((await me.dav('MKCOL', '/dav/Docs/Inner/')).status).toBe(201);
    expect((await me.dav('MKCOL', '/dav/docs')).status).toBe(405);
    expect((await me.dav('MKCOL', '/dav/Missing/Inner')).status).toBe(409);
    expect((await me.dav('MKCOL', '/dav/WithBody', { body: '<x/>' })).status).toBe(415);
    const [inner] = await items(me.userId, 'Inner');
    const [docs] = await items(me.userId, 'Docs');
    expect(inner!.parent_id).toBe(docs!.id);
  });

  it('DELETE moves to the trash; the path is then gone', async () => {
    const me = await account();
    await me.dav('MKCOL', '/dav/Old');
    await me.dav('PUT', '/dav/Old/f.txt', { body: 'x' });
    expect((await me.dav('DELETE', '/dav/Old')).status).toBe(204);
    expect((await me.dav('PROPFIND', '/dav/Old', { headers: { Depth: '0' } })).status).toBe(404);
    const [row] = await items(me.userId, 'Old');
    expect(row!.deleted_at).not.toBeNull();
    expect((await me.dav('DELETE', '/dav/Old')).status).toBe(404);
  });

  it('MOVE renames and moves into a folder; Overwrite F on an existing target is 412; into itself 409', async () => {
    const me = await account();
    const at = (path: string) => `${env.server.url}${path}`;
    await me.dav('PUT', '/dav/a.txt', { body: 'A' });
    await me.dav('PUT', '/dav/b.txt', { body: 'B' });
    await me.dav('MKCOL', '/dav/Box');
    expect((await me.dav('MOVE', '/dav/a.txt', { headers: { Destination: at('/dav/renamed.txt') } })).status).toBe(201);
    expect((await me.dav('GET', '/dav/renamed.txt')).text).toBe('A');
    expect((await me.dav('MOVE', '/dav/renamed.txt', { headers: { Destination: at('/dav/Box/inside.txt') } })).status).toBe(201);
    expect((await me.dav('GET', '/dav/Box/inside.txt')).text).toBe('A');
    expect((await me.dav('MOVE', '/dav/b.txt', { headers: { Destination: at('/dav/Box/inside.txt'), Overwrite: 'F' } })).status).toBe(412);
    expect((await me.dav('GET', '/dav/Box/inside.txt')).text).toBe('A');
    expect((await me.dav('MOVE', '/dav/b.txt', { headers: { Destination: at('/dav/Box/inside.txt') } })).status).toBe(204);
    expect((await me.dav('GET', '/dav/Box/inside.txt')).text).toBe('B');
    expect((await me.dav('MOVE', '/dav/Box', { headers: { Destination: at('/dav/Box/Sub') } })).status).toBe(409);
    expect((await me.dav('MOVE', '/dav/Box', { headers: { Destination: at('/dav/Nope/Box') } })).status).toBe(409);
    // Onto the folder that holds it: refused, nothing trashed.
    expect((await me.dav('MOVE', '/dav/Box/inside.txt', { headers: { Destination: at('/dav/Box') } })).status).toBe(409);
    expect((await me.dav('COPY', '/dav/Box/inside.txt', { headers: { Destination: at('/dav/Box') } })).status).toBe(409);
    expect((await me.dav('GET', '/dav/Box/inside.txt')).text).toBe('B');
    // A Destination on another host is refused.
    expect((await me.dav('MOVE', '/dav/Box/inside.txt', { headers: { Destination: 'http://elsewhere.example/dav/x.txt' } })).status).toBe(502);
  });

  it('COPY stores new files through the upload path: a file, a folder deep or shallow, Overwrite F 412, quota 507', async () => {
    const me = await account();
    const at = (path: string) => `${env.server.url}${path}`;
    const body = randomBytes(256 * 1024);
    await me.dav('MKCOL', '/dav/Src');
    await me.dav('MKCOL', '/dav/Src/Sub');
    await me.dav('PUT', '/dav/Src/Sub/data.bin', { body });
    expect((await me.dav('COPY', '/dav/Src/Sub/data.bin', { headers: { Destination: at('/dav/copy.bin') } })).status).toBe(201);
    expect((await me.dav('GET', '/dav/copy.bin')).bytes.equals(body)).toBe(true);
    expect((await me.dav('COPY', '/dav/Src', { headers: { Destination: at('/dav/Deep') } })).status).toBe(201);
    expect((await me.dav('GET', '/dav/Deep/Sub/data.bin')).bytes.equals(body)).toBe(true);
    expect((await me.dav('COPY', '/dav/Src', { headers: { Destination: at('/dav/Shallow'), Depth: '0' } })).status).toBe(201);
    expect(hrefs((await me.dav('PROPFIND', '/dav/Shallow', { headers: { Depth: '1' } })).text)).toEqual(['/dav/Shallow/']);
    expect((await me.dav('COPY', '/dav/copy.bin', { headers: { Destination: at('/dav/Deep'), Overwrite: 'F' } })).status).toBe(412);
    expect((await me.dav('COPY', '/dav/Src', { headers: { Destination: at('/dav/Src/Sub/Again') } })).status).toBe(409);
    expect((await me.dav('COPY', '/dav/Src', { headers: { Destination: at('/dav/src') } })).status).toBe(403);
    // The source stays; the copies are new items with their own blobs.
    expect((await items(me.userId, 'data.bin')).filter((r) => r.deleted_at === null)).toHaveLength(2);
    await env.seed.db.updateTable('users').set({ storage_limit_bytes: 600 * 1024 }).where('id', '=', me.userId).execute();
    expect((await me.dav('COPY', '/dav/copy.bin', { headers: { Destination: at('/dav/one-too-many.bin') } })).status).toBe(507);
    expect(await items(me.userId, 'one-too-many.bin')).toEqual([]);
  });

  it("another account's paths are not reachable: its own namespace answers 404", async () => {
    const owner = await account();
    const other = await account();
    await owner.dav('MKCOL', '/dav/Private');
    await owner.dav('PUT', '/dav/Private/secret.txt', { body: 'secret' });
    expect((await other.dav('GET', '/dav/Private/secret.txt')).status).toBe(404);
    expect((await other.dav('PROPFIND', '/dav/Private', { headers: { Depth: '1' } })).status).toBe(404);
    expect((await other.dav('DELETE', '/dav/Private')).status).toBe(404);
    expect((await other.dav('MOVE', '/dav/Private', { headers: { Destination: `${env.server.url}/dav/Mine` } })).status).toBe(404);
    const home = await other.dav('PROPFIND', '/dav/', { headers: { Depth: '1' } });
    expect(hrefs(home.text)).toEqual(['/dav/']);
    expect((await owner.dav('GET', '/dav/Private/secret.txt')).text).toBe('secret');
  });
});
