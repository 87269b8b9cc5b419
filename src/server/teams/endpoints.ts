import { encodeCursor } from '../files/schemas.ts';
import { itemData, presentList } from '../files/presenter.ts';
import type { ItemWithCount } from '../files/queries.ts';
import type { Cursor } from '../files/queries.ts';

/** A folder listing of a team folder, with the team in `meta.team`. */
export function presentTeamPage<T>(page: { items: ItemWithCount[]; root: ItemWithCount | null; next: Cursor | null; team: T }) {
  return presentList(page.items, { root: page.root, next_cursor: page.next && encodeCursor(page.next), team: page.team });
}

/** An item with its team: what create and convert answer. */
export function presentTeamFolder<T>(result: { item: ItemWithCount; team: T }) {
  return { data: itemData(result.item), meta: { team: result.team } };
}
