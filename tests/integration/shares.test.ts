import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { setRestrictions } from '../../src/server/users/restrictions.ts';
import { Client, registerUser } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { browse, mkdir, snapshot } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';
import { share, tusAsTokenHolder, uploadTo, visitor } from '../support/shares.ts';

// The in-process calls below count the dummy password check instead of timing it.
vi.mock('../../src/server/auth/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/auth/passwords.ts')>();
  return { ...real, verifyAgainstDummy: vi.fn(real.verifyAgainstDummy) };
});

const env = useSeededServer();

/** An owner with Home/{Shared/{Inner/{deep.txt}, a.txt}, Sibling/{secret.txt}} and a visitor link to Shared. */
async function sharedTree(body: Record<string, unknown> = {}) {
  const owner = await registerUser(env.server.url);
  const userId = owner.user.id as string;
  const shared = await mkdir(owner.client, 'Shared');
  const inner = await mkdir(owner.client, 'Inner', shared);
  const sibling = await mkdir(owner.client, 'Sibling');
  const a = await seedFile(env.seed, userId, { name: 'a.txt', parentId: shared, content: 'alpha' });
  const deep = await seedFile(env.seed, userId, { name: 'deep.txt', parentId: inner, content: 'deep' });
  const secret = await seedFile(env.seed, userId, { name: 'secret.txt', parentId: sibling, content: 'secret' });
  const link = await share(owner.client, shared, body);
  return { owner, userId, shared, inner, sibling, a, deep, secret, link, token: link.token as string, guest: visitor(env.server.url) };
}

async function stranger() {
  const other = await registerUser(env.server.url);
  const folder = await mkdir(other.client, 'Theirs');
  const file = await seedFile(env.seed, other.user.id, { name: 'theirs.txt', parentId: folder });
  return { ...other, folder, file };
}

describe('share links: the owner’s calls', () => {
  it('creates a link with a token of at least 128 bits and answers the share resource', async () => {
    const { link, shared } = await sharedTree();
    expect(link.token).toMatch(/^[a-z2-7]{39}$/);
    expect(link).toMatchObject({ permission: 'visitor', item_id: shared, protected: false, expire_in: null, type: 'folder' });
    expect(link.link).toBe(`${env.server.url}/share/${link.token}/files`);
  });

  it('reads null, an empty string and an absent expiration as never, on create and on update', async () => {
    const { client } = await registerUser(env.server.url);
    for (const [index, expiration] of [null, '', undefined].entries()) {
      const folder = await mkdir(client, `Never ${index}`);
      const res = await client.post(`/api/share/${folder}`, expiration === undefined ? { type: 'folder' } : { type: 'folder', expiration });
      expect(res.status, String(expiration)).toBe(201);
      expect(res.body.data.attributes).toMatchObject({ expire_in: null, expires_at: null });
    }
    const folder = await mkdir(client, 'Soon');
    const token = (await client.post(`/api/share/${folder}`, { type: 'folder', expiration: 24 })).body.data.attributes.token;
    expect((await client.post(`/api/share/${token}`, { _method: 'patch', expiration: 24 })).body.data.attributes.expire_in).toBe(24);
    const cleared = await client.post(`/api/share/${token}`, { _method: 'patch', expiration: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.attributes).toMatchObject({ expire_in: null, expires_at: null });
  });

  it('refuses bad input with a 422 and makes no link', async () => {
    const { client } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'F');
    for (const body of [
      { type: 'folder', permission: 'owner' },
      { type: 'folder', expiration: 5 },
      { type: 'folder', expiration: 'soon' },
      // Only a number of hours (or its digits) is one: nothing is coerced into 1 hour.
      { type: 'folder', expiration: true },
      { type: 'folder', expiration: [1] },
      { type: 'folder', expiration: { hours: 1 } },
      { type: 'folder', expiration: '1e0' },
      { type: 'folder', emails: ['not an email'] },
      { type: 'folder', password: '' },
      { type: 'file' },
      { type: 'thing' },
    ]) {
      const res = await client.post(`/api/share/${folder}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.message, JSON.stringify(body)).toEqual(expect.any(String));
    }
    expect((await client.get('/api/browse/share')).body.data).toEqual([]);
  });

  it('refuses another user, and a signed-out client, on every owner call', async () => {
    const { owner, shared, token } = await sharedTree();
    const other = await stranger();
    const anon = new Client(env.server.url);
    for (const client of [other.client, anon]) {
      const expected = client === anon ? 401 : 404;
      expect((await client.post(`/api/share/${shared}`, { type: 'folder' })).status).toBe(expected);
      expect((await client.post(`/api/share/${token}`, { _method: 'patch', permission: 'editor' })).status).toBe(expected);
      expect((await client.post('/api/share/revoke', { _method: 'delete', tokens: [token] })).status).toBe(expected);
    }
    expect((await anon.get('/api/browse/share')).status).toBe(401);
    const mine = await owner.client.get('/api/browse/share');
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0].relationships.shared.data.attributes.permission).toBe('visitor');
    expect((await other.client.get('/api/browse/share')).body.data).toEqual([]);
  });

  it('emails the link to every address given', async () => {
    const { token } = await sharedTree({ emails: ['first@example.test', 'second@example.test'] });
    const outbox = await readFile(path.join(env.server.dataDir, 'mail', 'outbox.jsonl'), 'utf8');
    const sent = outbox.trim().split('\n').map((l) => JSON.parse(l)).filter((m) => m.text.includes(token));
    expect(sent.map((m) => m.to).sort()).toEqual(['first@example.test', 'second@example.test']);
  });

  it('marks shared items in the owner’s listing', async () => {
    const { owner, shared } = await sharedTree();
    const home = await browse(owner.client);
    const item = home.body.data.find((i: any) => i.id === shared);
    expect(item.relationships.shared.data.attributes.permission).toBe('visitor');
    expect(home.body.data.find((i: any) => i.attributes.name === 'Sibling').relationships.shared).toBeNull();
  });
});

describe('share links: a visitor', () => {
  it('browses the shared folder, its tree, downloads a file and a zip', async () => {
    const { guest, token, inner, a } = await sharedTree();
    const detail = await guest.get(`/api/browse/share/${token}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.data.attributes).toMatchObject({ permission: 'visitor', authenticated: true });
    expect(detail.body.data.relationships.item.data.attributes.parent_id).toBeNull();
    const top = await guest.get(`/api/browse/folders/all/${token}`);
    expect(top.body.data.map((i: any) => i.attributes.name)).toEqual(['Inner', 'a.txt']);
    const file = top.body.data.find((i: any) => i.id === a.id);
    expect(file.attributes.file_url).toBe(`/file/${a.id}/${token}`);
    const down = await download(env.server.url, file.attributes.file_url, guest);
    expect(down.status).toBe(200);
    expect(down.body.toString()).toBe('alpha');
    expect((await guest.get(`/api/browse/folders/${inner}/${token}`)).body.data.map((i: any) => i.attributes.name)).toEqual(['deep.txt']);
    const tree = await guest.get(`/api/browse/navigation/${token}`);
    expect(tree.body.data).toHaveLength(1);
    expect(tree.body.data[0]).toMatchObject({ name: 'Shared', parent_id: null });
    expect(tree.body.data[0].folders.map((f: any) => f.name)).toEqual(['Inner']);
    const zip = await download(env.server.url, `/api/zip/${token}?items=${inner}|folder,${a.id}|file`, guest);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.body.includes(Buffer.from('deep.txt'))).toBe(true);
  });

  it('gets 404 for any id outside the share: sibling, parent, the owner’s home, another user’s', async () => {
    const { guest, token, sibling, secret, owner } = await sharedTree();
    const other = await stranger();
    const home = await mkdir(owner.client, 'Home folder');
    for (const id of [sibling, home, other.folder]) {
      const res = await guest.get(`/api/browse/folders/${id}/${token}`);
      expect(res.status).toBe(404);
      expect(res.text).not.toMatch(/Sibling|Home folder|Theirs/);
    }
    for (const id of [secret.id, other.file.id]) {
      expect((await download(env.server.url, `/file/${id}/${token}`, guest)).status).toBe(404);
      expect((await download(env.server.url, `/thumbnail/${id}/sm/${token}`, guest)).status).toBe(404);
    }
    expect((await download(env.server.url, `/api/zip/${token}?items=${sibling}|folder`, guest)).status).toBe(404);
    expect((await download(env.server.url, `/api/zip/${token}?items=${other.folder}|folder`, guest)).status).toBe(404);
    // A share answers nothing about its parent.
    const detail = await guest.get(`/api/browse/share/${token}`);
    expect(detail.text).not.toContain('Sibling');
  });

  it('gets 404 for guessed, truncated and revoked tokens', async () => {
    const { guest, token, owner, a } = await sharedTree();
    const guessed = 'a'.repeat(39);
    for (const t of [guessed, token.slice(0, 20), token + 'a', token.toUpperCase(), 'a.b', '%00']) {
      expect((await guest.get(`/api/browse/share/${t}`)).status, t).toBe(404);
      expect((await guest.get(`/api/browse/folders/all/${t}`)).status, t).toBe(404);
    }
    expect((await download(env.server.url, `/file/${a.id}/${guessed}`, guest)).status).toBe(404);
    const revoke = await owner.client.post('/api/share/revoke', { _method: 'delete', tokens: [token] });
    expect(revoke.status, revoke.text).toBe(204);
    expect((await guest.get(`/api/browse/share/${token}`)).status).toBe(404);
    expect((await guest.get(`/api/browse/folders/all/${token}`)).status).toBe(404);
    expect((await download(env.server.url, `/file/${a.id}/${token}`, guest)).status).toBe(404);
    expect((await download(env.server.url, `/api/zip/${token}?items=${a.id}|file`, guest)).status).toBe(404);
  });

  it('is refused one second after the link expired', async () => {
    const { guest, token, link, a } = await sharedTree({ expiration: 1 });
    expect(link.expire_in).toBe(1);
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(3590_000);
    expect((await guest.get(`/api/browse/folders/all/${token}`)).status).toBe(200);
    await env.seed.db.updateTable('shares').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token', '=', token).execute();
    expect((await guest.get(`/api/browse/share/${token}`)).status).toBe(404);
    expect((await guest.get(`/api/browse/folders/all/${token}`)).status).toBe(404);
    expect((await download(env.server.url, `/file/${a.id}/${token}`, guest)).status).toBe(404);
  });

  it('is refused on every editor call (403) and nothing changes', async () => {
    const { guest, token, inner, a, owner } = await sharedTree();
    const before = await snapshot(owner.client);
    const calls: [string, unknown][] = [
      [`/api/editor/create-folder/${token}`, { name: 'X', parent_id: inner }],
      [`/api/editor/rename/${a.id}/${token}`, { _method: 'patch', name: 'b.txt' }],
      [`/api/editor/move/${token}`, { to_id: inner, items: [{ id: a.id, type: 'file' }] }],
      [`/api/editor/remove/${token}`, { items: [{ id: a.id, type: 'file' }] }],
    ];
    for (const [p, body] of calls) expect((await guest.post(p, body)).status, p).toBe(403);
    expect((await uploadTo(guest, `/api/editor/upload/${token}`, 'x')).status).toBe(403);
    expect(await snapshot(owner.client)).toBe(before);
  });

  it('dies while the item is in the trash, lives again on restore, and stays dead once deleted', async () => {
    const { guest, token, owner, shared } = await sharedTree();
    await owner.client.post('/api/remove', { items: [{ id: shared, type: 'folder' }] });
    expect((await guest.get(`/api/browse/share/${token}`)).status).toBe(404);
    expect((await owner.client.get('/api/browse/share')).body.data).toEqual([]);
    await owner.client.post('/api/trash/restore', { items: [{ id: shared, type: 'folder' }] });
    expect((await guest.get(`/api/browse/share/${token}`)).status).toBe(200);
    await owner.client.post('/api/remove', { items: [{ id: shared, type: 'folder', force_delete: true }] });
    await owner.client.post('/api/remove', { items: [{ id: shared, type: 'folder', force_delete: true }] });
    await mkdir(owner.client, 'Shared');
    expect((await guest.get(`/api/browse/share/${token}`)).status).toBe(404);
    expect((await guest.get(`/api/browse/folders/all/${token}`)).status).toBe(404);
  });

  it('cannot download when the owner’s account may not download', async () => {
    const { guest, token, a, userId } = await sharedTree();
    await setRestrictions(env.seed, userId, { canDownload: false });
    expect((await download(env.server.url, `/file/${a.id}/${token}`, guest)).status).toBe(403);
    expect((await download(env.server.url, `/api/zip/${token}?items=${a.id}|file`, guest)).status).toBe(403);
  });
});

describe('share links: passwords', () => {
  it('keeps a protected link locked until the password is given, and says nothing of the item', async () => {
    const { guest, token, owner, a } = await sharedTree({ password: 'open sesame' });
    const locked = await guest.get(`/api/browse/share/${token}`);
    expect(locked.status).toBe(200);
    expect(locked.body.data.attributes).toEqual({ token, protected: true, authenticated: false });
    expect(locked.text).not.toContain('Shared');
    expect((await guest.get(`/api/browse/folders/all/${token}`)).status).toBe(401);
    expect((await download(env.server.url, `/file/${a.id}/${token}`, guest)).status).toBe(401);
    expect((await guest.post(`/api/browse/authenticate/${token}`, { password: 'wrong' })).status).toBe(422);
    expect((await guest.post(`/api/browse/authenticate/${token}`, {})).status).toBe(422);
    const ok = await guest.post(`/api/browse/authenticate/${token}`, { password: 'open sesame' });
    expect(ok.status, ok.text).toBe(200);
    expect((await guest.get(`/api/browse/folders/all/${token}`)).status).toBe(200);
    expect((await download(env.server.url, `/file/${a.id}/${token}`, guest)).status).toBe(200);
    // Another browser is still locked out.
    expect((await visitor(env.server.url).get(`/api/browse/folders/all/${token}`)).status).toBe(401);
    // A new password ends the session made with the old one.
    expect((await owner.client.post(`/api/share/${token}`, { _method: 'patch', password: 'new secret' })).status).toBe(200);
    expect((await guest.get(`/api/browse/folders/all/${token}`)).status).toBe(401);
    await guest.post(`/api/browse/authenticate/${token}`, { password: 'new secret' });
    expect((await guest.get(`/api/browse/folders/all/${token}`)).status).toBe(200);
    // Removing it opens the link to everyone.
    const open = await owner.client.post(`/api/share/${token}`, { _method: 'patch', password: null });
    expect(open.body.data.attributes.protected).toBe(false);
    expect((await visitor(env.server.url).get(`/api/browse/folders/all/${token}`)).status).toBe(200);
  });

  it('slows password guessing down after a few tries with 429 and Retry-After, without locking out another address', async () => {
    const { token } = await sharedTree({ password: 'right one' });
    const guest = visitor(env.server.url);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i += 1) {
      last = await guest.post(`/api/browse/authenticate/${token}`, { password: `guess ${i}` });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The guessing address waits even with the right password; another address unlocks (the
    // link's own ceiling is much higher: auth-hardening.test.ts).
    expect((await guest.post(`/api/browse/authenticate/${token}`, { password: 'right one' })).status).toBe(429);
    expect((await visitor(env.server.url).post(`/api/browse/authenticate/${token}`, { password: 'right one' })).status).toBe(200);
  });

  it('answers an unknown token 404 after the same password check as a wrong password', async () => {
    const { token } = await sharedTree({ password: 'right one' });
    expect((await visitor(env.server.url).post(`/api/browse/authenticate/${token}`, { password: 'a guess' })).status).toBe(422);
    expect((await visitor(env.server.url).post(`/api/browse/authenticate/${'b'.repeat(39)}`, { password: 'a guess' })).status).toBe(404);
    // Counted, not timed: the unknown token pays one argon2id check against the dummy hash, as a wrong password pays one against the real one.
    // Imported afresh: test files share one module registry per worker (vitest.config.ts, isolate),
    // and the sharing service another file loaded first holds the real password module.
    vi.resetModules();
    const { verifyAgainstDummy } = await import('../../src/server/auth/passwords.ts');
    const { authenticateShare } = await import('../../src/server/sharing/service.ts');
    vi.mocked(verifyAgainstDummy).mockClear();
    await expect(authenticateShare(env.seed, 'c'.repeat(39), 'a guess', '198.51.100.7')).rejects.toMatchObject({ status: 404 });
    expect(vi.mocked(verifyAgainstDummy)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(verifyAgainstDummy)).toHaveBeenCalledWith('a guess');
  });
});

describe('share links: an editor', () => {
  it('uploads, creates folders, renames, moves and removes inside the shared folder', async () => {
    const { guest, token, inner, a, owner, shared } = await sharedTree({ permission: 'editor' });
    const up = await uploadTo(guest, `/api/editor/upload/${token}`, 'hello', { parent_id: inner }, 'hello.txt');
    expect(up.status, up.text).toBe(201);
    expect(up.body.data.attributes.file_url).toBe(`/file/${up.body.data.id}/${token}`);
    const root = await uploadTo(guest, `/api/editor/upload/${token}`, 'top', {}, 'top.txt');
    expect(root.body.data.attributes.parent_id).toBe(shared);
    const made = await guest.post(`/api/editor/create-folder/${token}`, { name: 'New', parent_id: '' });
    expect(made.status, made.text).toBe(201);
    const renamed = await guest.post(`/api/editor/rename/${a.id}/${token}`, { _method: 'patch', name: 'b.txt' });
    expect(renamed.body.data.attributes.name).toBe('b.txt');
    expect((await guest.post(`/api/editor/move/${token}`, { to_id: made.body.data.id, items: [{ id: a.id, type: 'file' }] })).status).toBe(200);
    expect((await guest.post(`/api/editor/remove/${token}`, { items: [{ id: root.body.data.id, type: 'file', force_delete: true }] })).status).toBe(204);
    // Removed into the owner's trash, never deleted for good by a link holder.
    expect((await owner.client.get('/api/browse/trash/all')).body.data.map((i: any) => i.attributes.name)).toEqual(['top.txt']);
    expect((await browse(owner.client, made.body.data.id)).names).toEqual(['b.txt']);
    expect((await browse(owner.client, inner)).names.sort()).toEqual(['deep.txt', 'hello.txt']);
  });

  it('names nothing outside the share: sibling, parent, another user’s, and cannot move out', async () => {
    const { guest, token, sibling, secret, a, owner, shared } = await sharedTree({ permission: 'editor' });
    const other = await stranger();
    const before = await snapshot(owner.client);
    const outside = [sibling, other.folder];
    for (const id of outside) {
      expect((await guest.post(`/api/editor/create-folder/${token}`, { name: 'X', parent_id: id })).status).toBe(404);
      expect((await guest.post(`/api/editor/move/${token}`, { to_id: id, items: [{ id: a.id, type: 'file' }] })).status).toBe(404);
      expect((await uploadTo(guest, `/api/editor/upload/${token}`, 'x', { parent_id: id })).status).toBe(404);
    }
    for (const item of [{ id: secret.id, type: 'file' }, { id: other.file.id, type: 'file' }, { id: sibling, type: 'folder' }]) {
      expect((await guest.post(`/api/editor/rename/${item.id}/${token}`, { _method: 'patch', name: 'pwned' })).status).toBe(404);
      expect((await guest.post(`/api/editor/move/${token}`, { to_id: '', items: [item] })).status).toBe(404);
      expect((await guest.post(`/api/editor/remove/${token}`, { items: [item] })).status).toBe(404);
    }
    // Moving to the top (`to_id` null) lands in the shared folder, never the owner's home.
    const moved = await guest.post(`/api/editor/move/${token}`, { to_id: null, items: [{ id: a.id, type: 'file' }] });
    expect(moved.body.data[0].attributes.parent_id).toBe(shared);
    // The shared folder itself cannot be renamed, moved or removed.
    expect((await guest.post(`/api/editor/rename/${shared}/${token}`, { _method: 'patch', name: 'Mine' })).status).toBe(403);
    expect((await guest.post(`/api/editor/remove/${token}`, { items: [{ id: shared, type: 'folder' }] })).status).toBe(403);
    expect(await snapshot(owner.client)).toBe(before);
    expect(JSON.stringify(await snapshot(other.client))).toContain('Theirs');
  });

  it('uploads over tus with the link token, bound to that link, and only as an editor', async () => {
    const { token, inner, owner } = await sharedTree({ permission: 'editor' });
    const done = await tusAsTokenHolder(env.server.url, { 'X-Share-Token': token }, 'resumable', { filename: 'big.bin', parent_id: inner });
    expect(done.created, done.text).toBe(201);
    expect(done.patch).toBe(204);
    expect(done.item.data.attributes).toMatchObject({ name: 'big.bin', parent_id: inner });
    expect((await browse(owner.client, inner)).names).toContain('big.bin');
    // Outside the share, or with the owner's session instead of the token: not found.
    const outside = await tusAsTokenHolder(env.server.url, { 'X-Share-Token': token }, 'x', { filename: 'x.bin', parent_id: (await mkdir(owner.client, 'Elsewhere')) });
    expect(outside.created).toBe(404);
    const partial = await fetch(`${env.server.url}/api/upload/tus`, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', Origin: env.server.url, 'X-Share-Token': token, 'Upload-Length': '10' } });
    const url = new URL(partial.headers.get('location')!, env.server.url).href;
    const asOwner = await fetch(url, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', Cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(asOwner.status).toBe(404);
    await owner.client.post('/api/share/revoke', { _method: 'delete', tokens: [token] });
    const afterRevoke = await fetch(url, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', Origin: env.server.url, 'X-Share-Token': token, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: '0123456789' });
    expect(afterRevoke.status).toBe(404);
  });

  it('refuses tus uploads to a visitor link', async () => {
    const { token } = await sharedTree();
    expect((await tusAsTokenHolder(env.server.url, { 'X-Share-Token': token }, 'x', { filename: 'x.bin' })).created).toBe(403);
    expect((await tusAsTokenHolder(env.server.url, { 'X-Share-Token': 'e'.repeat(39) }, 'x', { filename: 'x.bin' })).created).toBe(404);
  });

  it('refuses path tricks in names', async () => {
    const { guest, token, a } = await sharedTree({ permission: 'editor' });
    for (const name of ['../escape', 'a/b', '..', '.', 'x\u0000y', '']) {
      expect((await guest.post(`/api/editor/create-folder/${token}`, { name })).status, name).toBe(422);
      expect((await guest.post(`/api/editor/rename/${a.id}/${token}`, { _method: 'patch', name })).status, name).toBe(422);
    }
    const up = await uploadTo(guest, `/api/editor/upload/${token}`, 'x', { path: '../../etc' }, 'passwd');
    expect(up.status).toBe(422);
  });

  it('cannot upload past the owner’s quota (423)', async () => {
    const { guest, token } = await sharedTree({ permission: 'editor' });
    await putSetting(env.seed, 'default_storage_limit_bytes', 20);
    try {
      const res = await uploadTo(guest, `/api/editor/upload/${token}`, 'x'.repeat(100));
      expect(res.status, res.text).toBe(423);
      expect(res.body.code).toBe('storage_limit_exceeded');
    } finally {
      await putSetting(env.seed, 'default_storage_limit_bytes', 5 * 1024 ** 3);
    }
  });

  it('loses its powers when switched back to visitor, and cross-site writes are refused', async () => {
    const { guest, token, owner } = await sharedTree({ permission: 'editor' });
    expect((await guest.post(`/api/editor/create-folder/${token}`, { name: 'One' }, { origin: 'https://evil.test' })).status).toBe(403);
    await owner.client.post(`/api/share/${token}`, { _method: 'patch', permission: 'visitor' });
    expect((await guest.post(`/api/editor/create-folder/${token}`, { name: 'Two' })).status).toBe(403);
  });
});

describe('share links: public pages', () => {
  const page = (p: string, client: Client) => client.request(p, { headers: { Accept: 'text/html' } });

  it('serves the share pages with a social card, and 404 for dead links and unknown paths', async () => {
    const { guest, token, owner } = await sharedTree();
    const res = await page(`/share/${token}/files`, guest);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<meta property="og:title" content="Shared');
    for (const p of [`/share/${token}/file`, `/share/${token}/authenticate`]) expect((await page(p, guest)).status).toBe(200);
    expect((await page(`/share/${token}/elsewhere`, guest)).status).toBe(404);
    expect((await page(`/share/${'c'.repeat(39)}/files`, guest)).status).toBe(404);
    await owner.client.post('/api/share/revoke', { _method: 'delete', tokens: [token] });
    expect((await page(`/share/${token}/files`, guest)).status).toBe(404);
  });

  it('says nothing about a protected link’s item, even to a browser that unlocked it', async () => {
    const { guest, token } = await sharedTree({ password: 'pw' });
    const locked = await page(`/share/${token}/files`, guest);
    expect(locked.status).toBe(200);
    expect(locked.text).not.toContain('Shared ·');
    await guest.post(`/api/browse/authenticate/${token}`, { password: 'pw' });
    expect((await page(`/share/${token}/files`, guest)).text).not.toContain('og:image');
  });
});

describe('token-scoped endpoints: the refusal table', () => {
  /** Every token-scoped call, aimed at items of the share behind `token` (or at `ids` of another's). */
  const calls = (token: string, ids: { folder: string; file: string }) => [
    { label: 'browse', method: 'GET', path: `/api/browse/folders/${ids.folder}/${token}` },
    { label: 'create folder', method: 'POST', path: `/api/editor/create-folder/${token}`, body: { name: 'X', parent_id: ids.folder } },
    { label: 'rename', method: 'POST', path: `/api/editor/rename/${ids.file}/${token}`, body: { _method: 'patch', name: 'y.txt' } },
    { label: 'move', method: 'POST', path: `/api/editor/move/${token}`, body: { to_id: ids.folder, items: [{ id: ids.file, type: 'file' }] } },
    { label: 'remove', method: 'POST', path: `/api/editor/remove/${token}`, body: { items: [{ id: ids.file, type: 'file' }] } },
    { label: 'file', method: 'GET', path: `/file/${ids.file}/${token}` },
    { label: 'thumbnail', method: 'GET', path: `/thumbnail/${ids.file}/sm/${token}` },
    { label: 'zip', method: 'GET', path: `/api/zip/${token}?items=${ids.file}|file` },
    { label: 'upload', method: 'UPLOAD', path: `/api/editor/upload/${token}`, body: { parent_id: ids.folder } },
  ];

  const send = (client: Client, call: ReturnType<typeof calls>[number]) =>
    call.method === 'UPLOAD'
      ? uploadTo(client, call.path, "x", call.body as unknown as Record<string, string>)
      : call.method === 'GET'
        ? client.get(call.path)
        : client.post(call.path, call.body);

  it('refuses another user (with their own link), a wrong token and a signed-out client, changing nothing', async () => {
    const a = await sharedTree({ permission: 'editor' });
    const b = await sharedTree({ permission: 'editor' });
    const targetA = { folder: a.inner, file: a.a.id };
    const before = await snapshot(a.owner.client);
    const signedOut = new Client(env.server.url);
    for (const call of calls(b.token, targetA)) {
      // User B, signed in, through B's own editor link, at A's items.
      expect((await send(b.owner.client, call)).status, `B's link: ${call.label}`).toBe(404);
      expect((await send(b.guest, call)).status, `B's guest: ${call.label}`).toBe(404);
    }
    for (const call of calls('f'.repeat(39), targetA)) {
      expect((await send(a.guest, call)).status, `wrong token: ${call.label}`).toBe(404);
      expect((await send(signedOut, call)).status, `signed out, wrong token: ${call.label}`).toBe(404);
    }
    expect(await snapshot(a.owner.client)).toBe(before);
  });
});
