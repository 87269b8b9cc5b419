import { atom } from 'nanostores';
import type { TreeNode } from '../server/files/service.ts';
import { api } from './api.ts';

/**
 * The navigation tree: the user's folders as the navigation panel, the move dialog, the breadcrumb
 * and the spotlight show them, loaded a level at a time. files.ts `loadTree` asks for it with the
 * branches down to the folder open in Files.
 */

export type { TreeNode };

export const $tree = atom<TreeNode[] | null>(null);

/**
 * The tree's top level and the branches down to the open folder (the server answers a level at a
 * time: a node with `has_folders` and no `folders` is loaded on expand, `loadTreeChildren`).
 * Branches loaded before keep their subfolders when the fresh answer did not reach them.
 */
export async function loadTreeAt(openId: string | null): Promise<void> {
  const open = openId ? `?${new URLSearchParams({ open: openId })}` : '';
  try {
    const fresh = (await api.get<{ data: TreeNode[] }>(`/api/browse/navigation${open}`)).data;
    $tree.set(keepLoaded(fresh, $tree.get()));
  } catch {
    if ($tree.get() === null) $tree.set([]);
  }
}

/** One folder's subfolders put into the tree (on expand). */
export async function loadTreeChildren(id: string): Promise<void> {
  const folders = (await api.get<{ data: TreeNode[] }>(`/api/browse/navigation?${new URLSearchParams({ parent_id: id })}`)).data;
  $tree.set(withFolders($tree.get() ?? [], id, folders));
}

/** The tree with `id`'s subfolders set to `folders` (a new tree: stores compare by reference). */
export function withFolders(tree: TreeNode[], id: string, folders: TreeNode[]): TreeNode[] {
  return tree.map((node) => (node.id === id ? { ...node, folders, has_folders: folders.length > 0 } : node.folders.length ? { ...node, folders: withFolders(node.folders, id, folders) } : node));
}

/** A fresh answer with the subfolders the old tree had loaded where the answer stopped short. */
export function keepLoaded(fresh: TreeNode[], old: TreeNode[] | null): TreeNode[] {
  if (!old) return fresh;
  const loaded = new Map<string, TreeNode[]>();
  const collect = (nodes: TreeNode[]): void => {
    for (const n of nodes) {
      if (n.folders.length) loaded.set(n.id, n.folders);
      collect(n.folders);
    }
  };
  collect(old);
  const merge = (nodes: TreeNode[]): TreeNode[] =>
    nodes.map((n) => {
      const folders = n.folders.length ? n.folders : n.has_folders ? (loaded.get(n.id) ?? []) : [];
      return folders.length ? { ...n, folders: merge(folders) } : n;
    });
  return merge(fresh);
}

/** The chain of folders from home down to `id` (inclusive), from the navigation tree. */
export function pathTo(tree: TreeNode[], id: string): TreeNode[] {
  const walk = (nodes: TreeNode[], trail: TreeNode[]): TreeNode[] | null => {
    for (const node of nodes) {
      const next = [...trail, node];
      if (node.id === id) return next;
      const found = walk(node.folders, next);
      if (found) return found;
    }
    return null;
  };
  return walk(tree, []) ?? [];
}

/** Whether `id` is `ancestor` or lies inside it. */
export function isWithin(tree: TreeNode[], id: string, ancestor: string): boolean {
  return pathTo(tree, id).some((n) => n.id === ancestor);
}
