import { actorOf, recordMade, requireWrite, type Principal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import { json } from '../http/endpoint.ts';
import { validate } from '../http/validate.ts';
import { scopedItemData } from '../sharing/presenter.ts';
import { itemData, type ItemData } from './presenter.ts';
import type { ItemRow, ItemWithCount } from './queries.ts';
import { CreateFolderInput, MoveInput, RemoveInput, RenameInput } from './schemas.ts';
import { createFolder, moveItems, removeItems, renameItem } from './service.ts';

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
