import { api } from './api.ts';
import { $config } from './config.ts';
import type { Item, TreeNode } from './files.ts';
import { $user } from './user.ts';

/**
 * Team folders (SPEC §3, §4): the owner is `master`; members are invited by email as `can_edit`
 * or `can_view`. These are the client's calls of /api/teams/*; the listings themselves go through
 * the file area's listing store (sources `team` and `shared`).
 */
export type TeamPermission = 'can_edit' | 'can_view';
export const TEAM_PERMISSIONS: TeamPermission[] = ['can_edit', 'can_view'];

export interface TeamMember {
  id: string;
  name: string;
  email: string;
  avatar: { xs: string; sm: string; md: string } | null;
  color: string | null;
  permission: TeamPermission | 'master';
}

export interface TeamInvitation {
  id: string;
  email: string;
  permission: TeamPermission;
  status: string;
  expires_at: string | null;
}

export interface TeamOwner {
  id: string;
  name: string;
  email: string;
  avatar: TeamMember['avatar'];
  color: string | null;
}

/**
 * `meta.team` of a team folder's listing (src/server/teams/README.md): the owner's has the members
 * (without the owner) and the invitations; a member's has the owner and the member's permission.
 */
export interface TeamMeta {
  id: string;
  folder_id: string;
  /** The team folder's name, when the server sends it (a subfolder's listing names only the subfolder). */
  name?: string;
  permission?: TeamPermission | 'master';
  owner?: TeamOwner;
  members?: TeamMember[];
  invitations?: TeamInvitation[];
}

export interface InvitationInput {
  email: string;
  permission: TeamPermission;
}

const folderPath = (id: string) => `/api/teams/folders/${encodeURIComponent(id)}`;

export async function createTeamFolder(name: string, parentId: string | null, invitations: InvitationInput[]): Promise<Item> {
  return (await api.post<{ data: Item }>('/api/teams/folders', { name, parent_id: parentId, invitations })).data;
}

export async function convertToTeamFolder(folderId: string, invitations: InvitationInput[]): Promise<Item> {
  return (await api.post<{ data: Item }>(`${folderPath(folderId)}/convert`, { invitations })).data;
}

export async function inviteMember(folderId: string, invitation: InvitationInput): Promise<void> {
  await api.post(`${folderPath(folderId)}/invitations`, { ...invitation });
}

export async function revokeInvitation(folderId: string, invitationId: string): Promise<void> {
  await api.delete(`${folderPath(folderId)}/invitations/${encodeURIComponent(invitationId)}`);
}

export async function changeMemberPermission(folderId: string, userId: string, permission: TeamPermission): Promise<void> {
  await api.patch(`${folderPath(folderId)}/members/${encodeURIComponent(userId)}`, { permission });
}

export async function removeMember(folderId: string, userId: string): Promise<void> {
  await api.delete(`${folderPath(folderId)}/members/${encodeURIComponent(userId)}`);
}

export async function dissolveTeam(folderId: string): Promise<void> {
  await api.delete(folderPath(folderId));
}

export async function leaveTeam(folderId: string): Promise<void> {
  await api.delete(`/api/teams/shared-with-me/${encodeURIComponent(folderId)}`);
}

/** Accepts; the answer names the team folder the user now belongs to. */
export async function acceptInvitation(id: string): Promise<{ folder_id: string; team_id: string; permission: TeamPermission }> {
  return (await api.put<{ data: { folder_id: string; team_id: string; permission: TeamPermission } }>(`/api/teams/invitations/${encodeURIComponent(id)}`)).data;
}

export async function declineInvitation(id: string): Promise<void> {
  await api.delete(`/api/teams/invitations/${encodeURIComponent(id)}`);
}

/**
 * SPEC §5: inviting is blocked when the distinct emails already invited (`taken`: this team's and
 * the ones being added) plus the account's allowed emails reach `max_team_members.total`, and the
 * new email is not among them. Not for the subscription types metered and none; not without a total.
 */
export function inviteLimitReached(email: string, taken: string[]): boolean {
  const type = $config.get()?.subscriptionType;
  if (type === 'metered' || type === 'none') return false;
  const limit = $user.get()?.meta.limitations.max_team_members;
  if (!limit || limit.total === null || limit.total === undefined) return false;
  const emails = new Set([...taken, ...limit.meta.allowed_emails].map((e) => e.trim().toLowerCase()));
  return emails.size >= Number(limit.total) && !emails.has(email.trim().toLowerCase());
}

/** SPEC §5 email check: something@something, no spaces. */
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+$/.test(value.trim());

/** The signed-in user's permission in a team (the owner is master). */
export function myPermission(team: TeamMeta | null | undefined, source: 'team' | 'shared'): TeamMember['permission'] {
  if (source === 'team') return 'master';
  if (!team) return 'can_view';
  if (team.permission) return team.permission;
  const me = $user.get()?.id;
  return team.members?.find((m) => m.id === me)?.permission ?? 'can_view';
}

/**
 * A team folder's own folder tree (the member's move picker: my own tree does not hold it): the
 * team folder as the one root. An answer of its subfolders alone is put under a root made from `name`.
 */
export async function loadTeamTree(folderId: string, name: string): Promise<TreeNode[]> {
  const res = await api.get<{ data: TreeNode | TreeNode[] }>(`${folderPath(folderId)}/tree`);
  if (!Array.isArray(res.data)) return [res.data];
  if (res.data.length === 1 && res.data[0]!.id === folderId) return res.data;
  return [{ id: folderId, name, color: null, emoji: null, parent_id: null, folders: res.data, has_folders: res.data.length > 0 }];
}

/** One folder's subfolders inside a team folder's tree (the tree is answered a level at a time). */
export async function loadTeamTreeChildren(folderId: string, id: string): Promise<TreeNode[]> {
  return (await api.get<{ data: TreeNode[] }>(`${folderPath(folderId)}/tree?${new URLSearchParams({ parent_id: id })}`)).data;
}
