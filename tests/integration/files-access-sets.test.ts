import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { accessTo, permittedIds, requireOwnedItems, type Actor } from '../../src/server/files/access.ts';
import { browseTrash, dumpTrash, latestFiles, moveItems, searchItems } from '../../src/server/files/service.ts';
import { peekShare } from '../../src/server/sharing/service.ts';
import { openUploadRequest } from '../../src/server/upload-requests/service.ts';
import { registerUser } from '../support/client.ts';
import { mkdir, snapshot, trashTop } from '../support/files.ts';
import { seedFile, seedFolder, useSeededServer, userById } from '../support/seed.ts';
import { share, uploadTo, visitor } from '../support/shares.ts';

const env = useSeededServer();

/** The product code in this process on the server's database, counting every statement it sends. */
function counted() {
  const counter = { statements: 0 };
  const plugin: KyselyPlugin = { transformQuery: (args) => {
      counter.statements++;
      return args.node;
    }, transformResult: async (args) => args.result };
  return { counter, ctx: { ...env.seed, db: env.seed.db.withPlugin(plugin) } };
}

/** An owner with Shared/{Inside/{a.txt}} and Private/{secret.txt}, a trashed file, and an editor link to Shared. */
async function ownerWithShare() {
  const { client, user } = await registerUser(env.server.url);
  const shared = await mkdir(client, 'Shared');
  const inside = await mkdir(client, 'Inside', shared);
  const a = await seedFile(env.seed, user.id, { name: 'a.txt', parentId: inside });
  const privateFolder = await mkdir(client, 'Private');
  const secret = await seedFile(env.seed, user.id, { name: 'secret.txt', parentId: privateFolder });
  const binned = await seedFile(env.seed, user.id, { name: 'binned.txt' });
  expect((await client.post('/api/remove', { items: [{ id: binned.id, type: 'file' }] })).status).toBe(204);
  const { token } = await share(client, shared, { permission: 'editor' });
  const { actor } = await peekShare(env.seed, token, () => undefined);
  return { client, user, shared, inside, a, privateFolder, secret, binned, token, actor };
}

const status = (promise: Promise<unknown>) => promise.then(() => 200, (error: { status?: number }) => error.status ?? 500);

describe('the access check', () => {
  it('answers any number of ids with one statement, as the owner and through a scope', { timeout: 120_000 }, async () => {
    const { user, shared, inside, a, secret, actor } = await ownerWithShare();
    const owner = await userById(env.seed, user.id);
    const ids = [a.id];
    for (let i = 0; i < 999; i += 1) ids.push((await seedFile(env.seed, user.id, { name: `f${i}.txt`, parentId: inside, content: 'x' })).id);
    const { counter, ctx } = counted();
    for (const [label, principal] of [['owner', owner], ['share editor', actor]] as const) {
      for (const some of [ids.slice(0, 1), ids]) {
        counter.statements = 0;
        const start = performance.now();
        const grants = await accessTo(ctx.db, principal, [...some, secret.id, randomUUID()]);
        console.log(`${env.server.db} access check, ${label}, ${some.length + 2} ids: ${counter.statements} statement, ${(performance.now() - start).toFixed(1)} ms`);
        expect(counter.statements).toBe(1);
        // The secret file is the owner's but outside the share: refused like the unknown id.
        expect([...grants.keys()].sort()).toEqual(principal === actor ? [...some].sort() : [...some, secret.id].sort());
      }
    }
    // A 1,000-item move, for the record (statements of the whole move; time is printed, not asserted).
    const to = await seedFolder(env.seed, user.id, 'To', shared);
    const refs = ids.map((id) => ({ id, type: 'file' as const }));
    counter.statements = 0;
    const start = performance.now();
    await moveItems(ctx, actor, to, refs);
    console.log(`${env.server.db} 1,000-item move by a share editor: ${counter.statements} statements, ${(performance.now() - start).toFixed(1)} ms`);
    counter.statements = 0;
    await requireOwnedItems(ctx, actor, refs, { change: true });
    expect(counter.statements).toBe(1);
  });

  it('says what each id allows: a scope may not change or share its root, and shares nothing', async () => {
    const { user, shared, inside, a, secret, actor } = await ownerWithShare();
    const owner = await userById(env.seed, user.id);
    const ids = [shared, inside, a.id, secret.id];
    expect(await permittedIds(env.seed.db, owner, ids, 'share')).toEqual(new Set(ids));
    expect(await permittedIds(env.seed.db, actor, ids, 'read')).toEqual(new Set([shared, inside, a.id]));
    expect(await permittedIds(env.seed.db, actor, ids, 'write')).toEqual(new Set([inside, a.id]));
    expect(await permittedIds(env.seed.db, actor, ids, 'delete')).toEqual(new Set([inside, a.id]));
    expect(await permittedIds(env.seed.db, actor, ids, 'share')).toEqual(new Set());
  });

  it("an upload request's holder may change only what it made, decided in the same one statement", async () => {
    const { client, user } = await registerUser(env.server.url);
    const inbox = await mkdir(client, 'Inbox');
    const owners = await seedFile(env.seed, user.id, { name: 'owners.txt', parentId: inbox });
    const res = await client.post('/api/upload-request', { folder_id: inbox });
    expect(res.status, res.text).toBe(201);
    const token = res.body.data.attributes.token as string;
    const guest = visitor(env.server.url);
    const made = await guest.post(`/api/upload-request/${token}/create-folder`, { name: 'Mine', parent_id: null });
    expect(made.status, made.text).toBe(201);
    const mine = made.body.data.id as string;
    const uploaded = await uploadTo(guest, `/api/upload-request/${token}/upload`, 'hello', { parent_id: mine });
    expect(uploaded.status, uploaded.text).toBeLessThan(300);
    const below = uploaded.body.data.id as string;
    const { actor } = await openUploadRequest(env.seed, token);
    const { counter, ctx } = counted();
    const writable = await permittedIds(ctx.db, actor, [inbox, owners.id, mine, below], 'write');
    expect(counter.statements).toBe(1);
    expect(writable).toEqual(new Set([mine, below]));
  });
});

describe('a mixed selection', () => {
  it('of own, foreign and missing ids is refused as a whole with 404 and changes nothing', async () => {
    const me = await registerUser(env.server.url);
    const other = await registerUser(env.server.url);
    const target = await mkdir(me.client, 'Target');
    const mine = await seedFile(env.seed, me.user.id, { name: 'mine.txt' });
    const theirs = await seedFile(env.seed, other.user.id, { name: 'theirs.txt' });
    const items = [{ id: mine.id, type: 'file' }, { id: theirs.id, type: 'file' }, { id: randomUUID(), type: 'file' }];
    const before = [await snapshot(me.client), await snapshot(other.client)];
    for (const order of [items, [...items].reverse()]) {
      for (const [route, body] of [
        ['/api/move', { to_id: target, items: order }],
        ['/api/remove', { items: order }],
        ['/api/remove', { items: order.map((i) => ({ ...i, force_delete: true })) }],
        ['/api/trash/restore', { items: order }],
      ] as const) {
        const res = await me.client.post(route, body);
        expect(res.status, `${route} ${res.text}`).toBe(404);
      }
    }
    expect([await snapshot(me.client), await snapshot(other.client)]).toEqual(before);
  });
});

describe('a token holder calling what reads or changes the whole drive', () => {
  it('is refused: search, latest files, the trash and emptying it', async () => {
    const { client, user, binned, actor } = await ownerWithShare();
    const owner = await userById(env.seed, user.id);
    // The owner gets them; the share's holder, acting as the owner, does not.
    expect((await searchItems(env.seed, owner, 'secret')).map((i) => i.name)).toEqual(['secret.txt']);
    expect((await latestFiles(env.seed, owner)).length).toBeGreaterThan(0);
    const scoped: Actor[] = [actor];
    const inbox = await mkdir(client, 'Inbox');
    const res = await client.post('/api/upload-request', { folder_id: inbox });
    scoped.push((await openUploadRequest(env.seed, res.body.data.attributes.token)).actor);
    for (const holder of scoped) {
      expect(await status(searchItems(env.seed, holder, 'secret'))).toBe(403);
      expect(await status(latestFiles(env.seed, holder))).toBe(403);
      expect(await status(browseTrash(env.seed, holder, null, { sort: { field: 'deleted_at', direction: 'desc' } }))).toBe(403);
      expect(await status(dumpTrash(env.seed, holder))).toBe(403);
    }
    expect(await trashTop(client)).toEqual([binned.name]);
  });
});
