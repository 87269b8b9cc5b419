import { describe, expect, it } from 'vitest';
import { nameKey } from '../../src/server/files/names.ts';
import { registerUser } from '../support/client.ts';
import { seedFile, seedFolder, useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

describe('search', () => {
  it('answers what a plain substring match over the owner’s live names answers, through the index or not', async () => {
    const { client, user } = await registerUser(env.server.url);
    const other = await registerUser(env.server.url);
    const names = ['Report 2024.pdf', 'report-2024 final.PDF', 'Übersicht Größe.txt', 'übersicht.md', 'a"quote".txt', 'Reports', 'reporter', 'ab', '100% done.txt', 'under_score.txt'];
    const live: string[] = [];
    const folder = await seedFolder(env.seed, user.id, 'Reports');
    live.push('Reports');
    for (const [i, name] of names.entries()) {
      if (name === 'Reports') continue;
      if (name === 'reporter') await seedFolder(env.seed, user.id, name, folder);
      else await seedFile(env.seed, user.id, { name, parentId: i % 2 ? folder : null });
      live.push(name);
    }
    const gone = await seedFile(env.seed, user.id, { name: 'report trashed.txt' });
    expect((await client.post('/api/remove', { items: [{ id: gone.id, type: 'file' }] })).status).toBe(204);
    await seedFile(env.seed, other.user.id, { name: 'report of someone else.txt' });
    const folders = new Set(['Reports', 'reporter']);
    const expected = (needle: string) =>
      live
        .filter((n) => nameKey(n).includes(nameKey(needle)))
        .sort((a, b) => (folders.has(a) === folders.has(b) ? (nameKey(a) < nameKey(b) ? -1 : 1) : folders.has(a) ? -1 : 1));
    // Three characters and more go through the trigram index on SQLite; shorter ones read the names.
    for (const needle of ['report', 'REPORT 2024', 'rt-2', 'übersicht', 'GRÖSSE', 'größe', '"quote"', '0% ', 'r_s', 'e_s', 're', 'ü', 'xyz']) {
      const res = await client.get(`/api/search?query=${encodeURIComponent(needle)}`);
      expect(res.status, needle).toBe(200);
      expect(res.body.data.map((i: any) => i.attributes.name), needle).toEqual(expected(needle));
    }
  });

  it('gives each result its folders from home down', async () => {
    const { client, user } = await registerUser(env.server.url);
    const a = await seedFolder(env.seed, user.id, 'Alpha');
    const b = await seedFolder(env.seed, user.id, 'Beta', a);
    const deep = await seedFile(env.seed, user.id, { name: 'needle deep.txt', parentId: b });
    const top = await seedFile(env.seed, user.id, { name: 'needle top.txt' });
    const res = await client.get('/api/search?query=needle');
    expect(res.body.meta.locations).toEqual({
      [deep.id]: [
        { id: a, name: 'Alpha' },
        { id: b, name: 'Beta' },
      ],
      [top.id]: [],
    });
  });

  it('refuses an empty or overlong query with a 422', async () => {
    const { client } = await registerUser(env.server.url);
    expect((await client.get('/api/search?query=%20')).status).toBe(422);
    expect((await client.get(`/api/search?query=${'x'.repeat(256)}`)).status).toBe(422);
  });
});
