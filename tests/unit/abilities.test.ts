import { describe, expect, it } from 'vitest';
import { abilitiesFor, homeAbilities, ownerContext, requestContext, shareContext, type Abilities } from '../../src/server/files/abilities.ts';
import { allMay, may } from '../../src/stores/abilities.ts';

const live = { type: 'file' as const, deleted_at: null };
const folder = { type: 'folder' as const, deleted_at: null };
const trashed = { type: 'file' as const, deleted_at: '2026-01-01T00:00:00.000Z' };
const all = { read: true, write: true, share: true, delete: true };
/** What accessTo grants a token holder: no sharing; no change on the scope root (or, for a request, on others' items). */
const scoped = { read: true, write: true, share: false, delete: true };
const fixed = { read: true, write: false, share: false, delete: false };
const owner = { restrictions: null };
const restricted = { restrictions: JSON.stringify({ canUpload: false, canDownload: false, canCreateFolder: false }) };

const only = (yes: (keyof Abilities)[]): Abilities => ({
  rename: false,
  move: false,
  share: false,
  delete: false,
  download: false,
  upload: false,
  create_folder: false,
  restore: false,
  ...Object.fromEntries(yes.map((k) => [k, true])),
});

describe('abilitiesFor', () => {
  it('gives the owner everything on a live file, and upload and create-folder into a folder', () => {
    expect(abilitiesFor({ item: live, may: all }, ownerContext(owner))).toEqual(only(['rename', 'move', 'share', 'delete', 'download']));
    expect(abilitiesFor({ item: folder, may: all }, ownerContext(owner))).toEqual(only(['rename', 'move', 'share', 'delete', 'download', 'upload', 'create_folder']));
  });

  it("follows the owner's restriction flags: no download, upload or new folder when they are off", () => {
    expect(abilitiesFor({ item: folder, may: all }, ownerContext(restricted))).toEqual(only(['rename', 'move', 'share', 'delete']));
    expect(abilitiesFor({ item: folder, may: all }, ownerContext({ restrictions: JSON.stringify({ canUpload: false }) }))).toEqual(
      only(['rename', 'move', 'share', 'delete', 'download', 'create_folder']),
    );
  });

  it('lets a trashed item only be restored or deleted for good', () => {
    expect(abilitiesFor({ item: trashed, may: all }, ownerContext(owner))).toEqual(only(['restore', 'delete']));
    expect(abilitiesFor({ item: { ...folder, deleted_at: trashed.deleted_at }, may: all }, ownerContext(owner))).toEqual(only(['restore', 'delete']));
  });

  it('lets a share visitor download, and nothing else, whatever the grant', () => {
    expect(abilitiesFor({ item: live, may: scoped }, shareContext(owner, 'visitor'))).toEqual(only(['download']));
    expect(abilitiesFor({ item: folder, may: fixed }, shareContext(owner, 'visitor'))).toEqual(only(['download']));
    expect(abilitiesFor({ item: live, may: scoped }, shareContext(restricted, 'visitor'))).toEqual(only([]));
  });

  it('lets a share editor change items below the root, never share them', () => {
    expect(abilitiesFor({ item: live, may: scoped }, shareContext(owner, 'editor'))).toEqual(only(['rename', 'move', 'delete', 'download']));
    expect(abilitiesFor({ item: folder, may: scoped }, shareContext(owner, 'editor'))).toEqual(only(['rename', 'move', 'delete', 'download', 'upload', 'create_folder']));
  });

  it('keeps the scope root itself fixed, but open to uploads for an editor and a request holder', () => {
    expect(abilitiesFor({ item: folder, may: fixed }, shareContext(owner, 'editor'))).toEqual(only(['download', 'upload', 'create_folder']));
    expect(abilitiesFor({ item: folder, may: fixed }, shareContext(owner, 'visitor'))).toEqual(only(['download']));
    expect(abilitiesFor({ item: folder, may: fixed }, requestContext(owner))).toEqual(only(['upload', 'create_folder']));
    expect(abilitiesFor({ item: folder, may: fixed }, requestContext(restricted))).toEqual(only([]));
  });

  it('lets an upload request holder change what it made, not what others put there, and download nothing', () => {
    expect(abilitiesFor({ item: live, may: scoped }, requestContext(owner))).toEqual(only(['rename', 'move', 'delete']));
    expect(abilitiesFor({ item: live, may: fixed }, requestContext(owner))).toEqual(only([]));
    expect(abilitiesFor({ item: folder, may: fixed }, requestContext(owner))).toEqual(only(['upload', 'create_folder']));
  });

  it('gives nothing without read', () => {
    expect(abilitiesFor({ item: folder, may: { read: false, write: true, share: true, delete: true } }, ownerContext(owner))).toEqual(only([]));
  });
});

describe('homeAbilities', () => {
  it('lets things into the home as the flags allow, and nothing else', () => {
    expect(homeAbilities(ownerContext(owner))).toEqual(only(['upload', 'create_folder']));
    expect(homeAbilities(ownerContext(restricted))).toEqual(only([]));
  });
});

describe('the client’s reading of abilities', () => {
  const item = (abilities?: Abilities) => (abilities ? { meta: { abilities } } : {});
  it('allows what the server said, and nothing where it said nothing', () => {
    expect(may(item(only(['rename'])), 'rename')).toBe(true);
    expect(may(item(only(['rename'])), 'delete')).toBe(false);
    expect(may(item(), 'rename')).toBe(false);
    expect(may(null, 'rename')).toBe(false);
  });

  it('allows a selection only when every item allows it, and never an empty one', () => {
    expect(allMay([item(only(['move'])), item(only(['move', 'delete']))], 'move')).toBe(true);
    expect(allMay([item(only(['move'])), item(only(['delete']))], 'move')).toBe(false);
    expect(allMay([item(only(['move'])), item()], 'move')).toBe(false);
    expect(allMay([], 'move')).toBe(false);
  });
});
