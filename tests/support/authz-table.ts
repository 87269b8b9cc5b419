import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The authorization table: who (principal) may call which route on what (object), and what they get.
 * Three planes, each with its own principals and objects:
 * - owner: the signed-in user's own API (session cookie or bearer token);
 * - share: calls that carry a share-link token;
 * - request: calls that carry an upload-request token;
 * - team: signed-in users on the items of a team folder (its members, former members, the invited,
 *   the owner), through the ordinary file calls and the team routes (src/server/teams/README.md).
 * Pure data and rules; tests/integration/authorization-table.test.ts builds the world and runs the cells.
 */

export type Plane = 'owner' | 'share' | 'request' | 'team';

export const PRINCIPALS = {
  owner: [
    'signed out',
    'wrong bearer token',
    'revoked bearer token',
    'share token as bearer',
    'request token as bearer',
    'another user (cookie)',
    'another user (bearer)',
    'admin, not the owner',
    'owner (cookie)',
    'owner (bearer)',
  ],
  share: ['share visitor', 'share visitor, signed in as the owner', 'share editor', 'protected link, locked', 'link to a different item', 'expired link', 'revoked link', 'another user’s link', 'made-up link'],
  request: ['request holder', 'request holder, signed in as another user', 'holder of another request', 'filled request', 'expired request', 'made-up request'],
  team: [
    'can_edit member (cookie)',
    'can_edit member (bearer)',
    'can_view member',
    'removed member',
    'member of a dissolved team',
    'member of another team of the owner',
    'invited, not yet accepted',
    'the team’s owner',
  ],
} as const;

export type Principal = (typeof PRINCIPALS)[Plane][number];

export const OBJECTS = {
  owner: ['own item', 'trashed item', 'another user’s item', 'nonexistent id'],
  share: ['inside the share', 'the share root', 'outside the share', 'trashed inside the share', 'another user’s item', 'nonexistent id'],
  request: ['uploaded by the holder', 'the owner’s item in the folder', 'the request folder', 'outside the folder', 'another user’s item', 'nonexistent id'],
  team: ['inside the team folder', 'the team folder', 'the owner’s item outside it', 'another user’s item', 'nonexistent id'],
} as const;

export type ObjectName = (typeof OBJECTS)[Plane][number] | 'listing';

/** Principals that no owner-plane route may take for a user. */
export const UNAUTHENTICATED: readonly Principal[] = ['signed out', 'wrong bearer token', 'revoked bearer token', 'share token as bearer', 'request token as bearer'];
/** Links and requests that name nothing any more (or never did). */
export const DEAD_TOKENS: readonly Principal[] = ['expired link', 'revoked link', 'made-up link', 'made-up request'];
/** Live links whose reach does not include the table's share (its objects are out of reach). */
export const FOREIGN_LINKS: readonly Principal[] = ['link to a different item', 'another user’s link', 'holder of another request'];

/** Who gets the owner's answers on a listing: sees the object in it. */
export const OWNERS: readonly Principal[] = ['owner (cookie)', 'owner (bearer)', 'the team’s owner'];
/** Members of the team folder the team plane's objects lie in. */
export const TEAM_EDITORS: readonly Principal[] = ['can_edit member (cookie)', 'can_edit member (bearer)'];
export const TEAM_MEMBERS: readonly Principal[] = [...TEAM_EDITORS, 'can_view member'];

/** `ok`: the row's success status. `empty`: 200 with nothing listed. A number: that refusal. `n/a`: the cell does not exist. */
export type Outcome = 'ok' | 'empty' | 401 | 403 | 404 | 409 | 410 | 422 | 423 | 'n/a';

export interface Target {
  id: string;
  type: 'file' | 'folder';
  name: string;
  /** The principal's token on the share/request planes. */
  token: string;
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  json?: unknown;
  /** A multipart upload with these fields (the file is added). */
  upload?: Record<string, string>;
  /** A tus creation + PATCH with this metadata. */
  tus?: Record<string, string>;
}

export interface Helpers {
  /** A fresh file of the acting user (owner plane) or inside the principal's share/request root (token planes). */
  mine(): Promise<Target>;
  /** A fresh share link of the object (by its owner); a made-up token for an object with none. */
  shareOf(target: Target): Promise<string>;
  /** The id of a remote import the owner started. */
  remoteJob: string;
  /** A folder inside the principal's root that moves may aim at. */
  sub: string;
  /** A fresh folder of the acting user's own (outside every team folder). */
  ownFolder(): Promise<string>;
  /** A fresh pending invitation of the team whose folder the target is (else of the table's team). */
  invitation(target: Target): Promise<string>;
  /**
   * A member's user id for the target's team: a team-plane member names itself (trying to change
   * its own membership); anyone else a spare account made a `can_view` member of that team.
   */
  member(target: Target): Promise<string>;
}

type Outcomes = Partial<Record<ObjectName, Outcome>>;

export interface Row {
  /** `METHOD /api/path/[param]` as on disk (src/pages/api), or `data:<name>` of a data route. */
  key: string;
  /** Tells two rows of one route apart. */
  label?: string;
  plane: Plane;
  write: boolean;
  /** What the object is: a file, a folder, none (a listing or the token itself), or a team invitation (`invitationRule`). */
  kind: 'file' | 'folder' | 'none' | 'invitation';
  /** The file needs a thumbnail made. */
  thumbnail?: boolean;
  /**
   * Listing rows: what to put in it that others must not see: the owner's fresh item (own, trashed,
   * shared, or made a team folder: team), or on the team plane the principal's team folder (team
   * root) or a fresh folder inside it (in team).
   */
  listing?: 'own' | 'trashed' | 'shared' | 'team' | 'team root' | 'in team';
  /** Listing rows: the principals who see the object in it (the rule: the owner's). */
  shownTo?: readonly Principal[];
  /** Owner plane: the folders tried (own, trashed, another user's) are made team folders first. */
  teamFolder?: boolean;
  /** A rule of the row's own, before the plane's; undefined falls through to the plane's. */
  rule?: (principal: Principal, object: ObjectName) => Outcome | undefined;
  /** A listing other users may call too (200) but that must not show the owner's item. */
  othersSeeOwn?: boolean;
  ok: number;
  call: (t: Target, h: Helpers) => Call | Promise<Call>;
  /** The object is on its owner's favourites first. */
  favourite?: boolean;
  /** The allowed principal's call uses up its token (closing a request): it gets a fresh one. */
  consumesToken?: boolean;
  /** Outcomes for the allowed principal (owner, editor, holder) that differ from the rule. */
  allowed?: Partial<Record<ObjectName, Outcome>>;
  /** Outcomes for a share visitor that differ from the rule. */
  visitor?: Partial<Record<ObjectName, Outcome>>;
  /** No principal of the plane may use it (a token of one kind on another kind's route): 404 everywhere. */
  never?: boolean;
  /** Outcomes for a protected link not unlocked in this browser (the rule: 401). */
  locked?: Partial<Record<ObjectName, Outcome>>;
  /** Outcomes for a filled or expired request that differ from the rule. */
  closed?: Partial<Record<ObjectName, Outcome>>;
  /** Outcomes for a filled request that differ from `closed`. */
  filled?: Partial<Record<ObjectName, Outcome>>;
  /** Team plane: the call changes the object itself (renames, moves, removes it): members get 403 on the team folder, and the owner's cell on it is left out (the table's team folder stays). */
  changesObject?: boolean;
  /** Team plane: outcomes for every principal that differ from the rule. */
  everyone?: Outcomes;
  /** Team plane: outcomes for both kinds of member that differ from the rule (`editor`, `viewer` come first). */
  member?: Outcomes;
  editor?: Outcomes;
  viewer?: Outcomes;
  /** Team plane: outcomes for the team folder's owner that differ from the rule. */
  teamOwner?: Outcomes;
  /** An allowed call changes the table's memberships (leaving): they are put back after the cell. */
  restoresTeams?: boolean;
  /** Team plane: the objects for which the call would take items out of the team folder (a member's 403 says `team_move_out`). */
  moveOut?: readonly ObjectName[];
}

const patch = (name: string) => ({ _method: 'patch', name });
const items = (t: Target, extra: Record<string, unknown> = {}) => [{ id: t.id, type: t.type, ...extra }];
const NAME = () => `Made ${Math.random().toString(36).slice(2, 8)}`;
const EMAIL = () => `invited.${Math.random().toString(36).slice(2, 10)}@example.test`;

/**
 * The invitation routes (owner plane, `kind: 'invitation'`): the own item is a pending invitation
 * to the owner's address, the trashed item a revoked one, another user's item a pending one to
 * someone else's. Reading is open to anyone with the link; answering is for the invited account only
 * (403 for another, then 410 for one no longer open).
 */
function invitationRule(kind: 'read' | 'answer'): Row['rule'] {
  return (principal, object) => {
    // Open to the signed out; a bearer token that is no user's is refused on every route.
    if (principal !== 'signed out' && UNAUTHENTICATED.includes(principal)) return 401;
    if (kind === 'read') return object === 'nonexistent id' ? 404 : 'ok';
    if (principal === 'signed out') return 401;
    if (object === 'nonexistent id') return 404;
    if (!OWNERS.includes(principal) || object === 'another user’s item') return 403;
    return object === 'trashed item' ? 410 : 'ok';
  };
}

/** Team plane: refused to members (a route of the owner's), 404 as for an item that is not theirs. */
const NOT_FOR_MEMBERS: Outcomes = { 'inside the team folder': 404, 'the team folder': 404 };
/** Team plane: a route that takes the team folder itself: anything else is 404, for its owner too. */
const TEAM_FOLDER_ONLY: Outcomes = { 'inside the team folder': 404, 'the owner’s item outside it': 404 };
const teamRow = (row: Omit<Row, 'plane'>): Row => ({ ...row, plane: 'team' });

export const ROWS: Row[] = [
  // ---- owner plane: listings
  { key: 'GET /api/browse/folders/[...id]', label: 'home', plane: 'owner', write: false, kind: 'none', listing: 'own', othersSeeOwn: true, ok: 200, call: () => ({ method: 'GET', path: '/api/browse/folders/all?limit=1000' }) },
  { key: 'GET /api/browse/trash/[...id]', label: 'trash top', plane: 'owner', write: false, kind: 'none', listing: 'trashed', othersSeeOwn: true, ok: 200, call: () => ({ method: 'GET', path: '/api/browse/trash/all?limit=1000' }) },
  { key: 'GET /api/browse/latest', plane: 'owner', write: false, kind: 'none', listing: 'own', othersSeeOwn: true, ok: 200, call: () => ({ method: 'GET', path: '/api/browse/latest' }) },
  { key: 'GET /api/browse/navigation', plane: 'owner', write: false, kind: 'none', listing: 'own', othersSeeOwn: true, ok: 200, call: () => ({ method: 'GET', path: '/api/browse/navigation' }) },
  { key: 'GET /api/search', plane: 'owner', write: false, kind: 'none', listing: 'own', othersSeeOwn: true, ok: 200, call: (t) => ({ method: 'GET', path: `/api/search?query=${encodeURIComponent(t.name)}` }) },
  { key: 'GET /api/browse/share', plane: 'owner', write: false, kind: 'none', listing: 'shared', othersSeeOwn: true, ok: 200, call: () => ({ method: 'GET', path: '/api/browse/share' }) },
  { key: 'DELETE /api/trash/dump', plane: 'owner', write: true, kind: 'none', listing: 'trashed', othersSeeOwn: true, ok: 204, call: () => ({ method: 'POST', path: '/api/trash/dump', json: { _method: 'delete' } }) },
  // ---- owner plane: one item
  { key: 'GET /api/browse/folders/[...id]', plane: 'owner', write: false, kind: 'folder', ok: 200, call: (t) => ({ method: 'GET', path: `/api/browse/folders/${t.id}` }) },
  { key: 'GET /api/browse/trash/[...id]', plane: 'owner', write: false, kind: 'folder', ok: 200, allowed: { 'own item': 404, 'trashed item': 'ok' }, call: (t) => ({ method: 'GET', path: `/api/browse/trash/${t.id}` }) },
  { key: 'POST /api/create-folder', plane: 'owner', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/create-folder', json: { name: NAME(), parent_id: t.id } }) },
  { key: 'PATCH /api/rename/[id]', plane: 'owner', write: true, kind: 'file', ok: 200, call: (t) => ({ method: 'POST', path: `/api/rename/${t.id}`, json: patch(`${t.name}.renamed`) }) },
  { key: 'POST /api/move', label: 'item', plane: 'owner', write: true, kind: 'file', ok: 200, call: (t) => ({ method: 'POST', path: '/api/move', json: { to_id: null, items: items(t) } }) },
  {
    key: 'POST /api/move',
    label: 'into',
    plane: 'owner',
    write: true,
    kind: 'folder',
    ok: 200,
    call: async (t, h) => ({ method: 'POST', path: '/api/move', json: { to_id: t.id, items: items(await h.mine()) } }),
  },
  { key: 'POST /api/remove', plane: 'owner', write: true, kind: 'file', ok: 204, allowed: { 'trashed item': 422 }, call: (t) => ({ method: 'POST', path: '/api/remove', json: { items: items(t) } }) },
  // A batch is all or nothing: with one item out of reach, the principal's own item stays too.
  {
    key: 'POST /api/remove',
    label: 'with one of mine',
    plane: 'owner',
    write: true,
    kind: 'file',
    ok: 204,
    allowed: { 'trashed item': 422 },
    call: async (t, h) => ({ method: 'POST', path: '/api/remove', json: { items: [...items(await h.mine()), ...items(t)] } }),
  },
  {
    key: 'POST /api/move',
    label: 'with one of mine',
    plane: 'owner',
    write: true,
    kind: 'file',
    ok: 200,
    call: async (t, h) => ({ method: 'POST', path: '/api/move', json: { to_id: null, items: [...items(await h.mine()), ...items(t)] } }),
  },
  { key: 'POST /api/remove', label: 'for good', plane: 'owner', write: true, kind: 'file', ok: 204, allowed: { 'trashed item': 'ok' }, call: (t) => ({ method: 'POST', path: '/api/remove', json: { items: items(t, { force_delete: true }) } }) },
  { key: 'POST /api/trash/restore', plane: 'owner', write: true, kind: 'file', ok: 200, allowed: { 'own item': 404, 'trashed item': 'ok' }, call: (t) => ({ method: 'POST', path: '/api/trash/restore', json: { items: items(t) } }) },
  { key: 'POST /api/folders/favourites', plane: 'owner', write: true, kind: 'folder', ok: 200, call: (t) => ({ method: 'POST', path: '/api/folders/favourites', json: { folders: [t.id] } }) },
  { key: 'DELETE /api/folders/favourites/[id]', plane: 'owner', write: true, kind: 'folder', favourite: true, ok: 204, allowed: { 'trashed item': 'ok' }, call: (t) => ({ method: 'POST', path: `/api/folders/favourites/${t.id}`, json: { _method: 'delete' } }) },
  { key: 'POST /api/share/[id]', plane: 'owner', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: `/api/share/${t.id}`, json: { type: 'folder', permission: 'visitor' } }) },
  {
    key: 'PATCH /api/share/[id]',
    plane: 'owner',
    write: true,
    kind: 'folder',
    ok: 200,
    call: async (t, h) => ({ method: 'POST', path: `/api/share/${await h.shareOf(t)}`, json: { _method: 'patch', permission: 'editor' } }),
  },
  {
    key: 'DELETE /api/share/revoke',
    plane: 'owner',
    write: true,
    kind: 'folder',
    ok: 204,
    call: async (t, h) => ({ method: 'POST', path: '/api/share/revoke', json: { _method: 'delete', tokens: [await h.shareOf(t)] } }),
  },
  { key: 'POST /api/upload-request', plane: 'owner', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/upload-request', json: { folder_id: t.id } }) },
  { key: 'data:upload', plane: 'owner', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/upload', upload: { parent_id: t.id } }) },
  { key: 'data:upload-tus', plane: 'owner', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/upload/tus', tus: { filename: 'tus.bin', parent_id: t.id } }) },
  {
    key: 'data:upload-remote',
    plane: 'owner',
    write: true,
    kind: 'folder',
    ok: 202,
    call: (t) => ({ method: 'POST', path: '/api/upload/remote', json: { urls: ['http://127.0.0.1:9/nothing.bin'], parent_id: t.id } }),
  },
  { key: 'data:upload-remote', label: 'job', plane: 'owner', write: false, kind: 'none', ok: 200, call: (_t, h) => ({ method: 'GET', path: `/api/upload/remote/${h.remoteJob}` }) },
  { key: 'data:file download', plane: 'owner', write: false, kind: 'file', ok: 200, call: (t) => ({ method: 'GET', path: `/file/${t.id}` }) },
  // Trashed files keep their thumbnails: the trash lists them.
  { key: 'data:thumbnails', plane: 'owner', write: false, kind: 'file', thumbnail: true, ok: 200, allowed: { 'trashed item': 'ok' }, call: (t) => ({ method: 'GET', path: `/thumbnail/${t.id}/sm` }) },
  {
    key: 'data:zip download',
    label: 'with one of mine',
    plane: 'owner',
    write: false,
    kind: 'folder',
    ok: 200,
    call: async (t, h) => ({ method: 'GET', path: `/api/zip?items=${(await h.mine()).id}|file,${t.id}|folder` }),
  },
  { key: 'data:zip download', plane: 'owner', write: false, kind: 'folder', ok: 200, call: (t) => ({ method: 'GET', path: `/api/zip?items=${t.id}|folder` }) },

  // ---- share plane
  // A locked link answers only that it is locked, and takes a password (here a wrong one: 422).
  { key: 'GET /api/browse/share/[token]', plane: 'share', write: false, kind: 'none', ok: 200, locked: { listing: 'ok' }, call: (t) => ({ method: 'GET', path: `/api/browse/share/${t.token}` }) },
  { key: 'POST /api/browse/authenticate/[token]', plane: 'share', write: false, kind: 'none', ok: 200, locked: { listing: 422 }, call: (t) => ({ method: 'POST', path: `/api/browse/authenticate/${t.token}`, json: { password: 'not needed' } }) },
  { key: 'GET /api/browse/navigation/[token]', plane: 'share', write: false, kind: 'none', ok: 200, call: (t) => ({ method: 'GET', path: `/api/browse/navigation/${t.token}` }) },
  { key: 'GET /api/browse/folders/[id]/[token]', plane: 'share', write: false, kind: 'folder', ok: 200, call: (t) => ({ method: 'GET', path: `/api/browse/folders/${t.id}/${t.token}` }) },
  { key: 'POST /api/editor/create-folder/[token]', plane: 'share', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: `/api/editor/create-folder/${t.token}`, json: { name: NAME(), parent_id: t.id } }) },
  {
    key: 'PATCH /api/editor/rename/[id]/[token]',
    plane: 'share',
    write: true,
    kind: 'file',
    ok: 200,
    allowed: { 'the share root': 403 },
    call: (t) => ({ method: 'POST', path: `/api/editor/rename/${t.id}/${t.token}`, json: patch(`${t.name}.renamed`) }),
  },
  {
    key: 'POST /api/editor/move/[token]',
    label: 'item',
    plane: 'share',
    write: true,
    kind: 'file',
    ok: 200,
    allowed: { 'the share root': 403 },
    call: (t, h) => ({ method: 'POST', path: `/api/editor/move/${t.token}`, json: { to_id: h.sub, items: items(t) } }),
  },
  {
    key: 'POST /api/editor/move/[token]',
    label: 'into',
    plane: 'share',
    write: true,
    kind: 'folder',
    ok: 200,
    call: async (t, h) => ({ method: 'POST', path: `/api/editor/move/${t.token}`, json: { to_id: t.id, items: items(await h.mine()) } }),
  },
  {
    key: 'POST /api/editor/remove/[token]',
    plane: 'share',
    write: true,
    kind: 'file',
    ok: 204,
    allowed: { 'the share root': 403 },
    call: (t) => ({ method: 'POST', path: `/api/editor/remove/${t.token}`, json: { items: items(t) } }),
  },
  {
    key: 'POST /api/editor/remove/[token]',
    label: 'with one of mine',
    plane: 'share',
    write: true,
    kind: 'file',
    ok: 204,
    allowed: { 'the share root': 403 },
    call: async (t, h) => ({ method: 'POST', path: `/api/editor/remove/${t.token}`, json: { items: [...items(await h.mine()), ...items(t)] } }),
  },
  { key: 'data:shared upload', plane: 'share', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: `/api/editor/upload/${t.token}`, upload: { parent_id: t.id } }) },
  { key: 'data:upload-tus', label: 'share', plane: 'share', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/upload/tus', tus: { filename: 'tus.bin', parent_id: t.id } }) },
  { key: 'data:file download', label: 'share', plane: 'share', write: false, kind: 'file', ok: 200, allowed: { 'the share root': 'n/a' }, call: (t) => ({ method: 'GET', path: `/file/${t.id}/${t.token}` }) },
  {
    key: 'data:thumbnails',
    label: 'share',
    plane: 'share',
    write: false,
    kind: 'file',
    thumbnail: true,
    ok: 200,
    allowed: { 'the share root': 'n/a' },
    call: (t) => ({ method: 'GET', path: `/thumbnail/${t.id}/sm/${t.token}` }),
  },
  {
    key: 'data:zip download',
    label: 'share, with one of mine',
    plane: 'share',
    write: false,
    kind: 'folder',
    ok: 200,
    call: async (t, h) => ({ method: 'GET', path: `/api/zip/${t.token}?items=${(await h.mine()).id}|file,${t.id}|folder` }),
  },
  { key: 'data:zip download', label: 'share', plane: 'share', write: false, kind: 'folder', ok: 200, call: (t) => ({ method: 'GET', path: `/api/zip/${t.token}?items=${t.id}|folder` }) },

  // ---- upload-request plane
  { key: 'GET /api/upload-request/[token]', plane: 'request', write: false, kind: 'none', ok: 200, closed: { listing: 'ok' }, call: (t) => ({ method: 'GET', path: `/api/upload-request/${t.token}` }) },
  {
    key: 'DELETE /api/upload-request/[token]',
    plane: 'request',
    write: true,
    kind: 'none',
    ok: 200,
    consumesToken: true,
    // Closing a filled request again changes nothing; an expired one cannot be closed.
    filled: { listing: 'ok' },
    call: (t) => ({ method: 'DELETE', path: `/api/upload-request/${t.token}` }),
  },
  { key: 'GET /api/upload-request/[token]/navigation', plane: 'request', write: false, kind: 'none', ok: 200, closed: { listing: 'empty' }, call: (t) => ({ method: 'GET', path: `/api/upload-request/${t.token}/navigation` }) },
  {
    key: 'GET /api/upload-request/[token]/browse/[...id]',
    plane: 'request',
    write: false,
    kind: 'folder',
    ok: 200,
    closed: { 'uploaded by the holder': 'empty', 'the owner’s item in the folder': 'empty', 'the request folder': 'empty', 'outside the folder': 'empty', 'another user’s item': 'empty', 'nonexistent id': 'empty' },
    call: (t) => ({ method: 'GET', path: `/api/upload-request/${t.token}/browse/${t.id}` }),
  },
  { key: 'POST /api/upload-request/[token]/create-folder', plane: 'request', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: `/api/upload-request/${t.token}/create-folder`, json: { name: NAME(), parent_id: t.id } }) },
  {
    key: 'PATCH /api/upload-request/[token]/rename/[id]',
    plane: 'request',
    write: true,
    kind: 'file',
    ok: 200,
    allowed: { 'the owner’s item in the folder': 403, 'the request folder': 403 },
    call: (t) => ({ method: 'POST', path: `/api/upload-request/${t.token}/rename/${t.id}`, json: patch(`${t.name}.renamed`) }),
  },
  {
    key: 'POST /api/upload-request/[token]/move',
    label: 'item',
    plane: 'request',
    write: true,
    kind: 'file',
    ok: 200,
    allowed: { 'the owner’s item in the folder': 403, 'the request folder': 403 },
    call: (t, h) => ({ method: 'POST', path: `/api/upload-request/${t.token}/move`, json: { to_id: h.sub, items: items(t) } }),
  },
  {
    key: 'POST /api/upload-request/[token]/move',
    label: 'into',
    plane: 'request',
    write: true,
    kind: 'folder',
    ok: 200,
    call: async (t, h) => ({ method: 'POST', path: `/api/upload-request/${t.token}/move`, json: { to_id: t.id, items: items(await h.mine()) } }),
  },
  {
    key: 'POST /api/upload-request/[token]/remove',
    plane: 'request',
    write: true,
    kind: 'file',
    ok: 204,
    allowed: { 'the owner’s item in the folder': 403, 'the request folder': 403 },
    call: (t) => ({ method: 'POST', path: `/api/upload-request/${t.token}/remove`, json: { items: items(t) } }),
  },
  {
    key: 'POST /api/upload-request/[token]/remove',
    label: 'with one of mine',
    plane: 'request',
    write: true,
    kind: 'file',
    ok: 204,
    allowed: { 'the owner’s item in the folder': 403, 'the request folder': 403 },
    call: async (t, h) => ({ method: 'POST', path: `/api/upload-request/${t.token}/remove`, json: { items: [...items(await h.mine()), ...items(t)] } }),
  },
  { key: 'data:upload-request upload', plane: 'request', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: `/api/upload-request/${t.token}/upload`, upload: { parent_id: t.id } }) },
  // An upload request is for uploading only: its token opens no file, thumbnail, zip or share listing.
  { key: 'data:file download', label: 'request token', plane: 'request', write: false, kind: 'file', never: true, ok: 200, call: (t) => ({ method: 'GET', path: `/file/${t.id}/${t.token}` }) },
  { key: 'data:thumbnails', label: 'request token', plane: 'request', write: false, kind: 'file', thumbnail: true, never: true, ok: 200, call: (t) => ({ method: 'GET', path: `/thumbnail/${t.id}/sm/${t.token}` }) },
  { key: 'data:zip download', label: 'request token', plane: 'request', write: false, kind: 'folder', never: true, ok: 200, call: (t) => ({ method: 'GET', path: `/api/zip/${t.token}?items=${t.id}|folder` }) },
  { key: 'GET /api/browse/folders/[id]/[token]', label: 'request token', plane: 'request', write: false, kind: 'folder', never: true, ok: 200, call: (t) => ({ method: 'GET', path: `/api/browse/folders/${t.id}/${t.token}` }) },
  { key: 'data:upload-tus', label: 'request', plane: 'request', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/upload/tus', tus: { filename: 'tus.bin', parent_id: t.id } }) },

  // ---- owner plane: team folders (`teamFolder`: the folders tried are team folders) and invitations
  { key: 'GET /api/teams/folders', plane: 'owner', write: false, kind: 'none', listing: 'team', othersSeeOwn: true, ok: 200, call: () => ({ method: 'GET', path: '/api/teams/folders?limit=100' }) },
  // Nobody is a member of the owner's fresh team folder, and the owner is none of its own.
  { key: 'GET /api/teams/shared-with-me', plane: 'owner', write: false, kind: 'none', listing: 'team', shownTo: [], othersSeeOwn: true, ok: 200, call: () => ({ method: 'GET', path: '/api/teams/shared-with-me?limit=100' }) },
  { key: 'POST /api/teams/folders', plane: 'owner', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/teams/folders', json: { name: NAME(), parent_id: t.id } }) },
  { key: 'POST /api/teams/folders/[id]/convert', plane: 'owner', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: `/api/teams/folders/${t.id}/convert`, json: {} }) },
  { key: 'GET /api/teams/folders/[id]', plane: 'owner', teamFolder: true, write: false, kind: 'folder', ok: 200, call: (t) => ({ method: 'GET', path: `/api/teams/folders/${t.id}/` }) },
  { key: 'GET /api/teams/folders/[id]/tree', plane: 'owner', teamFolder: true, write: false, kind: 'folder', ok: 200, call: (t) => ({ method: 'GET', path: `/api/teams/folders/${t.id}/tree` }) },
  { key: 'DELETE /api/teams/folders/[id]', plane: 'owner', teamFolder: true, write: true, kind: 'folder', ok: 204, call: (t) => ({ method: 'DELETE', path: `/api/teams/folders/${t.id}` }) },
  {
    key: 'POST /api/teams/folders/[id]/invitations',
    plane: 'owner',
    teamFolder: true,
    write: true,
    kind: 'folder',
    ok: 201,
    call: (t) => ({ method: 'POST', path: `/api/teams/folders/${t.id}/invitations`, json: { email: EMAIL(), permission: 'can_view' } }),
  },
  {
    key: 'DELETE /api/teams/folders/[id]/invitations/[invitationId]',
    plane: 'owner',
    teamFolder: true,
    write: true,
    kind: 'folder',
    ok: 204,
    call: async (t, h) => ({ method: 'DELETE', path: `/api/teams/folders/${t.id}/invitations/${await h.invitation(t)}` }),
  },
  {
    key: 'PATCH /api/teams/folders/[id]/members/[userId]',
    plane: 'owner',
    teamFolder: true,
    write: true,
    kind: 'folder',
    ok: 200,
    call: async (t, h) => ({ method: 'PATCH', path: `/api/teams/folders/${t.id}/members/${await h.member(t)}`, json: { permission: 'can_edit' } }),
  },
  {
    key: 'DELETE /api/teams/folders/[id]/members/[userId]',
    plane: 'owner',
    teamFolder: true,
    write: true,
    kind: 'folder',
    ok: 204,
    call: async (t, h) => ({ method: 'DELETE', path: `/api/teams/folders/${t.id}/members/${await h.member(t)}` }),
  },
  // The member routes: the owner is no member of its own team folder.
  { key: 'GET /api/teams/shared-with-me/[id]', plane: 'owner', teamFolder: true, write: false, kind: 'folder', ok: 200, allowed: { 'own item': 404 }, call: (t) => ({ method: 'GET', path: `/api/teams/shared-with-me/${t.id}/` }) },
  { key: 'DELETE /api/teams/shared-with-me/[id]', plane: 'owner', teamFolder: true, write: true, kind: 'folder', ok: 204, allowed: { 'own item': 404 }, call: (t) => ({ method: 'DELETE', path: `/api/teams/shared-with-me/${t.id}` }) },
  { key: 'GET /api/teams/invitations/[id]', plane: 'owner', write: false, kind: 'invitation', ok: 200, rule: invitationRule('read'), call: (t) => ({ method: 'GET', path: `/api/teams/invitations/${t.id}` }) },
  { key: 'PUT /api/teams/invitations/[id]', plane: 'owner', write: true, kind: 'invitation', ok: 200, rule: invitationRule('answer'), call: (t) => ({ method: 'PUT', path: `/api/teams/invitations/${t.id}` }) },
  { key: 'DELETE /api/teams/invitations/[id]', plane: 'owner', write: true, kind: 'invitation', ok: 204, rule: invitationRule('answer'), call: (t) => ({ method: 'DELETE', path: `/api/teams/invitations/${t.id}` }) },

  // ---- team plane: the ordinary file calls on a team folder's items (the listings must not show it to others)
  teamRow({ key: 'GET /api/browse/folders/[...id]', label: 'team, home', write: false, kind: 'none', listing: 'team root', ok: 200, call: () => ({ method: 'GET', path: '/api/browse/folders/all?limit=1000' }) }),
  // The tree is lazy: the owner opens the folder inside the team folder and sees it on its path; anyone else is refused the folder.
  teamRow({
    key: 'GET /api/browse/navigation',
    label: 'team',
    write: false,
    kind: 'none',
    listing: 'in team',
    ok: 200,
    rule: (principal, object) => (object === 'listing' && principal !== 'the team’s owner' ? 404 : undefined),
    call: (t) => ({ method: 'GET', path: `/api/browse/navigation?open=${t.id}` }),
  }),
  teamRow({ key: 'GET /api/browse/folders/[...id]', label: 'team', write: false, kind: 'folder', ok: 200, call: (t) => ({ method: 'GET', path: `/api/browse/folders/${t.id}` }) }),
  teamRow({ key: 'GET /api/teams/folders/[id]/tree', label: 'team', write: false, kind: 'folder', ok: 200, teamOwner: { 'the owner’s item outside it': 404 }, call: (t) => ({ method: 'GET', path: `/api/teams/folders/${t.id}/tree` }) }),
  teamRow({ key: 'POST /api/create-folder', label: 'team', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/create-folder', json: { name: NAME(), parent_id: t.id } }) }),
  teamRow({ key: 'PATCH /api/rename/[id]', label: 'team', write: true, kind: 'file', changesObject: true, ok: 200, call: (t) => ({ method: 'POST', path: `/api/rename/${t.id}`, json: patch(`${t.name}.renamed`) }) }),
  teamRow({ key: 'POST /api/move', label: 'team, inside', write: true, kind: 'file', changesObject: true, ok: 200, call: (t, h) => ({ method: 'POST', path: '/api/move', json: { to_id: h.sub, items: items(t) } }) }),
  // Nothing leaves a team folder by a member's hand (403 team_move_out), not even to its home.
  teamRow({
    key: 'POST /api/move',
    label: 'team, out to my folder',
    write: true,
    kind: 'file',
    changesObject: true,
    ok: 200,
    editor: { 'inside the team folder': 403 },
    moveOut: ['inside the team folder', 'the team folder'],
    call: async (t, h) => ({ method: 'POST', path: '/api/move', json: { to_id: await h.ownFolder(), items: items(t) } }),
  }),
  teamRow({
    key: 'POST /api/move',
    label: 'team, out to home',
    write: true,
    kind: 'file',
    changesObject: true,
    ok: 200,
    editor: { 'inside the team folder': 403 },
    moveOut: ['inside the team folder', 'the team folder'],
    call: (t) => ({ method: 'POST', path: '/api/move', json: { to_id: null, items: items(t) } }),
  }),
  // Moving an item of the team folder (`mine`) into the object: a target outside it is a move out.
  teamRow({
    key: 'POST /api/move',
    label: 'team, into',
    write: true,
    kind: 'folder',
    ok: 200,
    member: { 'the owner’s item outside it': 403, 'another user’s item': 403, 'nonexistent id': 403 },
    moveOut: ['the owner’s item outside it', 'another user’s item', 'nonexistent id'],
    call: async (t, h) => ({ method: 'POST', path: '/api/move', json: { to_id: t.id, items: items(await h.mine()) } }),
  }),
  teamRow({ key: 'POST /api/remove', label: 'team', write: true, kind: 'file', changesObject: true, ok: 204, call: (t) => ({ method: 'POST', path: '/api/remove', json: { items: items(t) } }) }),
  // All or nothing: with the object refused, the team folder's item (`mine`) stays too.
  teamRow({
    key: 'POST /api/remove',
    label: 'team, with one of mine',
    write: true,
    kind: 'file',
    changesObject: true,
    ok: 204,
    call: async (t, h) => ({ method: 'POST', path: '/api/remove', json: { items: [...items(await h.mine()), ...items(t)] } }),
  }),
  teamRow({ key: 'POST /api/remove', label: 'team, for good', write: true, kind: 'file', changesObject: true, ok: 204, call: (t) => ({ method: 'POST', path: '/api/remove', json: { items: items(t, { force_delete: true }) } }) }),
  // A member's plain upload names the team folder in the query string (the form field repeats it).
  teamRow({ key: 'data:upload', label: 'team', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: `/api/upload?parent_id=${t.id}`, upload: { parent_id: t.id } }) }),
  teamRow({ key: 'data:upload-tus', label: 'team', write: true, kind: 'folder', ok: 201, call: (t) => ({ method: 'POST', path: '/api/upload/tus', tus: { filename: 'tus.bin', parent_id: t.id } }) }),
  teamRow({ key: 'data:file download', label: 'team', write: false, kind: 'file', ok: 200, everyone: { 'the team folder': 404 }, call: (t) => ({ method: 'GET', path: `/file/${t.id}` }) }),
  teamRow({ key: 'data:thumbnails', label: 'team', write: false, kind: 'file', thumbnail: true, ok: 200, everyone: { 'the team folder': 404 }, call: (t) => ({ method: 'GET', path: `/thumbnail/${t.id}/sm` }) }),
  teamRow({ key: 'data:zip download', label: 'team', write: false, kind: 'folder', ok: 200, call: (t) => ({ method: 'GET', path: `/api/zip?items=${t.id}|folder` }) }),
  teamRow({
    key: 'data:zip download',
    label: 'team, with one of mine',
    write: false,
    kind: 'folder',
    ok: 200,
    call: async (t, h) => ({ method: 'GET', path: `/api/zip?items=${(await h.mine()).id}|file,${t.id}|folder` }),
  }),
  // Only the owner shares; to a member the item is not theirs to share (404).
  teamRow({ key: 'POST /api/share/[id]', label: 'team', write: true, kind: 'folder', ok: 201, member: NOT_FOR_MEMBERS, call: (t) => ({ method: 'POST', path: `/api/share/${t.id}`, json: { type: 'folder', permission: 'visitor' } }) }),

  // ---- team plane: the team routes. The owner's are 404 to members; the members' to everyone else.
  teamRow({ key: 'GET /api/teams/folders', label: 'team', write: false, kind: 'none', listing: 'team root', ok: 200, call: () => ({ method: 'GET', path: '/api/teams/folders?limit=100' }) }),
  teamRow({ key: 'GET /api/teams/shared-with-me', label: 'team', write: false, kind: 'none', listing: 'team root', shownTo: TEAM_MEMBERS, ok: 200, call: () => ({ method: 'GET', path: '/api/teams/shared-with-me?limit=100' }) }),
  // No team folder inside another (422), and a member's parent_id is not theirs.
  teamRow({
    key: 'POST /api/teams/folders',
    label: 'team',
    write: true,
    kind: 'folder',
    ok: 201,
    member: NOT_FOR_MEMBERS,
    teamOwner: { 'inside the team folder': 422, 'the team folder': 422 },
    call: (t) => ({ method: 'POST', path: '/api/teams/folders', json: { name: NAME(), parent_id: t.id } }),
  }),
  teamRow({
    key: 'POST /api/teams/folders/[id]/convert',
    label: 'team',
    write: true,
    kind: 'folder',
    ok: 201,
    member: NOT_FOR_MEMBERS,
    teamOwner: { 'inside the team folder': 422, 'the team folder': 409 },
    call: (t) => ({ method: 'POST', path: `/api/teams/folders/${t.id}/convert`, json: {} }),
  }),
  teamRow({ key: 'GET /api/teams/folders/[id]', label: 'team', write: false, kind: 'folder', ok: 200, member: NOT_FOR_MEMBERS, teamOwner: { 'the owner’s item outside it': 404 }, call: (t) => ({ method: 'GET', path: `/api/teams/folders/${t.id}/` }) }),
  teamRow({
    key: 'DELETE /api/teams/folders/[id]',
    label: 'team',
    write: true,
    kind: 'folder',
    ok: 204,
    member: NOT_FOR_MEMBERS,
    // The owner's own dissolving is the owner plane's cell: the table's team stays.
    teamOwner: { ...TEAM_FOLDER_ONLY, 'the team folder': 'n/a' },
    call: (t) => ({ method: 'DELETE', path: `/api/teams/folders/${t.id}` }),
  }),
  teamRow({
    key: 'POST /api/teams/folders/[id]/invitations',
    label: 'team',
    write: true,
    kind: 'folder',
    ok: 201,
    member: NOT_FOR_MEMBERS,
    teamOwner: TEAM_FOLDER_ONLY,
    call: (t) => ({ method: 'POST', path: `/api/teams/folders/${t.id}/invitations`, json: { email: EMAIL(), permission: 'can_edit' } }),
  }),
  teamRow({
    key: 'DELETE /api/teams/folders/[id]/invitations/[invitationId]',
    label: 'team',
    write: true,
    kind: 'folder',
    ok: 204,
    member: NOT_FOR_MEMBERS,
    teamOwner: TEAM_FOLDER_ONLY,
    call: async (t, h) => ({ method: 'DELETE', path: `/api/teams/folders/${t.id}/invitations/${await h.invitation(t)}` }),
  }),
  // A member trying its own membership: a can_view member may not make itself can_edit.
  teamRow({
    key: 'PATCH /api/teams/folders/[id]/members/[userId]',
    label: 'team',
    write: true,
    kind: 'folder',
    ok: 200,
    member: NOT_FOR_MEMBERS,
    teamOwner: TEAM_FOLDER_ONLY,
    call: async (t, h) => ({ method: 'PATCH', path: `/api/teams/folders/${t.id}/members/${await h.member(t)}`, json: { permission: 'can_edit' } }),
  }),
  teamRow({
    key: 'DELETE /api/teams/folders/[id]/members/[userId]',
    label: 'team',
    write: true,
    kind: 'folder',
    ok: 204,
    member: NOT_FOR_MEMBERS,
    teamOwner: TEAM_FOLDER_ONLY,
    call: async (t, h) => ({ method: 'DELETE', path: `/api/teams/folders/${t.id}/members/${await h.member(t)}` }),
  }),
  teamRow({
    key: 'GET /api/teams/shared-with-me/[id]',
    label: 'team',
    write: false,
    kind: 'folder',
    ok: 200,
    teamOwner: { 'inside the team folder': 404, 'the team folder': 404, 'the owner’s item outside it': 404 },
    call: (t) => ({ method: 'GET', path: `/api/teams/shared-with-me/${t.id}/` }),
  }),
  // Leaving takes the team folder's id; a can_view member may leave too.
  teamRow({
    key: 'DELETE /api/teams/shared-with-me/[id]',
    label: 'team',
    write: true,
    kind: 'folder',
    ok: 204,
    restoresTeams: true,
    member: { 'inside the team folder': 404, 'the team folder': 'ok' },
    teamOwner: { 'inside the team folder': 404, 'the team folder': 404, 'the owner’s item outside it': 404 },
    call: (t) => ({ method: 'DELETE', path: `/api/teams/shared-with-me/${t.id}` }),
  }),
];

/**
 * What a principal gets for a call on an object, by the rules of its plane (a row's `allowed`,
 * `visitor` and `closed` say where a route differs).
 */
export function expected(row: Row, principal: Principal, object: ObjectName): Outcome {
  if (row.never) return 404;
  const ruled = row.rule?.(principal, object);
  if (ruled !== undefined) return ruled;
  if (row.plane === 'team') return expectedInTeam(row, principal, object);
  if (row.plane === 'owner') {
    if (UNAUTHENTICATED.includes(principal)) return 401;
    const owner = principal === 'owner (cookie)' || principal === 'owner (bearer)';
    if (object === 'listing') return owner || row.othersSeeOwn ? 'ok' : 404;
    if (owner) return row.allowed?.[object] ?? (object === 'own item' ? 'ok' : 404);
    return 404;
  }
  if (row.plane === 'share') {
    if (DEAD_TOKENS.includes(principal)) return 404;
    if (principal === 'protected link, locked') return row.locked?.[object] ?? 401;
    if (object === 'listing') return 'ok';
    const allowed = row.allowed?.[object];
    if (allowed === 'n/a') return 'n/a';
    if (FOREIGN_LINKS.includes(principal)) return 404;
    const inReach = object === 'inside the share' || object === 'the share root';
    // A session does not lift a visitor link: the link alone decides.
    if (principal === 'share visitor' || principal === 'share visitor, signed in as the owner') {
      const own = row.visitor?.[object];
      if (own !== undefined) return own;
      if (row.write) return 403;
      return inReach ? 'ok' : 404;
    }
    return allowed ?? (inReach ? 'ok' : 404);
  }
  if (DEAD_TOKENS.includes(principal) || (FOREIGN_LINKS.includes(principal) && object !== 'listing')) return 404;
  if (principal === 'filled request' || principal === 'expired request') {
    const own = principal === 'filled request' ? row.filled?.[object] : undefined;
    return own ?? row.closed?.[object] ?? (row.write ? 423 : 'ok');
  }
  if (object === 'listing') return 'ok';
  const inReach = object === 'uploaded by the holder' || object === 'the owner’s item in the folder' || object === 'the request folder';
  return row.allowed?.[object] ?? (inReach ? 'ok' : 404);
}

/**
 * The team plane: the owner may do anything with its items (the team folder itself is left alone
 * where the call would change it); a member reads the team folder's items and a can_edit member also
 * writes them, but not the team folder itself; everything else is 404 to them, as is everything to
 * a former member, a member of another team, the merely invited.
 */
function expectedInTeam(row: Row, principal: Principal, object: ObjectName): Outcome {
  if (object === 'listing') return 'ok';
  const own = row.everyone?.[object];
  if (own !== undefined) return own;
  const root = object === 'the team folder';
  const inTeam = root || object === 'inside the team folder';
  if (principal === 'the team’s owner') {
    const owner = row.teamOwner?.[object];
    if (owner !== undefined) return owner;
    if (root && row.changesObject) return 'n/a';
    return inTeam || object === 'the owner’s item outside it' ? 'ok' : 404;
  }
  if (!TEAM_MEMBERS.includes(principal)) return 404;
  const editor = TEAM_EDITORS.includes(principal);
  const member = (editor ? row.editor : row.viewer)?.[object] ?? row.member?.[object];
  if (member !== undefined) return member;
  if (!inTeam) return 404;
  if (row.write && !editor) return 403;
  return root && row.changesObject ? 403 : 'ok';
}

/**
 * Team plane: the `code` a member's 403 carries, when it says why: a move out of the team folder
 * (checked first), else a can_view member's write. A can_edit member's 403 on the team folder itself has none.
 */
export function refusalCode(row: Row, principal: Principal, object: ObjectName): string | undefined {
  if (row.plane !== 'team' || !TEAM_MEMBERS.includes(principal)) return undefined;
  if (row.moveOut?.includes(object)) return 'team_move_out';
  return TEAM_EDITORS.includes(principal) ? undefined : 'team_read_only';
}

/** The objects a principal is tried on: all of its plane's for those who get past the door, one for the rest. */
export function objectsFor(row: Row, principal: Principal): ObjectName[] {
  if (row.kind === 'none') return ['listing'];
  const all = [...OBJECTS[row.plane]] as ObjectName[];
  if (UNAUTHENTICATED.includes(principal) || DEAD_TOKENS.includes(principal) || principal === 'protected link, locked') return [all[0]!];
  return all;
}

// ---- the routes on disk, so a new one without a row fails the table

const ROOT = path.resolve(import.meta.dirname, '../..');
const API_DIR = path.join(ROOT, 'src/pages/api');

/**
 * Routes that touch no item: the account, the admin area (tests/integration/admin-access.test.ts),
 * setup, social sign-in (tests/integration/social-sign-in.test.ts), OpenID Connect sign-in
 * (tests/integration/oidc-sign-in.test.ts) and billing (tests/integration/billing-*.test.ts).
 */
export const NOT_ITEM_ROUTES = [/^\w+ \/api\/admin\//, /^\w+ \/api\/setup\//, /^\w+ \/api\/user(\/|$)/, /^GET \/api\/socialite\//, /^GET \/api\/oidc\/\[issuer\]\/(redirect|callback)$/,
  // Billing touches no item: the user's own subscription and payments (tests/integration/billing-pay*.test.ts), providers' signed webhooks.
  /^\w+ \/api\/billing\//,
  /^\w+ \/api\/webhooks\//,
];
/**
 * Data routes that serve no user's items. The live event stream names no item either: it sends a
 * user only their own events, and its refusals (signed out, a wrong token, another user's events,
 * the cap) are tested in tests/integration/live-events.test.ts.
 */
export const NOT_ITEM_DATA_ROUTES = ['branding', 'favicon', 'avatars', 'live events',
  // Probes and metrics: no user, no item (tests/integration/health-metrics.test.ts).
  'healthz', 'readyz', 'metrics',
  // WebDAV names items by path in the caller's own namespace, with HTTP Basic (no cookie, no bearer,
  // no ids): another user, a signed-out client and a revoked app password are tried in
  // tests/integration/webdav.test.ts; team members (can_edit, can_view, a stranger) in
  // webdav-teams.test.ts.
  'webdav'];

/** `METHOD /api/path/[param]` for every method every file under src/pages/api serves. */
export function apiRoutesOnDisk(dir = API_DIR, prefix = '/api'): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const segment = entry.name.replace(/\.ts$/, '');
    if (entry.isDirectory()) out.push(...apiRoutesOnDisk(full, `${prefix}/${segment}`));
    else if (entry.name.endsWith('.ts')) {
      const source = readFileSync(full, 'utf8');
      const methods = new Set([...source.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s*:/g)].map((m) => m[1]!));
      for (const method of methods) out.push(`${method} ${segment === 'index' ? prefix : `${prefix}/${segment}`}`);
    }
  }
  return out.sort();
}

/** The names in src/server/host/data-routes.ts's table. */
export function dataRoutesOnDisk(): string[] {
  const source = readFileSync(path.join(ROOT, 'src/server/host/data-routes.ts'), 'utf8');
  return [...source.matchAll(/\{\s*name:\s*'([^']+)'/g)].map((m) => m[1]!);
}
