import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { abilitiesOf, memberContext, ownerContext, type Abilities } from '../files/abilities.ts';
import { itemData, presentList } from '../files/presenter.ts';
import type { Cursor, ItemWithCount } from '../files/queries.ts';
import { encodeCursor } from '../files/schemas.ts';
import { actorFor } from './actor.ts';

/** What the signed-in user may do with these items, which lie in one place (their own, or one team folder they are a member of). */
async function abilitiesIn(ctx: AppContext, signedIn: User, items: ItemWithCount[]): Promise<Map<string, Abilities>> {
  if (!items.length) return new Map();
  const actor = await actorFor(ctx, signedIn, [items[0]!.id]);
  const member = actor.scope?.member;
  return abilitiesOf(ctx.db, actor, member ? memberContext(actor, member.permission) : ownerContext(signedIn), items);
}

/**
 * A folder listing of a team folder, with the team in `meta.team`; every item (and the root) says
 * what the signed-in owner or member may do with it in `meta.abilities`, and the answer's
 * `meta.abilities` those of the open folder.
 */
export async function presentTeamPage<T>(ctx: AppContext, signedIn: User, page: { items: ItemWithCount[]; root: ItemWithCount | null; next: Cursor | null; team: T }) {
  const abilities = await abilitiesIn(ctx, signedIn, page.root ? [page.root, ...page.items] : page.items);
  const here = page.root ? abilities.get(page.root.id) : undefined;
  return presentList(page.items, { root: page.root, next_cursor: page.next && encodeCursor(page.next), team: page.team, abilities: here }, abilities);
}

/** Team folders (roots of different teams), each with what the signed-in user may do with it. */
export async function presentTeamRoots(ctx: AppContext, signedIn: User, items: ItemWithCount[]) {
  const each = await Promise.all(items.map(async (item) => itemData(item, (await abilitiesIn(ctx, signedIn, [item])).get(item.id))));
  return each;
}

/** An item with its team: what create and convert answer. */
export function presentTeamFolder<T>(result: { item: ItemWithCount; team: T }) {
  return { data: itemData(result.item), meta: { team: result.team } };
}
