import type { Expression } from 'kysely';
import type { ItemType, TeamPermission } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, notFound, validationError } from '../http/errors.ts';
import { restrictionsFor } from '../users/restrictions.ts';
import { visibleItems } from './access-queries.ts';
import type { Db, ItemRow } from './queries.ts';

/**
 * A token holder acting inside one subtree of the owner's files (a share link or an upload
 * request): the service functions run as the owner (their storage, quota and restrictions), but
 * every id must be the scope's root or lie below it; anything else is a 404, even the owner's own.
 */
export interface AccessScope {
  rootId: string;
  /**
   * When set, an item may be renamed, moved or removed only if it or a folder above it (below the
   * root) is among the item ids this one-column SELECT answers (an upload request: what its holder
   * made). Part of the access check's one statement.
   */
  changeableIds?: Expression<unknown>;
  /**
   * A team member acting in a team folder (`rootId`): `can_view` only reads, `can_edit` also
   * changes what lies below the root. The membership is checked again in the access statement
   * itself, so a member removed (or a team dissolved) meanwhile sees nothing.
   */
  member?: TeamMember;
}

/** Who acts as a team member: the signed-in user, in which team, with which permission. */
export interface TeamMember {
  userId: string;
  teamId: string;
  permission: TeamPermission;
}

/** Who acts: a signed-in user, or the owner as seen through a token's scope or a team member's (teams/actor.ts). */
export type Actor = User & { scope?: AccessScope };

/** Whose files are asked about, and through which scope, if any: all the access check needs. */
export type Principal = Pick<User, 'id'> & { scope?: AccessScope | undefined };

export function scopeOf(user: Principal): AccessScope | undefined {
  return user.scope;
}

/**
 * For what reads or changes the owner's whole drive (search, latest files, the trash): a token
 * holder is refused, so such a function cannot hand a scoped actor everything by forgetting the scope.
 */
export function requireUnscoped(user: Principal): void {
  if (scopeOf(user)) throw forbidden('This link does not give access to this.');
}

export type Action = 'read' | 'write' | 'share' | 'delete';

/** An item the principal may see, with what it may do with it. */
export interface Grant {
  item: ItemRow;
  may: Record<Action, boolean>;
}

/**
 * The one place item permissions are decided: the ids among `ids` the principal may see, each with
 * what it may do, in one statement whatever the count. Refused by default: an id missing from the
 * answer (it does not exist, belongs to someone else, or lies outside the scope) may not be acted
 * on at all. A scope sees live items at or below its root; its holder may change them but not the
 * root itself (and, with `changeableIds`, only what it made; a `can_view` member nothing, and a
 * member only while the membership lasts); only the owner shares.
 */
export async function accessTo(db: Db, principal: Principal, ids: string[]): Promise<Map<string, Grant>> {
  const scope = scopeOf(principal);
  const rows = await visibleItems(db, principal.id, [...new Set(ids)], scope && { rootId: scope.rootId, changeableIds: scope.changeableIds, member: scope.member });
  const grants = new Map<string, Grant>();
  const readOnly = scope?.member?.permission === 'can_view';
  for (const { changeable, ...item } of rows) {
    const change = !scope || (item.id !== scope.rootId && Number(changeable) === 1 && !readOnly);
    grants.set(item.id, { item, may: { read: true, write: change, delete: change, share: !scope } });
  }
  return grants;
}

/**
 * `accessTo` for rows the caller read in this request: an unscoped principal may do everything with
 * its own items, so its own rows need no second read (a listing's 200 rows would be read again just
 * to learn that); anyone else's rows get no grant. A scoped principal is asked about as `accessTo`.
 */
export async function accessToRows(db: Db, principal: Principal, rows: ItemRow[]): Promise<Map<string, Grant>> {
  if (scopeOf(principal)) return accessTo(db, principal, rows.map((r) => r.id));
  const grants = new Map<string, Grant>();
  for (const item of rows) if (item.owner_id === principal.id) grants.set(item.id, { item, may: { read: true, write: true, delete: true, share: true } });
  return grants;
}

/** Which of these ids the principal may `action`: ask before acting; what is not answered is refused. */
export async function permittedIds(db: Db, principal: Principal, ids: string[], action: Action): Promise<Set<string>> {
  return new Set([...(await accessTo(db, principal, ids)).values()].filter((g) => g.may[action]).map((g) => g.item.id));
}

/**
 * A live folder of the principal's (at or below its scope's root) to put items into, or undefined:
 * what creating a folder or recording an upload checks again inside its transaction (`db`).
 */
export async function liveFolder(db: Db, principal: Principal, id: string): Promise<ItemRow | undefined> {
  const folder = (await accessTo(db, principal, [id])).get(id)?.item;
  return folder && folder.deleted_at === null && folder.type === 'folder' ? folder : undefined;
}

/**
 * What an item must be for a call. An item that does not exist, an item that belongs to someone
 * else and an item outside a token's scope get the same 404, so ids never leak whether they exist.
 */
export interface ItemRequirement {
  /** false (default): must be outside the trash; true: must be in the trash; 'any': either. */
  trashed?: boolean | 'any';
  /** The type the caller says the item has; a mismatch is a 422 on `field`. */
  type?: ItemType | undefined;
  /** Only folders will do (a parent, a move target, a favourite). */
  folder?: boolean;
  /** The input field named in 422 answers. */
  field?: string;
  /** The item itself is renamed, moved or removed: a scope's root may not be. */
  change?: boolean;
}

export async function requireOwnedItem(ctx: AppContext, user: Principal, id: string, req: ItemRequirement = {}): Promise<ItemRow> {
  return (await requireOwnedItems(ctx, user, [{ id, type: req.type, field: req.field }], req))[0]!;
}

/** One id of a selection: its claimed type and the field a 422 about it names. */
export interface ItemCheck {
  id: string;
  type?: ItemType | undefined;
  field?: string | undefined;
}

/**
 * `requireOwnedItem` for a whole selection, with the same answers: the first refused id (in the
 * given order) decides the error, and nothing is returned unless every id passes. One statement
 * whatever the count (`accessTo`). Duplicate ids are checked once; the rows come back in order of
 * first appearance.
 */
export async function requireOwnedItems(ctx: AppContext, user: Principal, checks: ItemCheck[], req: Omit<ItemRequirement, 'type' | 'field'> = {}): Promise<ItemRow[]> {
  const seen = new Set<string>();
  const unique = checks.filter((c) => !seen.has(c.id) && seen.add(c.id));
  const grants = await accessTo(ctx.db, user, unique.map((c) => c.id));
  const scope = scopeOf(user);
  const trashed = req.trashed ?? false;
  return unique.map((check) => {
    const grant = grants.get(check.id);
    if (!grant) throw notFound('The item was not found.');
    const { item } = grant;
    if (trashed === false && item.deleted_at !== null) throw notFound('The item was not found.');
    if (trashed === true && item.deleted_at === null) throw notFound('The item is not in the trash.');
    const field = check.field ?? 'id';
    if (check.type && item.type !== check.type) throw validationError({ [field]: [`The item is a ${item.type}, not a ${check.type}.`] });
    if (req.folder && item.type !== 'folder') throw validationError({ [field]: ['The item must be a folder.'] });
    if (req.change && !grant.may.write) throw cannotChange(scope, item.id);
    return item;
  });
}

function cannotChange(scope: AccessScope | undefined, id: string): AppError {
  if (scope?.member?.permission === 'can_view') return new AppError(403, 'You can only view this team folder.', { code: 'team_read_only' });
  if (scope?.member) return forbidden('The team folder itself cannot be changed.');
  return forbidden(id === scope?.rootId ? 'The shared folder itself cannot be changed.' : 'You can only change what you uploaded.');
}

/**
 * What puts a new item into a folder (create a folder, upload) asks on top of `requireTargetFolder`:
 * a read-only team member may not.
 */
export function requireWritableScope(user: Principal): void {
  const scope = scopeOf(user);
  if (scope?.member?.permission === 'can_view') throw cannotChange(scope, scope.rootId);
}

/** A folder to put items in: null is the user's home; otherwise an owned folder outside the trash. */
export async function requireTargetFolder(ctx: AppContext, user: Principal, id: string | null, field: string): Promise<ItemRow | null> {
  const scope = scopeOf(user);
  if (id === null && scope) return requireOwnedItem(ctx, user, scope.rootId, { folder: true, field });
  if (id === null) return null;
  return requireOwnedItem(ctx, user, id, { folder: true, field });
}

/** Bytes leave only for users whose account allows downloads (SPEC §8 download_temporarily_disabled). */
export function requireCanDownload(user: User): void {
  if (!restrictionsFor(user).canDownload) {
    throw new AppError(403, 'Downloading is temporarily disabled on your account.', { code: 'download_temporarily_disabled' });
  }
}

/** A file the user may download: theirs, outside the trash, and their account allows downloads. */
export async function requireDownloadableFile(ctx: AppContext, user: User, id: string): Promise<ItemRow> {
  const item = await requireOwnedItem(ctx, user, id);
  if (item.type !== 'file' || !item.blob_key) throw notFound('The item was not found.');
  requireCanDownload(user);
  return item;
}
