import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { TeamInvitationsTable, TeamMembersTable, TeamPermission, TeamsTable } from '../../../db/schema.ts';
import type { Db, ItemRow } from '../files/queries.ts';
import type { PageRequest } from '../http/keyset.ts';

/** The team tables' SQL (Kysely only here). */

export type TeamRow = Selectable<TeamsTable>;
export type MemberRow = Selectable<TeamMembersTable>;
export type InvitationRow = Selectable<TeamInvitationsTable>;

export interface MemberWithUser extends MemberRow {
  name: string;
  email: string;
  color: string;
  avatar_key: string | null;
}

export async function insertTeam(db: Db, team: TeamRow): Promise<void> {
  await db.insertInto('teams').values(team).execute();
}

export function findTeam(db: Db, id: string): Promise<TeamRow | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findTeamByFolder(db: Db, folderId: string): Promise<TeamRow | undefined> {
  return db.selectFrom('teams').selectAll().where('folder_id', '=', folderId).executeTakeFirst();
}

export function teamsOfOwner(db: Db, ownerId: string): Promise<TeamRow[]> {
  return db.selectFrom('teams').selectAll().where('owner_id', '=', ownerId).orderBy('created_at').orderBy('id').execute();
}

export async function deleteTeam(db: Db, id: string): Promise<void> {
  await db.deleteFrom('teams').where('id', '=', id).execute();
}

/** The team folder ids of this owner at or above / at or below the given folder (no nesting). */
export async function teamFoldersOf(db: Db, ownerId: string): Promise<Set<string>> {
  return new Set((await db.selectFrom('teams').select('folder_id').where('owner_id', '=', ownerId).execute()).map((r) => r.folder_id));
}

export function membersOf(db: Db, teamIds: string[]): Promise<MemberWithUser[]> {
  if (!teamIds.length) return Promise.resolve([]);
  return db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.team_id', 'm.user_id', 'm.permission', 'm.created_at', 'u.name', 'u.email', 'u.color', 'u.avatar_key'])
    .where('m.team_id', 'in', teamIds)
    .orderBy('m.created_at')
    .orderBy('m.user_id')
    .execute();
}

export function findMember(db: Db, teamId: string, userId: string): Promise<MemberRow | undefined> {
  return db.selectFrom('team_members').selectAll().where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
}

/** Adds the member, or answers false when they are one already. */
export async function insertMember(db: Db, member: MemberRow): Promise<boolean> {
  const result = await db.insertInto('team_members').values(member).onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function setMemberPermission(db: Db, teamId: string, userId: string, permission: TeamPermission): Promise<void> {
  await db.updateTable('team_members').set({ permission }).where('team_id', '=', teamId).where('user_id', '=', userId).execute();
}

export async function deleteMember(db: Db, teamId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Team folders come by name (items.name_key, items.id): the rows after a keyset cursor's key. */
function afterKey(page: PageRequest): RawBuilder<SqlBool> {
  const [key, id] = (page.after ?? ['', '']) as [string, string];
  return page.after ? sql<SqlBool>`(items.name_key > ${key} or (items.name_key = ${key} and items.id > ${id}))` : sql<SqlBool>`1 = 1`;
}

/** The owner's live team folders, a page of them by name, each with its team id. */
export function ownTeamFolders(db: Db, ownerId: string, page: PageRequest): Promise<(ItemRow & { team_id: string })[]> {
  return db
    .selectFrom('teams as t')
    .innerJoin('items', 'items.id', 't.folder_id')
    .selectAll('items')
    .select('t.id as team_id')
    .where('t.owner_id', '=', ownerId)
    .where('items.deleted_at', 'is', null)
    .where(afterKey(page))
    .orderBy('items.name_key')
    .orderBy('items.id')
    .limit(page.limit + 1)
    .execute();
}

export interface MembershipRow extends ItemRow {
  team_id: string;
  permission: TeamPermission;
  team_owner_id: string;
  owner_name: string;
  owner_email: string;
  owner_color: string;
  owner_avatar_key: string | null;
}

/** The live team folders the user is a member of, a page of them by name, with the owner and the permission. */
export function membershipsOf(db: Db, userId: string, page: PageRequest): Promise<MembershipRow[]> {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .innerJoin('items', 'items.id', 't.folder_id')
    .innerJoin('users as o', 'o.id', 't.owner_id')
    .selectAll('items')
    .select(['t.id as team_id', 'm.permission', 't.owner_id as team_owner_id', 'o.name as owner_name', 'o.email as owner_email', 'o.color as owner_color', 'o.avatar_key as owner_avatar_key'])
    .where('m.user_id', '=', userId)
    .where('items.deleted_at', 'is', null)
    .where(afterKey(page))
    .orderBy('items.name_key')
    .orderBy('items.id')
    .limit(page.limit + 1)
    .execute();
}

export async function insertInvitation(db: Db, invitation: InvitationRow): Promise<void> {
  await db.insertInto('team_invitations').values(invitation).execute();
}

export function findInvitation(db: Db, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('team_invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Pending invitations of the teams (expired ones too: the owner sees them until revoked), newest first. */
export function pendingInvitationsOf(db: Db, teamIds: string[]): Promise<InvitationRow[]> {
  if (!teamIds.length) return Promise.resolve([]);
  return db.selectFrom('team_invitations').selectAll().where('team_id', 'in', teamIds).where('status', '=', 'pending').orderBy('created_at', 'desc').orderBy('id').execute();
}

/** Pending, unexpired invitations sent to an address (a new account accepts them). */
export function openInvitationsTo(db: Db, email: string, now: string): Promise<InvitationRow[]> {
  return db.selectFrom('team_invitations').selectAll().where('email', '=', email).where('status', '=', 'pending').where('expires_at', '>', now).execute();
}

/** Moves a pending invitation on; false when it was not pending any more (someone else got there first). */
export async function respondToInvitation(db: Db, id: string, status: InvitationRow['status'], at: string): Promise<boolean> {
  const result = await db.updateTable('team_invitations').set({ status, responded_at: at }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The distinct addresses an owner's teams hold (members, and pending unexpired invitations): what
 * SPEC §5's member limit counts.
 */
export async function teamEmailsOf(db: Db, ownerId: string, now: string): Promise<string[]> {
  const members = await db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('t.owner_id', '=', ownerId)
    .execute();
  const invited = await db
    .selectFrom('team_invitations as i')
    .innerJoin('teams as t', 't.id', 'i.team_id')
    .select('i.email')
    .where('t.owner_id', '=', ownerId)
    .where('i.status', '=', 'pending')
    .where('i.expires_at', '>', now)
    .execute();
  return [...new Set([...members, ...invited].map((r) => r.email.toLowerCase()))].sort();
}

/** Clears the action of the invitation's notification (after accept or decline, SPEC §4). */
export async function clearInvitationNotifications(db: Db, invitationId: string): Promise<void> {
  await db.updateTable('notifications').set({ action: null }).where('category', '=', 'team-invitation').where('action', 'like', `%"id":"${invitationId}"%`).execute();
}
