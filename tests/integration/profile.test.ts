import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const patch = (client: Client, body: Record<string, unknown>) => client.post('/api/user/settings', { _method: 'patch', ...body });

function avatarForm(bytes: Uint8Array<ArrayBuffer>, type = 'image/png', filename = 'me.png'): FormData {
  const form = new FormData();
  form.set('_method', 'PATCH');
  form.set('name', 'avatar');
  form.set('avatar', new File([bytes], filename, { type }));
  return form;
}

describe('profile auto-save', () => {
  it('saves one field from { name, value } and several from fields as keys', async () => {
    const { client } = await registerUser(server.url);
    expect((await patch(client, { name: 'first_name', value: 'Grace' })).status).toBe(200);
    const res = await patch(client, { last_name: 'Hopper', theme_mode: 'dark', emoji_type: 'applemoji', notification_sound: 'off' });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.settings.data.attributes).toEqual({ first_name: 'Grace', last_name: 'Hopper', theme_mode: 'dark', emoji_type: 'applemoji', notification_sound: false });
  });

  it.each([
    ['an unknown field', { name: 'role', value: 'admin' }, 'role'],
    ['an unknown field as key', { role: 'admin' }, 'role'],
    ['an empty name', { name: 'name', value: '  ' }, 'name'],
    ['an oversized name', { name: 'name', value: 'x'.repeat(121) }, 'name'],
    ['a bad theme', { theme_mode: 'purple' }, 'theme_mode'],
    ['a bad emoji set', { emoji_type: 'wingdings' }, 'emoji_type'],
    ['a bad notification sound', { notification_sound: 'loud' }, 'notification_sound'],
    ['an object value', { name: 'first_name', value: { a: 1 } }, 'first_name'],
    ['nothing at all', {}, '_'],
  ])('refuses %s with 422 and changes nothing', async (_label, body, field) => {
    const { client } = await registerUser(server.url);
    const before = (await client.get('/api/user')).body;
    const res = await patch(client, body);
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toBeDefined();
    expect((await client.get('/api/user')).body).toEqual(before);
  });

  it('refuses a signed-out client and a wrong bearer token', async () => {
    expect((await patch(new Client(server.url), { name: 'name', value: 'X' })).status).toBe(401);
    expect((await new Client(server.url).post('/api/user/settings', { _method: 'patch', name: 'name', value: 'X' }, { bearer: 'cd_nottherealtoken', origin: null })).status).toBe(401);
  });
});

describe('avatar', () => {
  it('re-encodes an uploaded image to three WebP sizes served from the data plane', async () => {
    const { client } = await registerUser(server.url);
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ff6600' } }).png().toBuffer();
    const res = await client.request('/api/user/settings', { method: 'POST', body: avatarForm(png) });
    expect(res.status).toBe(200);
    const avatar = res.body.data.attributes.avatar;
    expect(Object.keys(avatar)).toEqual(['xs', 'sm', 'md']);
    const img = await fetch(server.url + avatar.md);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    expect(img.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);

    // A new avatar replaces the old files.
    const second = await client.request('/api/user/settings', { method: 'POST', body: avatarForm(png) });
    expect((await fetch(server.url + avatar.md)).status).toBe(404);
    expect((await fetch(server.url + second.body.data.attributes.avatar.xs)).status).toBe(200);
  });

  it('judges the bytes, not the declared type: a script named .png is refused', async () => {
    const { client } = await registerUser(server.url);
    const res = await client.request('/api/user/settings', { method: 'POST', body: avatarForm(new TextEncoder().encode('<svg onload=alert(1)>'), 'image/png') });
    expect(res.status).toBe(422);
    expect(res.body.errors.avatar).toBeDefined();
    expect((await client.get('/api/user')).body.data.attributes.avatar).toBeNull();
  });

  it('refuses an avatar over 5 MB with 413', async () => {
    const { client } = await registerUser(server.url);
    const res = await client.request('/api/user/settings', { method: 'POST', body: avatarForm(new Uint8Array(5 * 1024 * 1024 + 1)) });
    expect(res.status).toBe(413);
    expect((await client.get('/api/user')).body.data.attributes.avatar).toBeNull();
  });

  it('answers 404 for avatar paths that do not exist or try to escape', async () => {
    for (const p of ['/avatars/x', '/avatars/../../etc/passwd', '/avatars/00000000-0000-0000-0000-000000000000/deadbeefdeadbeef-md.webp']) {
      expect((await fetch(server.url + p)).status).toBe(404);
    }
  });
});

describe('password change', () => {
  it('changes the password and signs out the other sessions only', async () => {
    const { client, email, password } = await registerUser(server.url);
    const elsewhere = new Client(server.url);
    await elsewhere.post('/login', { email, password });
    const res = await client.post('/api/user/password', { _method: 'patch', current_password: password, password: 'a new secret pw', password_confirmation: 'a new secret pw' });
    expect(res.status).toBe(200);
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await elsewhere.get('/api/user')).status).toBe(401);
    expect((await new Client(server.url).post('/login', { email, password: 'a new secret pw' })).status).toBe(200);
  });

  it.each([
    ['a wrong current password', { current_password: 'not my password' }, 'current_password'],
    ['a short new password', { password: 'short', password_confirmation: 'short' }, 'password'],
    ['a mismatched confirmation', { password_confirmation: 'different one!' }, 'password_confirmation'],
  ])('refuses %s with 422 and keeps the old password', async (_label, override, field) => {
    const { client, email, password } = await registerUser(server.url);
    const res = await client.post('/api/user/password', { _method: 'patch', current_password: password, password: 'a new secret pw', password_confirmation: 'a new secret pw', ...override });
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toBeDefined();
    expect((await new Client(server.url).post('/login', { email, password })).status).toBe(200);
  });
});
