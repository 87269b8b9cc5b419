import { expect } from 'vitest';
import type { Client } from './client.ts';

/** Small API helpers for the file platform tests: every call goes through the HTTP API. */

export async function mkdir(client: Client, name: string, parentId: string | null = null, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await client.post('/api/create-folder', { name, parent_id: parentId, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

export async function browse(client: Client, id: string | null = null, query = ''): Promise<{ names: string[]; body: any }> {
  const res = await client.get(`/api/browse/folders/${id ?? 'all'}${query}`);
  expect(res.status, res.text).toBe(200);
  return { names: res.body.data.map((i: any) => i.attributes.name), body: res.body };
}

export async function trashTop(client: Client, id: string | null = null): Promise<string[]> {
  const res = await client.get(`/api/browse/trash/${id ?? 'all'}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((i: any) => i.attributes.name);
}

/** The whole visible state of a user: home listing, trash top and tree, to show that a refusal changed nothing. */
export async function snapshot(client: Client): Promise<string> {
  const [home, trash, tree] = await Promise.all([client.get('/api/browse/folders/all'), client.get('/api/browse/trash/all'), client.get('/api/browse/navigation')]);
  return JSON.stringify([home.body, trash.body, tree.body]);
}
