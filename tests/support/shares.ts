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
