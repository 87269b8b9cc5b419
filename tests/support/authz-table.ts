import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The authorization table: who (principal) may call which route on what (object), and what they get.
 * Three planes, each with its own principals and objects:
 * - owner: the signed-in user's own API (session cookie or bearer token);
 * - share: calls that carry a share-link token;
 * - request: calls that carry an upload-request token.
 * Pure data and rules; tests/integration/authorization-table.test.ts builds the world and runs the cells.
 */

export type Plane = 'owner' | 'share' | 'request';

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
} as const;

export type Principal = (typeof PRINCIPALS)[Plane][number];

export const OBJECTS = {
  owner: ['own item', 'trashed item', 'another user’s item', 'nonexistent id'],
  share: ['inside the share', 'the share root', 'outside the share', 'trashed inside the share', 'another user’s item', 'nonexistent id'],
  request: ['uploaded by the holder', 'the owner’s item in the folder', 'the request folder', 'outside the folder', 'another user’s item', 'nonexistent id'],
} as const;

export type ObjectName = (typeof OBJECTS)[Plane][number] | 'listing';

/** Principals that no owner-plane route may take for a user. */
export const UNAUTHENTICATED: readonly Principal[] = ['signed out', 'wrong bearer token', 'revoked bearer token', 'share token as bearer', 'request token as bearer'];
/** Links and requests that name nothing any more (or never did). */
export const DEAD_TOKENS: readonly Principal[] = ['expired link', 'revoked link', 'made-up link', 'made-up request'];
/** Live links whose reach does not include the table's share (its objects are out of reach). */
export const FOREIGN_LINKS: readonly Principal[] = ['link to a different item', 'another user’s link', 'holder of another request'];

/** `ok`: the row's success status. `empty`: 200 with nothing listed. A number: that refusal. `n/a`: the cell does not exist. */
export type Outcome = 'ok' | 'empty' | 401 | 403 | 404 | 422 | 423 | 'n/a';

export interface Target {
  id: string;
  type: 'file' | 'folder';
  name: string;
  /** The principal's token on the share/request planes. */
  token: string;
}

export interface Call {
  method: 'GET' | 'POST' | 'DELETE';
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
}

export interface Row {
  /** `METHOD /api/path/[param]` as on disk (src/pages/api), or `data:<name>` of a data route. */
  key: string;
  /** Tells two rows of one route apart. */
  label?: string;
  plane: Plane;
  write: boolean;
  /** What the object is: a file, a folder, or none (a listing or the token itself). */
  kind: 'file' | 'folder' | 'none';
  /** The file needs a thumbnail made. */
  thumbnail?: boolean;
  /** Listing rows: what to put in it (the owner's fresh item) that others must not see. */
  listing?: 'own' | 'trashed' | 'shared';
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
}

const patch = (name: string) => ({ _method: 'patch', name });
const items = (t: Target, extra: Record<string, unknown> = {}) => [{ id: t.id, type: t.type, ...extra }];
const NAME = () => `Made ${Math.random().toString(36).slice(2, 8)}`;

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
];

/**
 * What a principal gets for a call on an object, by the rules of its plane (a row's `allowed`,
 * `visitor` and `closed` say where a route differs).
 */
export function expected(row: Row, principal: Principal, object: ObjectName): Outcome {
  if (row.never) return 404;
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

/** Routes that touch no item: the account, the admin area (tests/integration/admin-access.test.ts) and setup. */
export const NOT_ITEM_ROUTES = [/^\w+ \/api\/admin\//, /^\w+ \/api\/setup\//, /^\w+ \/api\/user(\/|$)/];
/** Data routes that serve no user's items. */
export const NOT_ITEM_DATA_ROUTES = ['branding', 'favicon', 'avatars'];

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
