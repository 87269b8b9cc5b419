import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Client, registerUser, type ApiResponse } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';
import { share, uploadTo } from '../support/shares.ts';

const env = useSeededServer();

/**
 * An owner with Shared/{a.txt} and, outside it, Private/{secret.txt}; the ids a token holder must
 * not learn anything about: the outside file, the outside folder, and an id that names nothing.
 */
async function owner() {
  const { client, user } = await registerUser(env.server.url);
  const shared = await mkdir(client, 'Shared');
  const inside = await seedFile(env.seed, user.id, { name: 'a.txt', parentId: shared });
  const outsideFolder = await mkdir(client, 'Private');
  const outsideFile = await seedFile(env.seed, user.id, { name: 'secret.txt', parentId: outsideFolder });
  return { client, shared, inside, probes: { 'outside file': outsideFile.id, 'outside folder': outsideFolder, unknown: randomUUID() } };
}

const answer = (res: ApiResponse) => ({ status: res.status, body: res.text });

/** Each call with each probe id: all three must answer alike (and as a missing item: 404). */
async function expectAlike(calls: Record<string, (id: string) => Promise<ApiResponse>>, probes: Record<string, string>) {
  for (const [label, call] of Object.entries(calls)) {
    const answers = Object.fromEntries(await Promise.all(Object.entries(probes).map(async ([kind, id]) => [kind, answer(await call(id))] as const)));
    expect(answers['outside file'], label).toEqual(answers.unknown);
    expect(answers['outside folder'], label).toEqual(answers.unknown);
    expect(answers.unknown!.status, label).toBe(404);
  }
}

describe('a token holder learns nothing about ids outside its scope', () => {
  it('visitor link: an outside file, an outside folder and an unknown id answer alike', async () => {
    const { client, shared, probes } = await owner();
    const { token } = await share(client, shared);
    const guest = new Client(env.server.url);
    await expectAlike(
      {
        browse: (id) => guest.get(`/api/browse/folders/${id}/${token}`),
        zip: (id) => guest.get(`/api/zip/${token}?items=${id}|folder`),
      },
      probes,
    );
  });

  it('editor link: the same on every call that takes an id', async () => {
    const { client, shared, inside, probes } = await owner();
    const { token } = await share(client, shared, { permission: 'editor' });
    const guest = new Client(env.server.url);
    await expectAlike(
      {
        browse: (id) => guest.get(`/api/browse/folders/${id}/${token}`),
        'create folder in': (id) => guest.post(`/api/editor/create-folder/${token}`, { name: 'X', parent_id: id }),
        'move into': (id) => guest.post(`/api/editor/move/${token}`, { to_id: id, items: [{ id: inside.id, type: 'file' }] }),
        'move as a folder': (id) => guest.post(`/api/editor/move/${token}`, { to_id: null, items: [{ id, type: 'folder' }] }),
        'remove as a folder': (id) => guest.post(`/api/editor/remove/${token}`, { items: [{ id, type: 'folder' }] }),
        'rename as a folder': (id) => guest.post(`/api/editor/rename/${id}/${token}`, { _method: 'patch', name: 'X', type: 'folder' }),
        'upload into': (id) => uploadTo(guest, `/api/editor/upload/${token}`, 'x', { parent_id: id }),
      },
      probes,
    );
  });

  it('upload request: the same on every call that takes an id', async () => {
    const { client, shared, probes } = await owner();
    const created = await client.post('/api/upload-request', { folder_id: shared });
    expect(created.status, created.text).toBe(201);
    const base = `/api/upload-request/${created.body.data.attributes.token}`;
    const guest = new Client(env.server.url);
    const mine = await uploadTo(guest, `${base}/upload`, 'mine', {}, 'mine.txt');
    expect(mine.status, mine.text).toBeLessThan(300);
    await expectAlike(
      {
        browse: (id) => guest.get(`${base}/browse/${id}`),
        'create folder in': (id) => guest.post(`${base}/create-folder`, { name: 'X', parent_id: id }),
        'move into': (id) => guest.post(`${base}/move`, { to_id: id, items: [{ id: mine.body.data.id, type: 'file' }] }),
        'move as a folder': (id) => guest.post(`${base}/move`, { to_id: null, items: [{ id, type: 'folder' }] }),
        'remove as a folder': (id) => guest.post(`${base}/remove`, { items: [{ id, type: 'folder' }] }),
        'rename as a folder': (id) => guest.post(`${base}/rename/${id}`, { _method: 'patch', name: 'X', type: 'folder' }),
        'upload into': (id) => uploadTo(guest, `${base}/upload`, 'x', { parent_id: id }),
      },
      probes,
    );
  });
});
