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

const html = { headers: { Accept: 'text/html' }, xrw: false } as const;
const carried = (page: string, id: string): unknown => {
  const text = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, 's').exec(page)?.[1];
  return text === undefined ? undefined : JSON.parse(text);
};

describe('the app document', () => {
  it('carries the signed-in user and the catalogue of the page language, as /api/user and /translations serve them', async () => {
    const { client, email, password } = await registerUser(server.url, { name: 'Ada Boot' });
    const page = await client.request('/platform/files', html);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(carried(page.text, 'app-user')).toEqual((await client.get('/api/user')).body.data);
    expect(carried(page.text, 'app-translations')).toEqual((await client.get('/translations/en')).body);
    // Nothing secret: no password (nor its hash) and not the session token.
    const [session] = [...client.cookies.values()];
    expect(session).toBeTruthy();
    expect(page.text).not.toContain(session);
    expect(page.text).not.toContain(password);
    expect(page.text).not.toMatch(/password_hash|\$argon2/);
    expect(page.text).toContain(email);

    // The settings are the same app document.
    const profile = await client.request('/user/profile', html);
    expect(carried(profile.text, 'app-user')).toMatchObject({ attributes: { email } });
  });

  it('carries the catalogue of the language the page is served in', async () => {
    const { client } = await registerUser(server.url);
    const page = await client.request('/platform/files', { ...html, headers: { ...html.headers, 'Accept-Language': 'de' } });
    expect(page.text).toContain('<html lang="de"');
    const german = (await client.request('/translations/de')).body;
    expect(carried(page.text, 'app-translations')).toEqual(german);
    expect(carried(page.text, 'app-translations')).not.toEqual((await client.get('/translations/en')).body);
  });

  it("gives each session its own user and nothing of another's", async () => {
    const first = await registerUser(server.url, { name: 'First Person' });
    const second = await registerUser(server.url, { name: 'Second Person' });
    // Alternating, so nothing one request left behind reaches the next.
    for (const [me, other] of [[first, second], [second, first], [first, second]] as const) {
      const page = await me.client.request('/platform/files', html);
      expect(carried(page.text, 'app-user')).toMatchObject({ id: me.user.id, attributes: { email: me.email } });
      expect(page.text).not.toContain(other.email);
      expect(page.text).not.toContain(other.user.id);
    }
    // Signed out: no document at all, only the way to sign in.
    const signedOut = await new Client(server.url).request('/platform/files', html);
    expect(signedOut.status).toBe(302);
    expect(signedOut.text).not.toContain('app-user');
    // Public pages carry the config only.
    const home = await first.client.request('/sign-in', html);
    expect(carried(home.text, 'app-user')).toBeUndefined();
    expect(carried(home.text, 'app-translations')).toBeUndefined();
  });

  it('escapes what a user typed so it cannot close the script element', async () => {
    const { client } = await registerUser(server.url);
    const name = '</script><script>alert(1)</script> & <!--';
    const saved = await client.post('/api/user/settings', { _method: 'patch', name: 'name', value: name });
    expect(saved.status).toBe(200);
    const page = await client.request('/platform/files', html);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(carried(page.text, 'app-user')).toMatchObject({ attributes: { name } });
  });
});
