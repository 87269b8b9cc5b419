import { atom } from 'nanostores';
import { api } from './api.ts';
import { refreshListing, type Item } from './files.ts';

/** The owner's side of share links: create, change, revoke, and the list of what they share. */

export interface ShareAttributes {
  token: string;
  permission: 'visitor' | 'editor';
  item_id: string;
  type: 'folder' | 'file';
  protected: boolean;
  expire_in: number | null;
  expires_at: string | null;
  expired: boolean;
  link: string;
  created_at: string;
}
export interface Share {
  id: string;
  type: 'shares';
  attributes: ShareAttributes;
}

/** SPEC §9: link lifetimes in hours. */
export const EXPIRATION_HOURS = [1, 2, 6, 12, 24, 48, 168] as const;

export function shareOf(item: Item): Share | null {
  return ((item.relationships.shared as { data?: Share } | null)?.data ?? null) as Share | null;
}

export interface ShareInput {
  permission?: 'visitor' | 'editor';
  password?: string | null;
  expiration?: number | null;
  emails?: string[];
}

export async function createShare(item: Item, input: ShareInput): Promise<Share> {
  const res = await api.post<{ data: Share }>(`/api/share/${encodeURIComponent(item.id)}`, { type: item.type, ...input });
  void refreshListing();
  return res.data;
}

export async function updateShare(token: string, input: ShareInput): Promise<Share> {
  const res = await api.patch<{ data: Share }>(`/api/share/${encodeURIComponent(token)}`, { ...input });
  void refreshListing();
  return res.data;
}

export async function revokeShares(tokens: string[]): Promise<void> {
  await api.delete('/api/share/revoke', { tokens });
  void refreshListing();
  if ($mySharedItems.get()) await loadMySharedItems();
}

export const $mySharedItems = atom<Item[] | null>(null);

export async function loadMySharedItems(): Promise<void> {
  $mySharedItems.set((await api.get<{ data: Item[] }>('/api/browse/share')).data);
}
