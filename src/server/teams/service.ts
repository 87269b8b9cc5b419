import { randomUUID } from 'node:crypto';
import type { TeamPermission } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireOwnedItem, requireUnscoped, type Actor } from '../files/access.ts';
import * as files from '../files/queries.ts';
import type { ItemWithCount, ListOptions } from '../files/queries.ts';
import { browseFolder, createFolder, navigationTree, type Page, type TreeNode, type TreeRequest } from '../files/service.ts';
import { AppError, notFound, validationError } from '../http/errors.ts';
import { encodeCursor, type PageRequest } from '../http/keyset.ts';
import { createNotification } from '../notifications/service.ts';
import { restrictionsFor } from '../users/restrictions.ts';
import { actorFor } from './actor.ts';
import { checkInvitations, inviteAll, requireOwnTeam, type NewInvitation } from './invitations.ts';
import { presentOwner, presentTeam, type TeamData } from './presenter.ts';
import * as q from './queries.ts';
import { UUID } from './schemas.ts';

/**
 * Team folders, the owner's and the member's use cases. Every permission is decided here (who owns
 * the team, who is a member); what a member may do with the items is the access check's
 * (files/access.ts, through teams/actor.ts).
 */

const now = (ctx: AppContext) => ctx.clock.now().toISOString();
const teamNotFound = () => notFound('The team folder was not found.');

/** The owner's team whose folder is `id` or lies above it. */
async function ownTeamAbove(ctx: AppContext, user: User, id: string): Promise<q.TeamRow> {
  requireUnscoped(user);
  if (!UUID.test(id)) throw teamNotFound();
  const folder = await requireOwnedItem(ctx, user, id, { folder: true });
  const lineage = await files.selfAndAncestorIds(ctx.db, folder.id);
  const teams = await q.teamFoldersOf(ctx.db, user.id);
  const root = lineage.find((f) => teams.has(f));
  if (!root) throw teamNotFound();
  return (await q.findTeamByFolder(ctx.db, root))!;
}

async function teamData(ctx: AppContext, teams: q.TeamRow[]): Promise<TeamData[]> {
  const ids = teams.map((t) => t.id);
  const [members, invitations] = await Promise.all([q.membersOf(ctx.db, ids), q.pendingInvitationsOf(ctx.db, ids)]);
  return teams.map((t) => presentTeam(t, members, invitations, now(ctx)));
}

function requireCanCreateTeam(user: User): void {
  if (!restrictionsFor(user).canCreateTeamFolder) {
    throw new AppError(423, 'Creating team folders is temporarily disabled on your account.', { code: 'create_team_folder_temporarily_disabled' });
  }
}

/** The rows of a `limit + 1` keyset query cut to the page, with the next page's cursor. */
function cut<R extends { name_key: string; id: string }>(rows: R[], page: PageRequest): { shown: R[]; next: string | null } {
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return { shown, next: rows.length > page.limit && last ? encodeCursor([last.name_key, last.id]) : null };
}

// --- owner --------------------------------------------------------------------------------

/** My live team folders by name, a keyset page (`limit`, `cursor`), each with its team. */
export async function listOwnTeams(ctx: AppContext, user: User, page: PageRequest): Promise<{ items: ItemWithCount[]; teams: TeamData[]; next: string | null }> {
  requireUnscoped(user);
  const { shown, next } = cut(await q.ownTeamFolders(ctx.db, user.id, page), page);
  const teams = shown.map((row): q.TeamRow => ({ id: row.team_id, folder_id: row.id, owner_id: user.id, created_at: row.created_at }));
  const items = await files.withCounts(ctx.db, shown.map(({ team_id: _, ...item }) => item));
  return { items, teams: await teamData(ctx, teams), next };
}

export async function browseOwnTeam(ctx: AppContext, user: User, id: string, options: ListOptions): Promise<Page & { root: ItemWithCount | null; team: TeamData }> {
  const team = await ownTeamAbove(ctx, user, id);
  const page = await browseFolder(ctx, user, id, options);
  return { ...page, team: (await teamData(ctx, [team]))[0]! };
}

/** The navigation tree of a team folder (or of the team folder above `id`), for its owner and its members, a level at a time. */
export async function teamTree(ctx: AppContext, user: User, id: string, request: TreeRequest = {}): Promise<TreeNode[]> {
  if (!UUID.test(id)) throw teamNotFound();
  const actor = await actorFor(ctx, user, [id]);
  if (actor.scope?.member) return navigationTree(ctx, actor, request);
  const team = await ownTeamAbove(ctx, user, id);
  return navigationTree(ctx, { ...user, scope: { rootId: team.folder_id } } as Actor, request);
}

/** Makes a folder the root of a team: not inside another team folder, not holding one. */
async function makeTeam(ctx: AppContext, user: User, folderId: string, invitations: NewInvitation[]): Promise<q.TeamRow> {
  const team: q.TeamRow = { id: randomUUID(), folder_id: folderId, owner_id: user.id, created_at: now(ctx) };
  await ctx.db.transaction().execute(async (tx) => {
    if (await q.findTeamByFolder(tx, folderId)) throw new AppError(409, 'This folder is a team folder already.');
    await q.insertTeam(tx, team);
  });
  await inviteAll(ctx, user, team, invitations);
  return team;
}

async function requireNotInTeam(ctx: AppContext, user: User, folderId: string | null, field: string): Promise<void> {
  const teams = await q.teamFoldersOf(ctx.db, user.id);
  if (!teams.size || folderId === null) return;
  const lineage = await files.selfAndAncestorIds(ctx.db, folderId);
  if (lineage.some((f) => teams.has(f))) throw validationError({ [field]: ['A team folder cannot be inside another team folder.'] });
}

async function requireNoTeamBelow(ctx: AppContext, user: User, folderId: string): Promise<void> {
  for (const team of await q.teamsOfOwner(ctx.db, user.id)) {
    if ((await files.selfAndAncestorIds(ctx.db, team.folder_id)).includes(folderId)) {
      throw validationError({ id: ['This folder holds a team folder; a team folder cannot be inside another.'] });
    }
  }
}

export async function createTeamFolder(
  ctx: AppContext,
  user: User,
  input: { name: string; emoji?: string | null | undefined; parent_id: string | null; invitations: NewInvitation[] },
): Promise<{ item: ItemWithCount; team: TeamData }> {
  requireUnscoped(user);
  requireCanCreateTeam(user);
  if (input.parent_id !== null) await requireOwnedItem(ctx, user, input.parent_id, { folder: true, field: 'parent_id' });
  await requireNotInTeam(ctx, user, input.parent_id, 'parent_id');
  await checkInvitations(ctx, user, null, input.invitations);
  const folder = await createFolder(ctx, user, { name: input.name, emoji: input.emoji, parent_id: input.parent_id });
  const team = await makeTeam(ctx, user, folder.id, input.invitations);
  return { item: folder, team: (await teamData(ctx, [team]))[0]! };
}

export async function convertToTeamFolder(ctx: AppContext, user: User, folderId: string, input: { invitations: NewInvitation[] }): Promise<{ item: ItemWithCount; team: TeamData }> {
  requireUnscoped(user);
  requireCanCreateTeam(user);
  if (!UUID.test(folderId)) throw notFound('The item was not found.');
  const folder = await requireOwnedItem(ctx, user, folderId, { folder: true });
  if (await q.findTeamByFolder(ctx.db, folder.id)) throw new AppError(409, 'This folder is a team folder already.');
  await requireNotInTeam(ctx, user, folder.id, 'id');
  await requireNoTeamBelow(ctx, user, folder.id);
  await checkInvitations(ctx, user, null, input.invitations);
  const team = await makeTeam(ctx, user, folder.id, input.invitations);
  return { item: (await files.findItemWithCount(ctx.db, folder.id))!, team: (await teamData(ctx, [team]))[0]! };
}

async function requireMember(ctx: AppContext, team: q.TeamRow, userId: string): Promise<void> {
  if (!UUID.test(userId) || !(await q.findMember(ctx.db, team.id, userId))) throw notFound('The member was not found.');
}

export async function changeMemberPermission(ctx: AppContext, user: User, folderId: string, memberId: string, permission: TeamPermission) {
  const team = await requireOwnTeam(ctx, user, folderId);
  await requireMember(ctx, team, memberId);
  await q.setMemberPermission(ctx.db, team.id, memberId, permission);
  const member = (await q.membersOf(ctx.db, [team.id])).find((m) => m.user_id === memberId)!;
  return member;
}

/** The member loses access at once, and is told (their open "Shared with me" place updates live). */
export async function removeMember(ctx: AppContext, user: User, folderId: string, memberId: string): Promise<void> {
  const team = await requireOwnTeam(ctx, user, folderId);
  await requireMember(ctx, team, memberId);
  await q.deleteMember(ctx.db, team.id, memberId);
  const folder = await files.findItem(ctx.db, team.folder_id);
  await tellFormerMembers(ctx, [memberId], {
    category: 'team-member-removed',
    title: 'You were removed from a team folder',
    description: `${user.name} removed you from the team folder "${folder?.name ?? ''}".`,
  });
}

/** A notice to people who were members and are no more: no action, since the folder is out of their reach. */
async function tellFormerMembers(ctx: AppContext, userIds: string[], notice: { category: string; title: string; description: string }): Promise<void> {
  for (const userId of userIds) await createNotification(ctx, { userId, ...notice, action: null });
}

/** Ends the team: the folder stays the owner's; members and invitations go (their notifications lose the action). */
export async function dissolveTeam(ctx: AppContext, user: User, folderId: string): Promise<void> {
  const team = await requireOwnTeam(ctx, user, folderId);
  const pending = await q.pendingInvitationsOf(ctx.db, [team.id]);
  const members = await q.membersOf(ctx.db, [team.id]);
  await ctx.db.transaction().execute(async (tx) => {
    for (const invitation of pending) await q.clearInvitationNotifications(tx, invitation.id);
    await q.deleteTeam(tx, team.id);
  });
  const folder = await files.findItem(ctx.db, team.folder_id);
  await tellFormerMembers(
    ctx,
    members.map((m) => m.user_id),
    { category: 'team-dissolved', title: 'A team folder was closed', description: `${user.name} closed the team of the folder "${folder?.name ?? ''}".` },
  );
}

// --- member -------------------------------------------------------------------------------

/** The live team folders I am a member of by name, a keyset page, each with its owner and my permission. */
export async function listSharedWithMe(ctx: AppContext, user: User, page: PageRequest) {
  requireUnscoped(user);
  const { shown, next } = cut(await q.membershipsOf(ctx.db, user.id, page), page);
  const teams = Object.fromEntries(
    shown.map((m) => [m.id, { id: m.team_id, permission: m.permission, owner: presentOwner({ id: m.team_owner_id, name: m.owner_name, email: m.owner_email, color: m.owner_color, avatar_key: m.owner_avatar_key }) }]),
  );
  const items = await files.withCounts(
    ctx.db,
    shown.map(({ team_id: _t, permission: _p, team_owner_id: _o, owner_name: _n, owner_email: _e, owner_color: _c, owner_avatar_key: _a, ...item }) => item),
  );
  return { items, teams, next };
}

export async function browseSharedWithMe(ctx: AppContext, user: User, id: string, options: ListOptions) {
  requireUnscoped(user);
  if (!UUID.test(id)) throw notFound('The item was not found.');
  const actor = await actorFor(ctx, user, [id]);
  const member = actor.scope?.member;
  if (!member) throw notFound('The item was not found.');
  const page = await browseFolder(ctx, user, id, options);
  const team = (await q.findTeam(ctx.db, member.teamId))!;
  return { ...page, team: { id: team.id, folder_id: team.folder_id, owner: presentOwner(actor), permission: member.permission } };
}

/** The member leaves the team whose folder is `folderId`; the owner is told. */
export async function leaveTeam(ctx: AppContext, user: User, folderId: string): Promise<void> {
  requireUnscoped(user);
  const team = UUID.test(folderId) ? await q.findTeamByFolder(ctx.db, folderId) : undefined;
  if (!team || !(await q.deleteMember(ctx.db, team.id, user.id))) throw teamNotFound();
  const folder = await files.findItem(ctx.db, team.folder_id);
  await createNotification(ctx, {
    userId: team.owner_id,
    category: 'team-member-left',
    title: 'A member left your team folder',
    description: `${user.name} left the team folder "${folder?.name ?? ''}".`,
    action: { type: 'route', params: { id: team.folder_id, route: 'TeamFolders', button: 'Open' } },
  });
}
