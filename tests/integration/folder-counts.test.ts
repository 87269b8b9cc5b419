import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { browse, mkdir } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

/** The `items` figure as the API shows it: the open folder's own (`meta.root`) and each listed folder's. */
async function figures(client: Parameters<typeof browse>[0], id: string): Promise<Record<string, number>> {
  const { body } = await browse(client, id, '?limit=200');
  const out: Record<string, number> = { '.': body.meta.root.attributes.items };
  for (const item of body.data) if (item.type === 'folder') out[item.attributes.name] = item.attributes.items;
  return out;
}

/** Every folder's kept count against a count of its live children, for one owner: the rows that differ. */
async function drift(ownerId: string) {
  const { rows } = await sql<{ id: string }>`select f.id from items f where f.owner_id = ${ownerId} and f.type = 'folder'
    and f.live_children <> (select count(*) from items c where c.parent_id = f.id and c.deleted_at is null)`.execute(env.seed.db);
  return rows;
}

describe('the kept count of a folder’s items', () => {
  it('follows creating, uploading, moving, trashing, restoring and deleting for good', async () => {
    const { client, user } = await registerUser(env.server.url);
    const a = await mkdir(client, 'A');
    const b = await mkdir(client, 'B', a);
    const c = await mkdir(client, 'C', a);
    const one = await seedFile(env.seed, user.id, { name: 'one.txt', parentId: b });
    const two = await seedFile(env.seed, user.id, { name: 'two.txt', parentId: b });
    expect(await figures(client, a)).toEqual({ '.': 2, B: 2, C: 0 });

    expect((await client.post('/api/move', { to_id: c, items: [{ id: one.id, type: 'file' }] })).status).toBe(200);
    expect(await figures(client, a)).toEqual({ '.': 2, B: 1, C: 1 });

    expect((await client.post('/api/remove', { items: [{ id: b, type: 'folder' }] })).status).toBe(204);
    expect(await figures(client, a)).toEqual({ '.': 1, C: 1 });
    // Inside the trash, the trashed folder still counts what went there with it.
    const trashed = await client.get(`/api/browse/trash/${b}`);
    expect(trashed.body.meta.root.attributes.items).toBe(1);

    expect((await client.post('/api/trash/restore', { items: [{ id: b, type: 'folder' }] })).status).toBe(200);
    expect(await figures(client, a)).toEqual({ '.': 2, B: 1, C: 1 });

    expect((await client.post('/api/remove', { items: [{ id: two.id, type: 'file', force_delete: true }] })).status).toBe(204);
    expect((await client.post('/api/remove', { items: [{ id: c, type: 'folder', force_delete: true }] })).status).toBe(204);
    expect(await figures(client, a)).toEqual({ '.': 1, B: 0 });
    expect(await drift(user.id)).toEqual([]);
  });

  it('stays right for many items moved and trashed in single requests', async () => {
    const { client, user } = await registerUser(env.server.url);
    const from = await mkdir(client, 'From');
    const to = await mkdir(client, 'To');
    const items = [];
    for (let i = 0; i < 40; i += 1) items.push({ id: (await seedFile(env.seed, user.id, { name: `f${i}.txt`, parentId: from })).id, type: 'file' });
    expect((await client.post('/api/move', { to_id: to, items: items.slice(0, 25) })).status).toBe(200);
    expect((await client.post('/api/remove', { items: items.slice(25, 30) })).status).toBe(204);
    const home = await browse(client);
    expect(Object.fromEntries(home.body.data.map((i: any) => [i.attributes.name, i.attributes.items]))).toEqual({ From: 10, To: 25 });
    expect(await drift(user.id)).toEqual([]);
  });
});
