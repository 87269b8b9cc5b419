import { atom } from 'nanostores';
import type { Item } from './files.ts';

/**
 * The public share browser's state and calls: everything goes to the token-scoped API. A link that
 * died (revoked, expired, trashed) answers 404: the page is then reloaded and the server shows the
 * 404 page, as for any dead link.
 */
export interface SharedLink {
  token: string;
  protected: boolean;
  authenticated: boolean;
  permission?: 'visitor' | 'editor';
  type?: 'folder' | 'file';
  owner_name?: string;
  item?: Item;
}

export class ShareError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function call<T>(method: string, path: string, body?: Record<string, unknown> | FormData): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  const text = await res.text();
  const data = text ? (JSON.parse(text) as unknown) : undefined;
  if (res.status === 404) location.reload();
  if (!res.ok) throw new ShareError(res.status, (data as { message?: string } | undefined)?.message ?? `Request failed (${res.status}).`);
  return data as T;
}

export const $link = atom<SharedLink | null>(null);
export const $sharedItems = atom<{ folderId: string | null; items: Item[]; root: Item | null } | null>(null);

export async function loadLink(token: string): Promise<SharedLink> {
  const res = await call<{ data: { attributes: SharedLink; relationships?: { item: { data: Item } } } }>('GET', `/api/browse/share/${token}`);
  const link = { ...res.data.attributes, ...(res.data.relationships ? { item: res.data.relationships.item.data } : {}) };
  $link.set(link);
  return link;
}

export async function unlock(token: string, password: string): Promise<void> {
  await call('POST', `/api/browse/authenticate/${token}`, { password });
}

export async function openSharedFolder(token: string, folderId: string | null): Promise<void> {
  const res = await call<{ data: Item[]; meta: { root: Item | null } }>('GET', `/api/browse/folders/${folderId ?? 'all'}/${token}?sort=name&direction=asc`);
  $sharedItems.set({ folderId, items: res.data, root: res.meta.root });
}

const refresh = (token: string) => openSharedFolder(token, $sharedItems.get()?.folderId ?? null);

export async function uploadShared(token: string, file: File, parentId: string | null): Promise<void> {
  const form = new FormData();
  form.append('parent_id', parentId ?? '');
  form.append('filename', file.name);
  form.append('file', file);
  await call('POST', `/api/editor/upload/${token}`, form);
  await refresh(token);
}

export async function createSharedFolder(token: string, name: string, parentId: string | null): Promise<void> {
  await call('POST', `/api/editor/create-folder/${token}`, { name, parent_id: parentId ?? '' });
  await refresh(token);
}

export async function renameShared(token: string, item: Item, name: string): Promise<void> {
  await call('POST', `/api/editor/rename/${item.id}/${token}`, { _method: 'patch', name });
  await refresh(token);
}

export async function removeShared(token: string, item: Item): Promise<void> {
  await call('POST', `/api/editor/remove/${token}`, { items: [{ id: item.id, type: item.type }] });
  await refresh(token);
}

export function zipUrl(token: string, items: Item[]): string {
  return `/api/zip/${token}?items=${items.map((i) => `${i.id}|${i.type}`).join(',')}`;
}
