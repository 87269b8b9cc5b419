import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../src/server/files/service.ts';
import { keepLoaded, pathTo, withFolders } from '../../src/stores/tree.ts';

const node = (id: string, folders: TreeNode[] = [], has_folders = folders.length > 0): TreeNode => ({ id, name: id, color: null, emoji: null, parent_id: null, folders, has_folders });
const ids = (nodes: TreeNode[]): unknown[] => nodes.map((n) => (n.folders.length ? [n.id, ids(n.folders)] : n.id));

describe('the navigation tree, loaded a level at a time', () => {
  it('puts a branch’s subfolders in place, leaving the rest of the tree as it was', () => {
    const tree = [node('a', [node('b', [], true)]), node('c', [], true)];
    const next = withFolders(tree, 'b', [node('d')]);
    expect(ids(next)).toEqual([['a', [['b', ['d']]]], 'c']);
    expect(next[1]).toBe(tree[1]);
    expect(ids(tree)).toEqual([['a', ['b']], 'c']);
    // A branch found empty after all no longer offers to expand.
    expect(withFolders(tree, 'c', [])[1]!.has_folders).toBe(false);
  });

  it('keeps branches loaded before when a fresh answer stops short of them, not those now gone', () => {
    const old = [node('a', [node('b', [node('x')])]), node('c', [node('y')])];
    // The fresh answer: a's branch open (b not), c emptied meanwhile.
    const fresh = [node('a', [node('b', [], true), node('e')]), node('c', [], false)];
    expect(ids(keepLoaded(fresh, old))).toEqual([['a', [['b', ['x']], 'e']], 'c']);
    expect(keepLoaded(fresh, null)).toBe(fresh);
    expect(pathTo(keepLoaded(fresh, old), 'x').map((n) => n.id)).toEqual(['a', 'b', 'x']);
  });
});
