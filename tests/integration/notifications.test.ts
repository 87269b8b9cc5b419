import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { createNotification } from '../../src/server/notifications/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
let ctx: AppContext;
beforeAll(async () => {
  server = await startServer();
  ctx = await seedContext(server);
});
afterAll(async () => {
  await ctx?.db.destroy();
  await server?.stop();
});

const notify = (userId: string, title: string) =>
  createNotification(ctx, {
    userId,
    category: 'remote-upload-done',
    title,
    description: '1 of 1 file was imported.',
    action: { type: 'route', params: { id: null, route: 'Files', button: 'Show files' } },
  });

describe('notifications', () => {
  it('come in the user resource, unread first; opening the centre marks them read; clear all removes them', async () => {
    const { client, user } = await registerUser(server.url);
    await notify(user.id, 'First');
    await notify(user.id, 'Second');

    const before = (await client.get('/api/user')).body.data.relationships;
    expect(before.unreadNotifications.data.map((n: { attributes: { title: string } }) => n.attributes.title)).toEqual(['Second', 'First']);
    expect(before.unreadNotifications.data[0]).toMatchObject({
      type: 'notification',
      attributes: { category: 'remote-upload-done', read_at: null, action: { type: 'route', params: { route: 'Files', button: 'Show files' } } },
    });
    expect(before.readNotifications.data).toEqual([]);

    expect((await client.post('/api/user/notifications/read', {})).status).toBe(204);
    const after = (await client.get('/api/user')).body.data.relationships;
    expect(after.unreadNotifications.data).toEqual([]);
    expect(after.readNotifications.data).toHaveLength(2);
    expect(after.readNotifications.data[0].attributes.read_at).toEqual(expect.any(String));

    await notify(user.id, 'Third');
    const mixed = (await client.get('/api/user')).body.data.relationships;
    expect(mixed.unreadNotifications.data).toHaveLength(1);
    expect(mixed.readNotifications.data).toHaveLength(2);

    expect((await client.post('/api/user/notifications', { _method: 'delete' })).status).toBe(204);
    const cleared = (await client.get('/api/user')).body.data.relationships;
    expect(cleared.unreadNotifications.data).toEqual([]);
    expect(cleared.readNotifications.data).toEqual([]);
  });

  it("never touch another user's notifications", async () => {
    const owner = await registerUser(server.url);
    const other = await registerUser(server.url);
    await notify(owner.user.id, 'Mine');
    await other.client.post('/api/user/notifications/read', {});
    await other.client.post('/api/user/notifications', { _method: 'delete' });
    expect((await other.client.get('/api/user')).body.data.relationships.unreadNotifications.data).toEqual([]);
    const mine = (await owner.client.get('/api/user')).body.data.relationships.unreadNotifications.data;
    expect(mine).toHaveLength(1);
    expect(mine[0].attributes.title).toBe('Mine');
  });

  it('refuse a signed-out client, a wrong token and a cross-site request, changing nothing', async () => {
    const { client, user } = await registerUser(server.url);
    await notify(user.id, 'Kept');
    const anonymous = new Client(server.url);
    expect((await anonymous.post('/api/user/notifications/read', {})).status).toBe(401);
    expect((await anonymous.post('/api/user/notifications', { _method: 'delete' })).status).toBe(401);
    expect((await anonymous.post('/api/user/notifications/read', {}, { bearer: 'cd_wrongwrongwrongwrongwrongwrongwr', origin: null, xrw: false })).status).toBe(401);
    const crossSite = await client.post('/api/user/notifications', { _method: 'delete' }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect((await client.get('/api/user')).body.data.relationships.unreadNotifications.data).toHaveLength(1);
  });

  it('answer other methods with 405', async () => {
    const { client } = await registerUser(server.url);
    expect((await client.get('/api/user/notifications/read')).status).toBe(405);
    expect((await client.post('/api/user/notifications', {})).status).toBe(405);
  });
});
