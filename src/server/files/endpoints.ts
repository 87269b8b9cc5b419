import { actorOf, recordMade, requireWrite, type Principal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import { json } from '../http/endpoint.ts';
import { validate } from '../http/validate.ts';
import { scopedItemData, withShared } from '../sharing/presenter.ts';
import { sharesOfItems } from '../sharing/service.ts';
import { itemData, type ItemData } from './presenter.ts';
import type { ItemRow, ItemWithCount } from './queries.ts';
import { CreateFolderInput, encodeCursor, folderParam, listOptions, MoveInput, RemoveInput, RenameInput } from './schemas.ts';
import { browseFolder, createFolder, moveItems, navigationTree, removeItems, renameItem } from './service.ts';

/**
 * One body per item action, whoever acts: the owner's endpoints (`/api/create-folder`, …), a
 * share editor's (`/api/editor/*​/{token}`) and an upload request holder's
 * (`/api/upload-request/{token}/*`) differ only in the principal they choose (auth/principal.ts).
 * The file service checks every id against the principal's scope; the answer is presented the
 * way the principal may see it (`itemDataFor`).
 */

export type PresentedItem = ItemData | ReturnType<typeof scopedItemData>;

/** The item resource as the principal sees it: a link holder gets token URLs and no owner's details. */
export function itemDataFor(principal: Principal): (item: ItemWithCount | ItemRow) => PresentedItem {
  switch (principal.kind) {
    case 'share':
      return (item) => scopedItemData(item, principal.share.share.token, principal.share.item.id);
    case 'request':
      return (item) => scopedItemData(item, principal.request.request.token, principal.request.folder.id, 'request');
    default:
      return itemData;
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
  return { data: (await moveItems(ctx, actorOf(principal), input.to_id, input.items)).map(itemDataFor(principal)) };
}

/** To the trash, or with `force_delete` for good (the owner only: a link holder only ever trashes). */
export async function removeAs(ctx: AppContext, principal: Principal, body: unknown): Promise<void> {
  requireWrite(principal);
  await removeItems(ctx, actorOf(principal), validate(RemoveInput, body).items);
}

/**
 * A folder's items (`all` or no id: home, or the scope's root), folders first; `sort`,
 * `direction`, and `limit` + `cursor` for pages. The owner's shared items carry their link in
 * `relationships.shared`; a link holder sees none of that.
 */
export async function browseAs(ctx: AppContext, principal: Principal, id: string | undefined, query: URLSearchParams) {
  const page = await browseFolder(ctx, actorOf(principal), folderParam(id), listOptions(query, validate));
  const present = itemDataFor(principal);
  let data = page.items.map(present);
  if (principal.kind === 'user') {
    const shares = await sharesOfItems(ctx, principal.user, page.items.map((i) => i.id));
    data = data.map((d) => withShared(ctx, d as ItemData, shares));
  }
  return { data, meta: { root: page.root && present(page.root), next_cursor: page.next && encodeCursor(page.next) } };
}

/** The folder tree for the navigation panel; a link's tree has the scope's root as its one root. */
export async function navigationAs(ctx: AppContext, principal: Principal) {
  const tree = await navigationTree(ctx, actorOf(principal));
  return { data: principal.scope ? tree.map((node) => ({ ...node, parent_id: null })) : tree };
}
