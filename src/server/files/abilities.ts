import type { User } from '../auth/sessions.ts';
import { restrictionsFor, type Restrictions } from '../users/restrictions.ts';
import { accessTo, accessToRows, type Grant, type Principal } from './access.ts';
import type { Db, ItemRow } from './queries.ts';
import type { TreeNode } from './service.ts';

/**
 * What the principal may do with one item, sent with it as `meta.abilities` so the client offers
 * exactly these actions and re-derives nothing. `upload` and `create_folder` (putting something
 * into it) are true only for folders; `restore` only for trashed items.
 */
export interface Abilities {
  rename: boolean;
  move: boolean;
  share: boolean;
  delete: boolean;
  download: boolean;
  upload: boolean;
  create_folder: boolean;
  restore: boolean;
}

/**
 * Who acts, beyond the per-item grant: what every principal kind decides once for all its items.
 * A new kind (a team member with can_edit / can_view) is one more constructor below.
 */
export interface PrincipalContext {
  /** It may change anything at all: add into folders, and change what its grants let it change (a share visitor may not). */
  writes: boolean;
  /** Bytes are served to it (an upload request's holder only uploads). */
  reads: boolean;
  /** The flags of the account whose drive this is: the owner's, also when acting through a token. */
  restrictions: Pick<Restrictions, 'canUpload' | 'canDownload' | 'canCreateFolder'>;
}

/** The owner, signed in. */
export function ownerContext(user: Pick<User, 'restrictions'>): PrincipalContext {
  return { writes: true, reads: true, restrictions: restrictionsFor(user) };
}

/** A share link's holder: an editor changes, a visitor only views and downloads. */
export function shareContext(owner: Pick<User, 'restrictions'>, permission: string): PrincipalContext {
  return { writes: permission === 'editor', reads: true, restrictions: restrictionsFor(owner) };
}

/** An upload request's holder: uploads and changes what it made (the grant says which), downloads nothing. */
export function requestContext(owner: Pick<User, 'restrictions'>): PrincipalContext {
  return { writes: true, reads: false, restrictions: restrictionsFor(owner) };
}

/** A team member acting as the team folder's owner: `can_edit` changes what lies below the root, `can_view` only views and downloads. */
export function memberContext(owner: Pick<User, 'restrictions'>, permission: string): PrincipalContext {
  return { writes: permission === 'can_edit', reads: true, restrictions: restrictionsFor(owner) };
}

export const NO_ABILITIES: Abilities = Object.freeze({ rename: false, move: false, share: false, delete: false, download: false, upload: false, create_folder: false, restore: false });

/** The one derivation: the access module's grant for the item, narrowed by the principal and the item's state. */
export function abilitiesFor(grant: { item: Pick<ItemRow, 'type' | 'deleted_at'>; may: Grant['may'] }, principal: PrincipalContext): Abilities {
  const { item, may } = grant;
  if (!may.read) return { ...NO_ABILITIES };
  if (item.deleted_at !== null) {
    // In the trash an item can only come back or go for good.
    const back = principal.writes && may.delete;
    return { ...NO_ABILITIES, restore: back, delete: back };
  }
  const change = principal.writes && may.write;
  const into = item.type === 'folder' && principal.writes;
  return {
    rename: change,
    move: change,
    share: principal.writes && may.share,
    delete: principal.writes && may.delete,
    download: principal.reads && principal.restrictions.canDownload,
    upload: into && principal.restrictions.canUpload,
    create_folder: into && principal.restrictions.canCreateFolder,
    restore: false,
  };
}

/** The owner's home, which is no item: things go into it (as the flags allow); it is not renamed, moved, shared or removed. */
export function homeAbilities(principal: PrincipalContext): Abilities {
  return { ...NO_ABILITIES, upload: principal.writes && principal.restrictions.canUpload, create_folder: principal.writes && principal.restrictions.canCreateFolder };
}

/**
 * The abilities of each of these items (already found for the principal) by id, from one access
 * check whatever the count. An item the access module does not answer gets none.
 */
export async function abilitiesOf(db: Db, principal: Principal, context: PrincipalContext, items: Pick<ItemRow, 'id'>[]): Promise<Map<string, Abilities>> {
  const grants = await accessTo(db, principal, items.map((i) => i.id));
  return new Map(items.map((i) => {
    const grant = grants.get(i.id);
    return [i.id, grant ? abilitiesFor(grant, context) : { ...NO_ABILITIES }];
  }));
}

/** `abilitiesOf` for whole rows read in this request (a listing): the principal's own rows are not read again (`accessToRows`). */
export async function abilitiesOfRows(db: Db, principal: Principal, context: PrincipalContext, rows: ItemRow[]): Promise<Map<string, Abilities>> {
  const grants = await accessToRows(db, principal, rows);
  return new Map(rows.map((row) => {
    const grant = grants.get(row.id);
    return [row.id, grant ? abilitiesFor(grant, context) : { ...NO_ABILITIES }];
  }));
}

/** The navigation tree with each folder's abilities (one access check for the whole tree). */
export async function withTreeAbilities(db: Db, principal: Principal, context: PrincipalContext, tree: TreeNode[]): Promise<TreeNode[]> {
  const ids: { id: string }[] = [];
  const collect = (nodes: TreeNode[]): void => {
    for (const node of nodes) {
      ids.push({ id: node.id });
      collect(node.folders);
    }
  };
  collect(tree);
  const abilities = await abilitiesOf(db, principal, context, ids);
  const add = (nodes: TreeNode[]): TreeNode[] => nodes.map((node) => ({ ...node, folders: add(node.folders), abilities: abilities.get(node.id)! }));
  return add(tree);
}
