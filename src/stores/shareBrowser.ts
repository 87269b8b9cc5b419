import { atom } from 'nanostores';
import type { Item } from './files.ts';
import { persistentAtom } from './prefs.ts';
import { UploadFailure, uploadOverTus } from './scopedUpload.ts';

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
  // A signed-in person may open a link too: their session cookie then needs the CSRF header.
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  const text = await res.text();
  const data = text ? (JSON.parse(text) as unknown) : undefined;
  // A dead link: the server shows the 404 page. A locked one (the password changed): the gate.
  if (res.status === 404 || res.status === 401) location.reload();
  if (!res.ok) throw new ShareError(res.status, (data as { message?: string } | undefined)?.message ?? `Request failed (${res.status}).`);
  return data as T;
}

export const $link = atom<SharedLink | null>(null);
/** The visitor's list or grid choice, remembered in this browser; null until they pick one. */
export const $scopedView = persistentAtom<'list' | 'grid' | null>('shared_view_type', null, (v): v is 'list' | 'grid' => v === 'list' || v === 'grid');
export const $sharedItems = atom<{ folderId: string | null; items: Item[]; root: Item | null } | null>(null);

/** The calls of one token-scoped folder browser: a share link's or an upload request's. */
export interface ScopedApi {
  /** The page path of a folder (null: the scope's own folder). */
  pathOf: (folderId: string | null) => string;
  open: (folderId: string | null) => Promise<void>;
  /** Over tus (scopedUpload.ts), so a dropped connection resumes; `onProgress` as the bytes go. */
  upload: (file: File, parentId: string | null, onProgress?: (sent: number, total: number) => void) => Promise<void>;
  createFolder: (name: string, parentId: string | null) => Promise<void>;
  rename: (item: Item, name: string) => Promise<void>;
  remove: (item: Item) => Promise<void>;
  /** A zip of these items, when the scope lets its holder download. */
  zipUrl?: (items: Item[]) => string;
}

export function shareApi(token: string): ScopedApi {
  return {
    pathOf: (id) => `/share/${token}/files${id ? `/${id}` : ''}`,
    open: (id) => openSharedFolder(token, id),
    upload: (file, parentId, onProgress) => uploadShared(token, file, parentId, onProgress),
    createFolder: (name, parentId) => createSharedFolder(token, name, parentId),
    rename: (item, name) => renameShared(token, item, name),
    remove: (item) => removeShared(token, item),
    zipUrl: (items) => zipUrl(token, items),
  };
}

export interface UploadRequestInfo {
  token: string;
  status: 'active' | 'filled' | 'expired';
  name: string | null;
  notes: string | null;
  owner_name: string | null;
  expires_at: string;
}
export const $request = atom<UploadRequestInfo | null>(null);

export async function loadRequest(token: string): Promise<UploadRequestInfo> {
  const res = await call<{ data: { attributes: UploadRequestInfo } }>('GET', `/api/upload-request/${token}`);
  $request.set(res.data.attributes);
  return res.data.attributes;
}

export async function closeRequest(token: string): Promise<void> {
  const res = await call<{ data: { attributes: UploadRequestInfo } }>('DELETE', `/api/upload-request/${token}`);
  $request.set(res.data.attributes);
  $sharedItems.set({ folderId: null, items: [], root: $sharedItems.get()?.root ?? null });
}

export function requestApi(token: string): ScopedApi {
  const base = `/api/upload-request/${token}`;
  const open = async (folderId: string | null) => {
    const res = await call<{ data: Item[]; meta: { root: Item | null } }>('GET', `${base}/browse/${folderId ?? 'all'}?sort=name&direction=asc`);
    $sharedItems.set({ folderId, items: res.data, root: res.meta.root });
  };
  const refresh = () => open($sharedItems.get()?.folderId ?? null);
  return {
    pathOf: (id) => `/request/${token}/upload${id ? `/${id}` : ''}`,
    open,
    upload: async (file, parentId, onProgress) => {
      await scopedTus({ 'X-Upload-Request-Token': token }, file, parentId, onProgress);
      await refresh();
    },
    createFolder: async (name, parentId) => {
      await call('POST', `${base}/create-folder`, { name, parent_id: parentId ?? '' });
      await refresh();
    },
    rename: async (item, name) => {
      await call('POST', `${base}/rename/${item.id}`, { _method: 'patch', name });
      await refresh();
    },
    remove: async (item) => {
      await call('POST', `${base}/remove`, { items: [{ id: item.id, type: item.type }] });
      await refresh();
    },
  };
}

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

export async function uploadShared(token: string, file: File, parentId: string | null, onProgress?: (sent: number, total: number) => void): Promise<void> {
  await scopedTus({ 'X-Share-Token': token }, file, parentId, onProgress);
  await refresh(token);
}

/** A tus upload with the token in its header; refusals as call() has them (a dead link reloads). */
async function scopedTus(tokenHeader: Record<string, string>, file: File, parentId: string | null, onProgress?: (sent: number, total: number) => void): Promise<void> {
  try {
    await uploadOverTus(file, { tokenHeader, parentId, ...(onProgress ? { onProgress } : {}) });
  } catch (error) {
    if (!(error instanceof UploadFailure)) throw error;
    if (error.status === 404 || error.status === 401) location.reload();
    throw new ShareError(error.status, error.message);
  }
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
