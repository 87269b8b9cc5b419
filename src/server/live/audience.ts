import type { AppContext } from '../context.ts';
import { selfAndAncestorIds } from '../files/queries.ts';
import { membersOf, teamsOfOwner } from '../teams/queries.ts';

/** A user who hears of a change, and which of its folders they are told about. */
export interface Recipient {
  userId: string;
  folderIds: (string | null)[];
}

/**
 * Who hears that items of `ownerId` changed in `folderIds` (null: the owner's home): the users whose
 * open listings may show them. The owner, told of every folder; and the members of each of the
 * owner's team folders that holds one of those folders (the team folder itself or a folder below
 * it), told only of the folders inside the team folders they belong to: an item the owner moves
 * out of a team folder into a private one names the private folder to the owner alone. With
 * `everything` (the change did not name its folders), the members of all the owner's team folders.
 */
export async function audienceFor(ctx: AppContext, ownerId: string, folderIds: (string | null)[], everything?: boolean): Promise<Recipient[]> {
  const owner: Recipient = { userId: ownerId, folderIds };
  const inside = [...new Set(folderIds.filter((id): id is string => id !== null))];
  if (!inside.length && !everything) return [owner];
  const teams = await teamsOfOwner(ctx.db, ownerId);
  if (!teams.length) return [owner];
  if (everything) {
    const members = await membersOf(ctx.db, teams.map((team) => team.id));
    return [owner, ...[...new Set(members.map((m) => m.user_id))].filter((id) => id !== ownerId).map((userId) => ({ userId, folderIds: [] }))];
  }
  // Each named folder with the folders above it: a folder is a team's when its team folder is among them.
  const lineages = await Promise.all(inside.map(async (id) => ({ id, above: new Set(await selfAndAncestorIds(ctx.db, id)) })));
  const foldersOfTeam = new Map<string, string[]>();
  for (const team of teams) {
    const held = lineages.filter((l) => l.above.has(team.folder_id)).map((l) => l.id);
    if (held.length) foldersOfTeam.set(team.id, held);
  }
  const told = new Map<string, Set<string>>();
  for (const member of await membersOf(ctx.db, [...foldersOfTeam.keys()])) {
    if (member.user_id === ownerId) continue;
    const folders = told.get(member.user_id) ?? new Set();
    for (const id of foldersOfTeam.get(member.team_id) ?? []) folders.add(id);
    told.set(member.user_id, folders);
  }
  return [owner, ...[...told].map(([userId, folders]) => ({ userId, folderIds: folderIds.filter((id) => id !== null && folders.has(id)) }))];
}
