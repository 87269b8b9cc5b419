import type { ItemType } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, notFound, validationError } from '../http/errors.ts';
import { restrictionsFor } from '../users/restrictions.ts';
import type { ItemRow } from './queries.ts';
import { ancestriesUpTo, findItems } from './sets.ts';

/**
 * A token holder acting inside one subtree of the owner's files (a share link or an upload
 * request): the service functions run as the owner (their storage, quota and restrictions), but
 * every id must be the scope's root or lie below it; anything else is a 404, even the owner's own.
 */
export interface AccessScope {
  rootId: string;
  /**
   * When set, an item may be renamed, moved or removed only if it or a folder above it (below the
   * root) is among the ids this answers (an upload request: what its holder made). One call for a
   * whole selection.
   */
  changeable?: (ids: string[]) => Promise<Set<string>>;
}

/** Who acts: a signed-in user, or the owner as seen through a token's scope. */
export type Actor = User & { scope?: AccessScope };

export function scopeOf(user: User): AccessScope | undefined {
  return (user as Actor).scope;
}

/**
 * The one place item permissions are decided. An item that does not exist, an item that belongs
 * to someone else and an item outside a token's scope get the same 404, so ids never leak whether
 * they exist. Sharing and team folders extend this function, not the endpoints.
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

export async function requireOwnedItem(ctx: AppContext, user: User, id: string, req: ItemRequirement = {}): Promise<ItemRow> {
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
 * given order) decides the error, and nothing is returned unless every id passes. A fixed number
 * of queries whatever the count (one for the rows, one recursive walk for a scope's ancestries,
 * one for an upload request's own items), so a 1000-item selection does not hold the event loop.
 * Duplicate ids are checked once; the rows come back in order of first appearance.
 */
export async function requireOwnedItems(ctx: AppContext, user: User, checks: ItemCheck[], req: Omit<ItemRequirement, 'type' | 'field'> = {}): Promise<ItemRow[]> {
  const seen = new Set<string>();
  const unique = checks.filter((c) => !seen.has(c.id) && seen.add(c.id));
  const rows = new Map((await findItems(ctx.db, unique.map((c) => c.id))).map((r) => [r.id, r]));
  const owned = (id: string) => {
    const row = rows.get(id);
    return row && row.owner_id === user.id ? row : undefined;
  };
  const scope = scopeOf(user);
  // A scope sees only live items at or below its root: everything else is missing, checked before
  // anything that would tell a folder from a file.
  let ancestries = new Map<string, string[]>();
  let recorded = new Set<string>();
  if (scope) {
    const live = unique.map((c) => owned(c.id)).filter((r) => r && r.deleted_at === null).map((r) => r!.id);
    ancestries = await ancestriesUpTo(ctx.db, live, scope.rootId);
    if (req.change && scope.changeable) recorded = await scope.changeable([...new Set([...ancestries.values()].flat())]);
  }
  const trashed = req.trashed ?? false;
  return unique.map((check) => {
    const item = owned(check.id);
    if (!item) throw notFound('The item was not found.');
    const ancestry = ancestries.get(item.id) ?? [];
    if (scope && !ancestry.includes(scope.rootId)) throw notFound('The item was not found.');
    if (trashed === false && item.deleted_at !== null) throw notFound('The item was not found.');
    if (trashed === true && item.deleted_at === null) throw notFound('The item is not in the trash.');
    const field = check.field ?? 'id';
    if (check.type && item.type !== check.type) throw validationError({ [field]: [`The item is a ${item.type}, not a ${check.type}.`] });
    if (req.folder && item.type !== 'folder') throw validationError({ [field]: ['The item must be a folder.'] });
    if (scope && req.change && item.id === scope.rootId) throw forbidden('The shared folder itself cannot be changed.');
    if (scope && req.change && scope.changeable && !ancestry.some((id) => recorded.has(id))) throw forbidden('You can only change what you uploaded.');
    return item;
  });
}

/** A folder to put items in: null is the user's home; otherwise an owned folder outside the trash. */
export async function requireTargetFolder(ctx: AppContext, user: User, id: string | null, field: string): Promise<ItemRow | null> {
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
