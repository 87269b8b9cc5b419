import type { MemberPrincipal, UserPrincipal } from '../auth/principal.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { scopeOf, type Actor } from '../files/access.ts';
import { ownsAnyOf, teamRootsOf } from '../files/access-queries.ts';
import { findUserById } from '../users/queries.ts';
import { jointRestrictions } from '../users/restrictions.ts';

/**
 * Which actor a signed-in user is for the items a call names. Their own items: the user. Items at
 * or below a team folder they are a member of (all in the same team): the member actor, which is
 * the team folder's OWNER scoped to the team folder (like a share link's editor: the service
 * functions run as the owner, so uploads count against the owner's storage), with the member's
 * permission. Anything else (someone else's item, a mix of teams): the user, whose access check
 * then answers 404, the same as for a missing item. A token holder (already scoped) stays as it is.
 * The member actor carries both accounts' restriction flags, so every flag check applies to both.
 *
 * The file services call this once at their start; the access check (files/access.ts) then
 * decides every id, and checks the membership again in its own statement.
 */
export async function actorFor(ctx: AppContext, user: User, ids: (string | null | undefined)[]): Promise<Actor> {
  if (scopeOf(user)) return user;
  const asked = [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))];
  if (!asked.length) return user;
  // Most calls name the user's own items: a lookup by id says so without walking up for a team folder.
  if (await ownsAnyOf(ctx.db, user.id, asked)) return user;
  const rows = await teamRootsOf(ctx.db, user.id, asked);
  if (rows.some((r) => r.owner_id === user.id)) return user;
  const teams = new Map(rows.filter((r) => r.team_id).map((r) => [r.team_id!, r]));
  const answered = new Set(rows.map((r) => r.start));
  if (teams.size !== 1 || asked.some((id) => !answered.has(id))) return user;
  const [root] = teams.values();
  const owner = await findUserById(ctx, root!.owner_id);
  if (!owner || owner.deletion_started_at) return user;
  // The owner's storage, quota and settings, under both accounts' flags (and the member's address must be verified too).
  return {
    ...owner,
    restrictions: jointRestrictions(owner, user),
    email_verified_at: user.email_verified_at && owner.email_verified_at,
    scope: { rootId: root!.folder_id!, member: { userId: user.id, teamId: root!.team_id!, permission: root!.permission! } },
  };
}

/** The member behind an actor, if it is one: the user who really acts. */
export function memberOf(actor: Actor): { userId: string; teamId: string } | undefined {
  return actor.scope?.member;
}

/**
 * The principal a signed-in user is for the items a call names (`actorFor`): itself, or a member
 * of the team folder they lie in, acting as its owner through the team's scope with the
 * membership's permission (a `can_view` member only reads).
 */
export async function principalFor(ctx: AppContext, signedIn: UserPrincipal, ids: (string | null | undefined)[]): Promise<UserPrincipal | MemberPrincipal> {
  const actor = await actorFor(ctx, signedIn.user, ids);
  const member = actor.scope?.member;
  if (!member || !actor.scope) return signedIn;
  const { scope, ...owner } = actor;
  return {
    kind: 'member',
    method: signedIn.method,
    user: owner,
    scope,
    permissions: { read: true, write: member.permission === 'can_edit' },
    member: { account: signedIn.user, teamFolderId: scope.rootId, permission: member.permission },
  };
}
