import { registerUser } from './client.ts';

export interface DavResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

/** A small WebDAV client: raw requests to `base` with HTTP Basic. */
export function davClient(base: string, email: string, secret: string) {
  const auth = `Basic ${Buffer.from(`${email}:${secret}`).toString('base64')}`;
  return async (method: string, path: string, init: { headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<DavResponse> => {
    const res = await fetch(`${base}${path}`, { method, headers: { Authorization: auth, ...init.headers }, body: init.body === undefined ? null : typeof init.body === 'string' ? init.body : new Uint8Array(init.body) });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
  };
}

/** A new account with an app password (a personal access token) and a WebDAV client using it. */
export async function davAccount(base: string) {
  const { client, email, password, user } = await registerUser(base);
  const created = await client.post('/api/user/tokens', { name: 'WebDAV' });
  const token: string = created.body.meta.token;
  return { client, email, password, userId: user.id as string, token, dav: davClient(base, email, token) };
}

/** A LOCK request body (DAV:lockinfo). */
export function lockInfo(scope: 'exclusive' | 'shared', owner = 'tests'): string {
  return `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>${owner}</D:href></D:owner></D:lockinfo>`;
}
