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

/** My own team folders, each with what I may do with it (one access check for the page). */
export async function presentOwnTeamRoots(ctx: AppContext, owner: User, items: ItemWithCount[]) {
  const abilities = await abilitiesOf(ctx.db, owner, ownerContext(owner), items);
  return items.map((item) => itemData(item, abilities.get(item.id)));
}

/** The team folders I am a member of: each lies in another team (another scope), so each is asked on its own. */
export async function presentMemberTeamRoots(ctx: AppContext, member: User, items: ItemWithCount[]) {
  return Promise.all(items.map(async (item) => itemData(item, (await abilitiesIn(ctx, member, [item])).get(item.id))));
}

/** An item with its team: what create and convert answer. */
export function presentTeamFolder<T>(result: { item: ItemWithCount; team: T }) {
  return { data: itemData(result.item), meta: { team: result.team } };
}
