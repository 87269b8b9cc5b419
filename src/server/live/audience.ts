import type { AppContext } from '../context.ts';
import { selfAndAncestorIds } from '../files/queries.ts';
import { membersOf, teamsOfOwner } from '../teams/queries.ts';

/**
 * Who hears that items of `ownerId` changed in `folderIds` (null: the owner's home): the users whose
 * open listings may show them. The owner, and the members of each of the owner's team folders that
 * holds one of those folders (the team folder itself or a folder below it). With `everything` (the
 * change did not name its folders), the members of all the owner's team folders.
 */
export async function audienceFor(ctx: AppContext, ownerId: string, folderIds: (string | null)[], everything?: boolean): Promise<string[]> {
  const audience = new Set([ownerId]);
  const inside = folderIds.filter((id): id is string => id !== null);
  if (!inside.length && !everything) return [...audience];
  const teams = await teamsOfOwner(ctx.db, ownerId);
  if (!teams.length) return [...audience];
  if (everything) {
    for (const member of await membersOf(ctx.db, teams.map((team) => team.id))) audience.add(member.user_id);
    return [...audience];
  }
  const lineage = new Set((await Promise.all([...new Set(inside)].map((id) => selfAndAncestorIds(ctx.db, id)))).flat());
  const reached = teams.filter((team) => lineage.has(team.folder_id)).map((team) => team.id);
  for (const member of await membersOf(ctx.db, reached)) audience.add(member.user_id);
  return [...audience];
}
