import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../src/server/files/service.ts';
import { isSpotlightShortcut, locationOf, moveHighlight, splitMatch, spotlightTarget } from '../../src/stores/spotlight.ts';

const node = (id: string, name: string, folders: TreeNode[] = [], parent_id: string | null = null): TreeNode => ({ id, name, color: null, emoji: null, parent_id, folders, has_folders: folders.length > 0 });

describe('spotlight helpers', () => {
  it('opens a folder itself, a file its parent folder or home', () => {
    expect(spotlightTarget({ id: 'f1', type: 'folder', attributes: { parent_id: 'p' } })).toBe('f1');
    expect(spotlightTarget({ id: 'x', type: 'file', attributes: { parent_id: 'p' } })).toBe('p');
    expect(spotlightTarget({ id: 'x', type: 'file', attributes: { parent_id: null } })).toBeNull();
  });

  it('moves the highlight with wrap-around', () => {
    expect(moveHighlight(-1, 1, 3)).toBe(0);
    expect(moveHighlight(-1, -1, 3)).toBe(2);
    expect(moveHighlight(0, 1, 3)).toBe(1);
    expect(moveHighlight(2, 1, 3)).toBe(0);
    expect(moveHighlight(0, -1, 3)).toBe(2);
    expect(moveHighlight(0, 1, 0)).toBe(-1);
  });

  it('knows Ctrl+K and Cmd+K, and nothing else', () => {
    const key = (k: Partial<KeyboardEvent>) => isSpotlightShortcut({ key: 'k', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...k });
    expect(key({ ctrlKey: true })).toBe(true);
    expect(key({ metaKey: true })).toBe(true);
    expect(key({ ctrlKey: true, key: 'K' })).toBe(true);
    expect(key({})).toBe(false);
    expect(key({ ctrlKey: true, shiftKey: true })).toBe(false);
    expect(key({ ctrlKey: true, altKey: true })).toBe(false);
    expect(key({ ctrlKey: true, key: 'j' })).toBe(false);
  });

  it('names the location from the navigation tree', () => {
    const tree = [node('a', 'Work', [node('b', 'Reports', [node('c', '2024')], 'a')]), node('d', 'Photos')];
    expect(locationOf(tree, null)).toEqual([]);
    expect(locationOf(tree, 'c')).toEqual(['Work', 'Reports', '2024']);
    expect(locationOf(tree, 'd')).toEqual(['Photos']);
    expect(locationOf(tree, 'missing')).toBeNull();
    expect(locationOf(null, 'c')).toBeNull();
  });

  it('splits a name around the first case-insensitive match', () => {
    expect(splitMatch('Quarterly Report.pdf', 'report')).toEqual({ before: 'Quarterly ', match: 'Report', after: '.pdf' });
    expect(splitMatch('<b>x</b> "q"', ' <B>X')).toEqual({ before: '', match: '<b>x', after: '</b> "q"' });
    expect(splitMatch('abc', 'zz')).toBeNull();
    expect(splitMatch('abc', '   ')).toBeNull();
    expect(splitMatch('İstanbul', 'stan')).toBeNull(); // lower-casing changes the length: no offsets to trust
  });
});
