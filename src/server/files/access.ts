import type { ItemType } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, notFound, validationError } from '../http/errors.ts';
import { restrictionsFor } from '../users/restrictions.ts';
import { findItem, selfAndAncestorIds, type ItemRow } from './queries.ts';

/**
 * A token holder acting inside one subtree of the owner's files (a share link or an upload
 * request): the service functions run as the owner (their storage, quota and restrictions), but
 * every id must be the scope's root or lie below it; anything else is a 404, even the owner's own.
 */
export interface AccessScope {
  rootId: string;
  /** When set, an item may be renamed, moved or removed only if this says so (an upload request: what its holder made). */
  mayChange?: (ancestry: string[]) => Promise<boolean>;
}

/** Who acts: a signed-in user, or the owner as seen through a token's scope. */
export type Actor = User & { scope?: AccessScope };

export function scopeOf(user: User): AccessScope | undefined {
  return (user as Actor).scope;
}

/**
 * The one place item permissions are decided. An item that does not exist and an item that belongs
 * to someone else get the same 404, so ids never leak whether they exist. Sharing and team folders
 * extend this function, not the endpoints.
 */
export interface ItemRequirement {
  /** false (default): must be outside the trash; true: must be in the trash; 'any': either. */
  trashed?: boolean | 'any';
  /** The type the caller says the item has; a mismatch is a 422 on `field`. */
  type?: ItemType;
  /** Only folders will do (a parent, a move target, a favourite). */
  folder?: boolean;
  /** The input field named in 422 answers. */
  field?: string;
  /** The item itself is renamed, moved or removed: a scope's root may not be. */
  change?: boolean;
}

export async function requireOwnedItem(ctx: AppContext, user: User, id: string, req: ItemRequirement = {}): Promise<ItemRow> {
  const field = req.field ?? 'id';
  const item = await findItem(ctx.db, id);
  if (!item || item.owner_id !== user.id) throw notFound('The item was not found.');
  const trashed = req.trashed ?? false;
  if (trashed === false && item.deleted_at !== null) throw notFound('The item was not found.');
  if (trashed === true && item.deleted_at === null) throw notFound('The item is not in the trash.');
  if (req.type && item.type !== req.type) throw validationError({ [field]: [`The item is a ${item.type}, not a ${req.type}.`] });
  if (req.folder && item.type !== 'folder') throw validationError({ [field]: ['The item must be a folder.'] });
  const scope = scopeOf(user);
  if (scope) {
    const ancestry = item.deleted_at === null ? await selfAndAncestorIds(ctx.db, item.id) : [];
    if (!ancestry.includes(scope.rootId)) throw notFound('The item was not found.');
    if (req.change && item.id === scope.rootId) throw forbidden('The shared folder itself cannot be changed.');
    if (req.change && scope.mayChange && !(await scope.mayChange(ancestry))) throw forbidden('You can only change what you uploaded.');
  }
  return item;
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
