import { writeSecretSettings } from '../../src/server/settings/secrets.ts';
import { writeSettings } from '../../src/server/settings/service.ts';
import type { Client } from './client.ts';
import type { FakeOAuth, FakeProvider } from './fake-oauth.ts';
import { withSeed } from './seed.ts';
import type { RunningServer } from './server.ts';

const SECRET = { google: 'social_google_client_secret', github: 'social_github_client_secret', facebook: 'social_facebook_client_secret' } as const;

/** Registers the fake's apps as an admin would (switched on, client id, encrypted secret) for `providers`, the others off. */
export async function configureSocialApps(server: RunningServer, fake: FakeOAuth, providers: FakeProvider[]): Promise<void> {
  await withSeed(server, async (seed) => {
    const all: FakeProvider[] = ['google', 'github', 'facebook'];
    await writeSettings(seed.db, {
      social_login: { google: providers.includes('google'), github: providers.includes('github'), facebook: providers.includes('facebook') },
      social_login_client_ids: { google: fake.clients.google.id, github: fake.clients.github.id, facebook: fake.clients.facebook.id },
    });
    await writeSecretSettings(seed, seed.db, Object.fromEntries(all.map((p) => [SECRET[p], fake.clients[p].secret])), Object.values(SECRET));
  });
}

export interface SocialResult {
  status: number;
  /** Where the callback sent the browser. */
  location: string;
  /** The one-shot message it left for /sign-in, if any. */
  flash: string | null;
}

/** Decodes the flash cookie a callback set (forms.ts setFlash) without consuming it. */
export function flashOf(client: Client): string | null {
  const raw = client.cookies.get('flash');
  if (!raw) return null;
  return (JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { message?: string }).message ?? null;
}

/** The provider's answer to the authorization request: the callback path with code and state. */
export async function authorize(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`the fake did not redirect: ${res.status} ${await res.text()}`);
  const back = new URL(location);
  return back.pathname + back.search;
}

/** The whole round trip as a browser makes it: redirect endpoint, the provider, the callback. */
export async function socialSignIn(client: Client, provider: FakeProvider, query = ''): Promise<SocialResult> {
  const start = await client.get(`/api/socialite/${provider}/redirect${query}`);
  if (start.status !== 200) throw new Error(`redirect endpoint answered ${start.status}: ${start.text}`);
  return callback(client, await authorize(start.body.url));
}

export async function callback(client: Client, path: string): Promise<SocialResult> {
  client.cookies.delete('flash');
  // A top-level navigation coming back from the provider: no X-Requested-With, no JSON.
  const res = await client.get(path, { xrw: false, origin: null, headers: { Accept: 'text/html' } });
  return { status: res.status, location: res.headers.get('location') ?? '', flash: flashOf(client) };
}
