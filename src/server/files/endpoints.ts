import { actorOf, recordMade, requireWrite, type Principal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import { json } from '../http/endpoint.ts';
import { validate } from '../http/validate.ts';
import { principalFor } from '../teams/actor.ts';
import { scopedItemData, withShared } from '../sharing/presenter.ts';
import { sharesOfItems } from '../sharing/service.ts';
import { abilitiesOfRows, homeAbilities, memberContext, ownerContext, type Abilities, type PrincipalContext, requestContext, shareContext, withTreeAbilities } from './abilities.ts';
import { itemData, type ItemData } from './presenter.ts';
import type { ItemRow, ItemWithCount } from './queries.ts';
import { CreateFolderInput, encodeCursor, folderParam, listOptions, MoveInput, RemoveInput, RenameInput, TreeQuery } from './schemas.ts';
import { browseFolderAs, createFolder, moveItems, navigationTree, removeItems, renameItem } from './service.ts';

/**
 * One body per item action, whoever acts: the owner's endpoints (`/api/create-folder`, …), a
 * share editor's (`/api/editor/*​/{token}`) and an upload request holder's
 * (`/api/upload-request/{token}/*`) differ only in the principal they choose (auth/principal.ts).
 * The file service checks every id against the principal's scope; the answer is presented the
 * way the principal may see it (`itemDataFor`).
 */

export type PresentedItem = ItemData | ReturnType<typeof scopedItemData>;

/** What the principal may do at all (files/abilities.ts): the owner's flags, narrowed by the link's kind. */
export function contextOf(principal: Principal): PrincipalContext {
  switch (principal.kind) {
    case 'share':
      return shareContext(principal.user, principal.share.share.permission);
    case 'request':
      return requestContext(principal.user);
    case 'member':
      return memberContext(principal.user, principal.member.permission);
    default:
      return ownerContext(principal.user);
  }
}

/**
 * The item resource as the principal sees it: a link holder gets token URLs and no owner's details;
 * with `abilities`, each item carries what the principal may do with it (`meta.abilities`).
 */
export function itemDataFor(principal: Principal, abilities?: Map<string, Abilities>): (item: ItemWithCount | ItemRow) => PresentedItem {
  switch (principal.kind) {
    case 'share':
      return (item) => scopedItemData(item, principal.share.share.token, principal.share.item.id, 'share', abilities?.get(item.id));
    case 'request':
      return (item) => scopedItemData(item, principal.request.request.token, principal.request.folder.id, 'request', abilities?.get(item.id));
    default:
      return (item) => itemData(item, abilities?.get(item.id));
  }
}

/** Create a folder (`parent_id` empty: home, or the scope's root); 201 with the folder. */
export async function createFolderAs(ctx: AppContext, principal: Principal, body: unknown): Promise<Response> {
  requireWrite(principal);
  const folder = await createFolder(ctx, actorOf(principal), validate(CreateFolderInput, body));
  await recordMade(ctx, principal, folder);
  return json({ data: itemDataFor(principal)(folder) }, 201);
}

/** Rename, emoji and colour of one item. */
export async function renameAs(ctx: AppContext, principal: Principal, id: string, body: unknown) {
  requireWrite(principal);
  return { data: itemDataFor(principal)(await renameItem(ctx, actorOf(principal), id, validate(RenameInput, body))) };
}

/** Move items into a folder (`to_id` empty: home, or the scope's root); clashing names become `name (n)`. */
export async function moveAs(ctx: AppContext, principal: Principal, body: unknown) {
  requireWrite(principal);
  const input = validate(MoveInput, body);
  return { data: (await moveItems(ctx, actorOf(principal), input.to_id, input.items)).map((i) => itemDataFor(principal)(i)) };
}

/** To the trash, or with `force_delete` for good (the owner only: a link holder only ever trashes). */
export async function removeAs(ctx: AppContext, principal: Principal, body: unknown): Promise<void> {
  requireWrite(principal);
  await removeItems(ctx, actorOf(principal), validate(RemoveInput, body).items);
}

/**
 * A folder's items (`all` or no id: home, or the scope's root), folders first; `sort`,
 * `direction`, and `limit` + `cursor` for pages. The owner's shared items carry their link in
 * `relationships.shared`; a link holder sees none of that. Every item (and the root) says what
 * the principal may do with it in `meta.abilities`, and the answer's `meta.abilities` those of the
 * open place (the home's too, which is no item).
 */
export async function browseAs(ctx: AppContext, asked: Principal, id: string | undefined, query: URLSearchParams, options: { paged?: boolean } = {}) {
  const list = listOptions(query, validate);
  // A signed-in user opening a folder of a team they are a member of browses it as the member.
  const principal = asked.kind === 'user' ? await principalFor(ctx, asked, [folderParam(id)]) : asked;
  const actor = actorOf(principal);
  const page = await browseFolderAs(ctx, actor, folderParam(id), options.paged === false ? { sort: list.sort } : list);
  const context = contextOf(principal);
  const abilities = await abilitiesOfRows(ctx.db, actor, context, page.root ? [...page.items, page.root] : page.items);
  const present = itemDataFor(principal, abilities);
  let data = page.items.map(present);
  if (principal.kind === 'user') {
    const shares = await sharesOfItems(ctx, principal.user, page.items.map((i) => i.id));
    data = data.map((d) => withShared(ctx, d as ItemData, shares));
  }
  const here = page.root ? abilities.get(page.root.id) : homeAbilities(context);
  return { data, meta: { root: page.root && present(page.root), next_cursor: page.next && encodeCursor(page.next), abilities: here } };
}

/**
 * The folder tree for the navigation panel a level at a time (`parent_id`: that folder's
 * subfolders; else the top, and with `open` the branches down to it), each folder with
 * `abilities`; a link's tree has the scope's root as its one root.
 */
export async function navigationAs(ctx: AppContext, principal: Principal, query: URLSearchParams) {
  const actor = actorOf(principal);
  const request = validate(TreeQuery, Object.fromEntries(query));
  const tree = await withTreeAbilities(ctx.db, actor, contextOf(principal), await navigationTree(ctx, actor, request));
  const root = principal.scope && !request.parentId;
  return { data: root ? tree.map((node) => ({ ...node, parent_id: null })) : tree };
}
