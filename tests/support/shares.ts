import { expect } from 'vitest';
import { Client } from './client.ts';

/** Share-link helpers: every call through the HTTP API, as the owner's and a visitor's browsers. */

export async function share(owner: Client, itemId: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await owner.post(`/api/share/${itemId}`, { type: 'folder', permission: 'visitor', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.attributes;
}

/** A browser that holds only the link: no session, its own IP, only our Origin (a browser always sends one). */
export const visitor = (baseUrl: string) => new Client(baseUrl);

/** A multipart upload to a token-scoped upload path. */
export function uploadTo(client: Client, path: string, content: string, fields: Record<string, string> = {}, fileName = 'upload.txt') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([content], { type: 'text/plain' }), fileName);
  return client.request(path, { method: 'POST', body: form, xrw: false });
}

/** A tus upload by a token holder: creation, then one PATCH; answers each step's status and the item. */
export async function tusAsTokenHolder(baseUrl: string, header: Record<string, string>, content: string, meta: Record<string, string>) {
  const encode = (m: Record<string, string>) => Object.entries(m).map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`).join(',');
  const headers = { 'Tus-Resumable': '1.0.0', Origin: baseUrl, ...header };
  const created = await fetch(`${baseUrl}/api/upload/tus`, { method: 'POST', headers: { ...headers, 'Upload-Length': String(Buffer.byteLength(content)), 'Upload-Metadata': encode(meta) } });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) return { created: created.status, text: await created.text(), patch: 0, item: null, location };
  const url = new URL(location, baseUrl).href;
  const patch = await fetch(url, { method: 'PATCH', headers: { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: content });
  const raw = patch.headers.get('x-item');
  return { created: created.status, text: await patch.text(), patch: patch.status, item: raw ? JSON.parse(decodeURIComponent(raw)) : null, location: url };
}
