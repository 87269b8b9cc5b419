import { atom } from 'nanostores';
import type { ItemData } from '../server/files/presenter.ts';
import type { TreeNode } from '../server/files/service.ts';

/** Whether the search spotlight (SPEC §2, Ctrl/Cmd+K) is open. A search button elsewhere calls openSpotlight(). */
export const $spotlightOpen = atom(false);

export function openSpotlight(): void {
  $spotlightOpen.set(true);
}

export function closeSpotlight(): void {
  $spotlightOpen.set(false);
}

/** Searching as you type waits this long after the last key (SPEC §9's auto-save debounce). */
export const SEARCH_DEBOUNCE_MS = 150;

/** Ctrl+K on Linux and Windows, Cmd+K on a Mac; not with Alt or Shift, which other shortcuts use. */
export function isSpotlightShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
}

/** The folder a result opens: a folder itself; a file its parent folder, or home (null) at the top. */
/** A file the spotlight opened: its folder's list selects it, scrolls to it and gives it focus, once. */
export const $revealItem = atom<string | null>(null);

export function spotlightTarget(item: Pick<ItemData, 'id' | 'type'> & { attributes: Pick<ItemData['attributes'], 'parent_id'> }): string | null {
  return item.type === 'folder' ? item.id : item.attributes.parent_id;
}

/** The highlight after an arrow key: wraps around at both ends; -1 when there is nothing. */
export function moveHighlight(current: number, delta: number, length: number): number {
  if (length <= 0) return -1;
  if (current < 0) return delta > 0 ? 0 : length - 1;
  return (((current + delta) % length) + length) % length;
}

/**
 * Where a result lives, as folder names from home down to its parent (home itself is []). Null when
 * the parent is not in the navigation tree (not loaded yet, or not the user's own folder).
 */
export function locationOf(tree: TreeNode[] | null, parentId: string | null): string[] | null {
  if (parentId === null) return [];
  if (!tree) return null;
  const walk = (nodes: TreeNode[], trail: string[]): string[] | null => {
    for (const node of nodes) {
      const next = [...trail, node.name];
      if (node.id === parentId) return next;
      const found = walk(node.folders, next);
      if (found) return found;
    }
    return null;
  };
  return walk(tree, []);
}

/**
 * A name cut around the first case-insensitive occurrence of the query, for highlighting the match.
 * When lower-casing changes the length (some scripts do), offsets would not line up: no highlight.
 */
export function splitMatch(name: string, query: string): { before: string; match: string; after: string } | null {
  const q = query.trim();
  if (!q) return null;
  const lowerName = name.toLowerCase();
  const lowerQuery = q.toLowerCase();
  if (lowerName.length !== name.length || lowerQuery.length !== q.length) return null;
  const at = lowerName.indexOf(lowerQuery);
  if (at === -1) return null;
  return { before: name.slice(0, at), match: name.slice(at, at + q.length), after: name.slice(at + q.length) };
}
