import { describe, expect, it } from 'vitest';
import { updateItem } from '../../src/server/files/queries.ts';
import { setRestrictions } from '../../src/server/users/restrictions.ts';
import { registerUser } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

// 1,000 bytes whose every offset is recognisable.
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7 + 3) % 256));

async function ownerWithFile(file: { name?: string; mimetype?: string; content?: Buffer | string } = {}) {
  const owner = await registerUser(env.server.url);
  const seeded = await seedFile(env.seed, owner.user.id, { name: file.name ?? 'data.bin', mimetype: file.mimetype ?? 'application/octet-stream', content: file.content ?? BYTES });
  return { owner, file: seeded, url: `/file/${seeded.id}` };
}

describe('GET /file/{id}', () => {
  it('streams the whole file with its length, validators and the item resource pointing at it', async () => {
    const { owner, file, url } = await ownerWithFile();
    const home = await owner.client.get('/api/browse/folders/all');
    const item = home.body.data.find((i: any) => i.id === file.id);
    expect(item.attributes.file_url).toBe(url);
    expect(item.attributes.thumbnail).toBeNull();

    const res = await download(env.server.url, url, owner.client);
    expect(res.status).toBe(200);
    expect(res.body.equals(BYTES)).toBe(true);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('last-modified')).toMatch(/GMT$/);
    expect(res.headers.get('cache-control')).toContain('private');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="data.bin"');
  });

  it('answers byte ranges: the first bytes, the middle, a suffix, open-ended, and 416 past the end', async () => {
    const { owner, url } = await ownerWithFile();
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=400-599', 400, 599],
      ['bytes=-100', 900, 999],
      ['bytes=950-', 950, 999],
      ['bytes=990-5000', 990, 999],
    ];
    for (const [range, start, end] of cases) {
      const res = await download(env.server.url, url, owner.client, { Range: range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/1000`);
      expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(res.body.equals(BYTES.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await download(env.server.url, url, owner.client, { Range: 'bytes=1000-1100' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */1000');
    // Several ranges may be answered with the whole file; a malformed one is ignored.
    const several = await download(env.server.url, url, owner.client, { Range: 'bytes=0-9,500-509' });
    expect(several.status).toBe(200);
    expect(several.body.equals(BYTES)).toBe(true);
    const malformed = await download(env.server.url, url, owner.client, { Range: 'lines=1-2' });
    expect(malformed.status).toBe(200);
  });

  it('answers 304 to If-None-Match and If-Modified-Since, and honours If-Range', async () => {
    const { owner, url } = await ownerWithFile();
    const first = await download(env.server.url, url, owner.client);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;

    const same = await download(env.server.url, url, owner.client, { 'If-None-Match': etag });
    expect(same.status).toBe(304);
    expect(same.body.length).toBe(0);
    expect(same.headers.get('etag')).toBe(etag);
    expect((await download(env.server.url, url, owner.client, { 'If-None-Match': `"other", ${etag}` })).status).toBe(304);
    expect((await download(env.server.url, url, owner.client, { 'If-None-Match': '"other"' })).status).toBe(200);
    expect((await download(env.server.url, url, owner.client, { 'If-Modified-Since': lastModified })).status).toBe(304);
    // If-None-Match wins over If-Modified-Since.
    expect((await download(env.server.url, url, owner.client, { 'If-None-Match': '"other"', 'If-Modified-Since': lastModified })).status).toBe(200);

    const resumed = await download(env.server.url, url, owner.client, { Range: 'bytes=500-', 'If-Range': etag });
    expect(resumed.status).toBe(206);
    expect(resumed.body.equals(BYTES.subarray(500))).toBe(true);
    const byDate = await download(env.server.url, url, owner.client, { Range: 'bytes=500-', 'If-Range': lastModified });
    expect(byDate.status).toBe(206);
    const changed = await download(env.server.url, url, owner.client, { Range: 'bytes=500-', 'If-Range': '"not-these-bytes"' });
    expect(changed.status).toBe(200);
    expect(changed.body.equals(BYTES)).toBe(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const { owner, url } = await ownerWithFile();
    const res = await download(env.server.url, url, owner.client, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.body.length).toBe(0);
    const ranged = await download(env.server.url, url, owner.client, { Range: 'bytes=0-9' }, 'HEAD');
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
  });

  it('previews safe types inline and sends everything else as an attachment, ?download=1 included', async () => {
    const owner = await registerUser(env.server.url);
    const cases: [string, string, string, boolean][] = [
      ['photo.png', 'image/png', 'image/png', true],
      ['clip.mp4', 'video/mp4', 'video/mp4', true],
      ['song.mp3', 'audio/mpeg', 'audio/mpeg', true],
      ['paper.pdf', 'application/pdf', 'application/pdf', true],
      ['notes.txt', 'text/plain', 'text/plain; charset=utf-8', true],
      ['data.json', 'application/json', 'text/plain; charset=utf-8', true],
      ['setup.exe', 'application/x-msdownload', 'application/octet-stream', false],
    ];
    for (const [name, mimetype, served, inline] of cases) {
      const file = await seedFile(env.seed, owner.user.id, { name, mimetype, content: 'x' });
      const res = await download(env.server.url, `/file/${file.id}`, owner.client);
      expect(res.headers.get('content-type'), name).toBe(served);
      expect(res.headers.get('content-disposition'), name).toBe(`${inline ? 'inline' : 'attachment'}; filename="${name}"`);
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      const forced = await download(env.server.url, `/file/${file.id}?download=1`, owner.client);
      expect(forced.headers.get('content-disposition'), name).toBe(`attachment; filename="${name}"`);
      expect(forced.headers.get('content-type'), name).toBe('application/octet-stream');
    }
  });

  it('never lets HTML, SVG, XML or JavaScript run in our origin', async () => {
    const owner = await registerUser(env.server.url);
    const cases: [string, string][] = [
      ['page.html', 'text/html'],
      ['drawing.svg', 'image/svg+xml'],
      ['feed.xml', 'application/xml'],
      ['doc.xhtml', 'application/xhtml+xml'],
      ['app.js', 'text/javascript'],
      ['sneaky.png', 'text/html; charset=utf-8'],
    ];
    for (const [name, mimetype] of cases) {
      const file = await seedFile(env.seed, owner.user.id, { name, mimetype, content: '<script>alert(document.cookie)</script>' });
      const res = await download(env.server.url, `/file/${file.id}`, owner.client);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toBe('application/octet-stream');
      expect(res.headers.get('content-disposition'), name).toMatch(/^attachment;/);
      expect(res.headers.get('content-security-policy'), name).toBe("sandbox; default-src 'none'");
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
    }
  });

  it('writes a safe Content-Disposition for non-ASCII, quote and CR/LF names', async () => {
    const owner = await registerUser(env.server.url);
    const unicode = await seedFile(env.seed, owner.user.id, { name: 'Résumé 日本.pdf', mimetype: 'application/pdf' });
    let res = await download(env.server.url, `/file/${unicode.id}`, owner.client);
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="Resume __.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC.pdf`);

    const quoted = await seedFile(env.seed, owner.user.id, { name: 'say "hi"; x=y.txt', mimetype: 'application/zip' });
    res = await download(env.server.url, `/file/${quoted.id}`, owner.client);
    const header = res.headers.get('content-disposition')!;
    expect(header).toBe(`attachment; filename="say _hi_; x=y.txt"; filename*=UTF-8''say%20%22hi%22%3B%20x%3Dy.txt`);

    // Names with CR/LF cannot be made through the API; one that got into the database anyway
    // (an import, an old row) still yields one clean header line.
    const crlf = await seedFile(env.seed, owner.user.id, { name: 'evil.txt', mimetype: 'text/plain' });
    await updateItem(env.seed.db, crlf.id, { name: 'evil\r\nSet-Cookie: x=1.txt' });
    res = await download(env.server.url, `/file/${crlf.id}`, owner.client);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="evil__Set-Cookie: x=1.txt"; filename*=UTF-8''evil%0D%0ASet-Cookie%3A%20x%3D1.txt`);
  });

  it('refuses: signed out 401, a wrong bearer 401, another user 404, the trash 404, a folder 404, canDownload false 403', async () => {
    const { owner, file, url } = await ownerWithFile();
    expect((await download(env.server.url, url, null)).status).toBe(401);
    expect((await download(env.server.url, url, null, { Authorization: 'Bearer cd_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).status).toBe(401);

    const other = await registerUser(env.server.url);
    const stranger = await download(env.server.url, url, other.client);
    expect(stranger.status).toBe(404);
    expect(stranger.body.length).toBeLessThan(200);
    expect((await download(env.server.url, '/file/00000000-0000-0000-0000-000000000000', owner.client)).status).toBe(404);
    expect((await download(env.server.url, '/file/not-an-id', owner.client)).status).toBe(404);

    // A bearer token works like the cookie.
    const token = (await owner.client.post('/api/user/tokens', { name: 'cli' })).body.meta.token as string;
    const scripted = await download(env.server.url, url, null, { Authorization: `Bearer ${token}` });
    expect(scripted.status).toBe(200);
    expect(scripted.body.equals(BYTES)).toBe(true);

    await setRestrictions(env.seed, owner.user.id, { canDownload: false });
    const blocked = await download(env.server.url, url, owner.client);
    expect(blocked.status).toBe(403);
    expect(JSON.parse(blocked.body.toString()).code).toBe('download_temporarily_disabled');
    await setRestrictions(env.seed, owner.user.id, {});

    expect((await owner.client.post('/api/remove', { items: [{ id: file.id, type: 'file' }] })).status).toBe(204);
    expect((await download(env.server.url, url, owner.client)).status).toBe(404);
    await owner.client.post('/api/trash/restore', { items: [{ id: file.id, type: 'file' }] });
    expect((await download(env.server.url, url, owner.client)).status).toBe(200);

    const folder = (await owner.client.post('/api/create-folder', { name: 'A folder', parent_id: null })).body.data.id;
    expect((await download(env.server.url, `/file/${folder}`, owner.client)).status).toBe(404);
  });

  it('serves an empty file', async () => {
    const { owner, url } = await ownerWithFile({ content: Buffer.alloc(0) });
    const res = await download(env.server.url, url, owner.client);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('0');
    const ranged = await download(env.server.url, url, owner.client, { Range: 'bytes=0-10' });
    expect(ranged.status).toBe(200);
  });
});
