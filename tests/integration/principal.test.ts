import { describe, expect, it } from 'vitest';
import { Client, registerUser, type RequestOptions } from '../support/client.ts';
import { browse, mkdir, snapshot } from '../support/files.ts';
import { useSeededServer } from '../support/seed.ts';
import { share, tusAsTokenHolder, uploadTo, visitor } from '../support/shares.ts';
import { createToken, uploadForm } from '../support/uploads.ts';

/**
 * auth/principal.ts: the same principal, and the same CSRF rule, on both planes. Each case is
 * asked of an Astro endpoint (create a folder) and of a data-plane route (a one-request upload).
 */
const env = useSeededServer();

/** A write on each plane: Astro's create-folder and the data plane's plain upload, with the same headers. */
async function writeBoth(client: Client, paths: { astro: string; data: string }, options: RequestOptions = {}) {
  const astro = await client.request(paths.astro, { method: 'POST', json: { name: `F${Math.random().toString(36).slice(2, 8)}`, parent_id: null }, ...options });
  const form = new FormData();
  form.append('file', new Blob(['hello'], { type: 'text/plain' }), `f${Math.random().toString(36).slice(2, 8)}.txt`);
  const data = await client.request(paths.data, { method: 'POST', body: form, ...options });
  return { astro, data };
}

const OWNER = { astro: '/api/create-folder', data: '/api/upload' };
const shareHolder = (token: string) => ({ astro: `/api/editor/create-folder/${token}`, data: `/api/editor/upload/${token}` });
const requestHolder = (token: string) => ({ astro: `/api/upload-request/${token}/create-folder`, data: `/api/upload-request/${token}/upload` });

async function uploadRequest(owner: Client, folder: string): Promise<string> {
  const res = await owner.post('/api/upload-request', { folder_id: folder });
  expect(res.status, res.text).toBe(201);
  return res.body.data.attributes.token;
}

describe('the principal of a request, on both planes', () => {
  it('a session cookie signs in; its writes need our Origin and X-Requested-With', async () => {
    const { client } = await registerUser(env.server.url);
    const ok = await writeBoth(client, OWNER);
    expect([ok.astro.status, ok.data.status], ok.astro.text + ok.data.text).toEqual([201, 201]);
    expect(ok.data.body.data.attributes.file_url).toMatch(/^\/file\/[0-9a-f-]+$/);

    const before = await snapshot(client);
    for (const options of [{ xrw: false }, { origin: 'https://evil.example' }, { origin: null }] satisfies RequestOptions[]) {
      const refused = await writeBoth(client, OWNER, options);
      expect([refused.astro.status, refused.data.status], JSON.stringify(options)).toEqual([403, 403]);
      expect([refused.astro.body.code, refused.data.body.code]).toEqual(['csrf_refused', 'csrf_refused']);
      expect(refused.astro.body.message).toBe(refused.data.body.message);
    }
    expect(await snapshot(client)).toBe(before);
  });

  it('a bearer token signs in without a cookie and is exempt from the CSRF rule', async () => {
    const { client, user } = await registerUser(env.server.url);
    const token = await createToken(client);
    const bare = new Client(env.server.url);
    expect((await bare.get('/api/user', { bearer: token, origin: null, xrw: false })).body.data.id).toBe(user.id);
    const ok = await writeBoth(bare, OWNER, { bearer: token, origin: 'https://elsewhere.example', xrw: false });
    expect([ok.astro.status, ok.data.status], ok.astro.text + ok.data.text).toEqual([201, 201]);
    expect((await browse(client)).names).toHaveLength(2);
  });

  it('a bad or revoked bearer token is a 401 invalid_token on both planes, even beside a good cookie', async () => {
    const { client } = await registerUser(env.server.url);
    const token = await createToken(client);
    const tokens = await client.get('/api/user/tokens');
    const id = tokens.body.data[0].id as string;
    expect((await client.request(`/api/user/tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
    const before = await snapshot(client);
    for (const bearer of ['cd_not-a-token', token]) {
      const refused = await writeBoth(client, OWNER, { bearer });
      expect([refused.astro.status, refused.data.status]).toEqual([401, 401]);
      expect([refused.astro.body.code, refused.data.body.code]).toEqual(['invalid_token', 'invalid_token']);
      expect(refused.astro.headers.get('www-authenticate')).toBe('Bearer');
      expect(refused.data.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(await snapshot(client)).toBe(before);
  });

  it('nobody signed in is a 401 on both planes (a same-origin write without a cookie)', async () => {
    const refused = await writeBoth(new Client(env.server.url), OWNER);
    expect([refused.astro.status, refused.data.status]).toEqual([401, 401]);
  });

  it('a share editor acts as the owner inside the shared folder; a visitor link only reads', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Shared');
    const editor = await share(owner.client, folder, { permission: 'editor' });
    const guest = visitor(env.server.url);
    const ok = await writeBoth(guest, shareHolder(editor.token), { xrw: false });
    expect([ok.astro.status, ok.data.status], ok.astro.text + ok.data.text).toEqual([201, 201]);
    // Presented as a link holder sees it: bytes under token URLs.
    expect(ok.astro.body.data.attributes.parent_id).toBe(folder);
    expect(ok.data.body.data.attributes.file_url).toMatch(new RegExp(`/${editor.token}$`));
    expect((await browse(owner.client, folder)).names).toHaveLength(2);

    const other = await mkdir(owner.client, 'Viewed');
    const viewer = await share(owner.client, other);
    const refused = await writeBoth(guest, shareHolder(viewer.token), { xrw: false });
    expect([refused.astro.status, refused.data.status]).toEqual([403, 403]);
    const tus = await tusAsTokenHolder(env.server.url, { 'X-Share-Token': viewer.token }, 'x', { filename: 'x.txt', parent_id: '' });
    expect(tus.created).toBe(403);
    expect((await browse(owner.client, other)).names).toEqual([]);
  });

  it('a link holder’s writes must come from our origin, on both planes and over tus', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Shared');
    const editor = await share(owner.client, folder, { permission: 'editor' });
    const request = await uploadRequest(owner.client, await mkdir(owner.client, 'Inbox'));
    const guest = visitor(env.server.url);
    for (const paths of [shareHolder(editor.token), requestHolder(request)]) {
      const refused = await writeBoth(guest, paths, { origin: 'https://evil.example', xrw: false });
      expect([refused.astro.status, refused.data.status], paths.astro).toEqual([403, 403]);
      expect([refused.astro.body.code, refused.data.body.code]).toEqual(['csrf_refused', 'csrf_refused']);
    }
    const tus = await tusAsTokenHolder(env.server.url, { 'X-Share-Token': editor.token, Origin: 'https://evil.example' }, 'x', { filename: 'x.txt', parent_id: '' });
    expect(tus.created).toBe(403);
    expect((await browse(owner.client, folder)).names).toEqual([]);
  });

  it('an upload request’s holder uploads and makes folders as the owner, and the owner is told before the answer', async () => {
    const owner = await registerUser(env.server.url);
    const inbox = await mkdir(owner.client, 'Inbox');
    const token = await uploadRequest(owner.client, inbox);
    const guest = visitor(env.server.url);
    const ok = await writeBoth(guest, requestHolder(token), { xrw: false });
    expect([ok.astro.status, ok.data.status], ok.astro.text + ok.data.text).toEqual([201, 201]);
    expect(ok.data.body.data.attributes.file_url).toBeNull();
    // upload.finished is awaited: the notification exists once the upload is answered.
    const stored = await env.seed.db.selectFrom('notifications').select('category').where('user_id', '=', owner.user.id).execute();
    expect(stored.map((n) => n.category)).toContain('file-request');
    // Both were recorded as the holder's: it may rename them.
    for (const item of [ok.astro.body.data, ok.data.body.data]) {
      const renamed = await guest.request(`/api/upload-request/${token}/rename/${item.id}`, { method: 'POST', json: { _method: 'patch', name: `r-${item.attributes.name}` } });
      expect(renamed.status, renamed.text).toBe(200);
    }
    const tus = await tusAsTokenHolder(env.server.url, { 'X-Upload-Request-Token': token }, 'tus bytes', { filename: 'tus.txt', parent_id: '' });
    expect([tus.created, tus.patch], tus.text).toEqual([201, 204]);
    expect((await browse(owner.client, inbox)).names).toHaveLength(3);
  });

  it('an expired or revoked share link and a closed or expired request refuse on both planes, changing nothing', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Shared');
    const expired = await share(owner.client, folder, { permission: 'editor' });
    await env.seed.db.updateTable('shares').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token', '=', expired.token).execute();
    const guest = visitor(env.server.url);
    let refused = await writeBoth(guest, shareHolder(expired.token), { xrw: false });
    expect([refused.astro.status, refused.data.status]).toEqual([404, 404]);

    const other = await mkdir(owner.client, 'Other');
    const revoked = await share(owner.client, other, { permission: 'editor' });
    expect((await owner.client.post('/api/share/revoke', { _method: 'delete', tokens: [revoked.token] })).status).toBe(204);
    refused = await writeBoth(guest, shareHolder(revoked.token), { xrw: false });
    expect([refused.astro.status, refused.data.status]).toEqual([404, 404]);
    expect((await guest.get(`/api/browse/folders/all/${revoked.token}`)).status).toBe(404);

    const closed = await uploadRequest(owner.client, await mkdir(owner.client, 'Closed'));
    expect((await guest.request(`/api/upload-request/${closed}`, { method: 'DELETE' })).status).toBe(200);
    refused = await writeBoth(guest, requestHolder(closed), { xrw: false });
    expect([refused.astro.status, refused.data.status]).toEqual([423, 423]);
    expect([refused.astro.body.code, refused.data.body.code]).toEqual(['upload_request_filled', 'upload_request_filled']);

    const late = await uploadRequest(owner.client, await mkdir(owner.client, 'Late'));
    await env.seed.db.updateTable('upload_requests').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token', '=', late).execute();
    refused = await writeBoth(guest, requestHolder(late), { xrw: false });
    expect([refused.astro.status, refused.data.status]).toEqual([423, 423]);
    const tus = await tusAsTokenHolder(env.server.url, { 'X-Upload-Request-Token': late }, 'x', { filename: 'x.txt', parent_id: '' });
    expect(tus.created).toBe(423);

    for (const wrong of ['a'.repeat(39), 'nope']) {
      refused = await writeBoth(guest, requestHolder(wrong), { xrw: false });
      expect([refused.astro.status, refused.data.status]).toEqual([404, 404]);
    }
    for (const id of [folder, other]) expect((await browse(owner.client, id)).names).toEqual([]);
  });

  it('a link’s scope holds: an editor naming the owner’s items outside the shared folder gets 404, as for a missing one', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Shared');
    const outside = await mkdir(owner.client, 'Outside');
    const editor = await share(owner.client, folder, { permission: 'editor' });
    const guest = visitor(env.server.url);
    const created = await guest.request(`/api/editor/create-folder/${editor.token}`, { method: 'POST', json: { name: 'x', parent_id: outside } });
    expect(created.status).toBe(404);
    const upload = await uploadTo(guest, `/api/editor/upload/${editor.token}`, 'x', { parent_id: outside });
    expect(upload.status).toBe(404);
    const moved = await guest.post(`/api/editor/move/${editor.token}`, { to_id: folder, items: [{ id: outside, type: 'folder' }] });
    expect(moved.status).toBe(404);
    expect((await browse(owner.client)).names.sort()).toEqual(['Outside', 'Shared']);
  });
});

/**
 * The table of principal × route × object: every item action, on each plane, naming the owner's
 * folder and file that lie outside what the principal may reach. Each answer is the refusal of
 * the principal (401 for nobody and a bad token, 404 for anyone else, as for a missing id), and
 * nothing changes.
 */
describe('the authorization table: principals × routes × an object outside their reach', () => {
  it('refuses every action on the owner’s items to every other principal', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Private');
    const { body } = await uploadForm(owner.client, 'secret', { parent_id: folder, filename: 'secret.txt' });
    const file = body.data.id as string;
    const sibling = await mkdir(owner.client, 'Open');
    const editor = await share(owner.client, sibling, { permission: 'editor' });
    const request = await uploadRequest(owner.client, sibling);
    const before = await snapshot(owner.client);

    const stranger = await registerUser(env.server.url);
    const strangerToken = await createToken(stranger.client);
    const guest = visitor(env.server.url);
    const noCookie = (bearer?: string): RequestOptions => (bearer ? { bearer, origin: null, xrw: false } : {});

    /** The item routes, each under the prefix and suffix a principal uses, and what they name. */
    const routes = (p: { prefix: string; token: string; upload: string }) => [
      { method: 'POST', path: `${p.upload}?parent_id=${folder}&filename=x.txt`, raw: 'bytes' },
      { method: 'POST', path: `${p.prefix}/create-folder${p.token}`, json: { name: 'x', parent_id: folder } },
      { method: 'POST', path: `${p.prefix}/rename/${file}${p.token}`, json: { _method: 'patch', name: 'y.txt' } },
      { method: 'POST', path: `${p.prefix}/move${p.token}`, json: { to_id: null, items: [{ id: file, type: 'file' }] } },
      { method: 'POST', path: `${p.prefix}/remove${p.token}`, json: { items: [{ id: folder, type: 'folder' }] } },
    ];
    const ownerRoutes = [
      ...routes({ prefix: '/api', token: '', upload: '/api/upload' }),
      { method: 'GET', path: `/api/browse/folders/${folder}` },
      { method: 'GET', path: `/file/${file}` },
      { method: 'GET', path: `/api/zip?items=${encodeURIComponent(`${file}|file`)}` },
    ];
    const cases: { who: string; client: Client; options: RequestOptions; routes: { method: string; path: string; json?: unknown; raw?: string }[]; expected: number }[] = [
      { who: 'another user (cookie)', client: stranger.client, options: {}, routes: ownerRoutes, expected: 404 },
      { who: 'another user (token)', client: new Client(env.server.url), options: noCookie(strangerToken), routes: ownerRoutes, expected: 404 },
      { who: 'signed out', client: guest, options: {}, routes: ownerRoutes, expected: 401 },
      { who: 'a bad token', client: new Client(env.server.url), options: noCookie('cd_wrong'), routes: ownerRoutes, expected: 401 },
      {
        who: 'a share editor of another folder',
        client: guest,
        options: {},
        routes: [
          ...routes({ prefix: '/api/editor', token: `/${editor.token}`, upload: `/api/editor/upload/${editor.token}` }),
          { method: 'GET', path: `/api/browse/folders/${folder}/${editor.token}` },
          { method: 'GET', path: `/file/${file}/${editor.token}` },
          { method: 'GET', path: `/api/zip/${editor.token}?items=${encodeURIComponent(`${file}|file`)}` },
        ],
        expected: 404,
      },
      {
        who: 'an upload request of another folder',
        client: guest,
        options: {},
        routes: [
          ...routes({ prefix: `/api/upload-request/${request}`, token: '', upload: `/api/upload-request/${request}/upload` }),
          { method: 'GET', path: `/api/upload-request/${request}/browse/${folder}` },
        ],
        expected: 404,
      },
    ];
    for (const c of cases) {
      for (const r of c.routes) {
        const body = r.raw === undefined ? {} : { body: r.raw, headers: { 'Content-Type': 'application/octet-stream' } };
        const res = await c.client.request(r.path, { method: r.method, ...(r.json ? { json: r.json } : {}), ...body, ...c.options });
        expect(res.status, `${c.who}: ${r.method} ${r.path} ${res.text.slice(0, 200)}`).toBe(c.expected);
      }
    }
    expect(await snapshot(owner.client)).toBe(before);
  });
});
