import type { User } from '../auth/sessions.ts';
import { avatarUrls } from '../users/presenter.ts';
import type { InvitationRow, MemberWithUser, TeamRow } from './queries.ts';

/** SPEC §3 Member: avatar, name, email, colour, and the team permission. */
export function presentMember(m: MemberWithUser) {
  return { id: m.user_id, name: m.name, email: m.email, avatar: avatarUrls({ id: m.user_id, avatar_key: m.avatar_key }), color: m.color, permission: m.permission };
}

export type InvitationState = InvitationRow['status'] | 'expired';

/** A pending invitation past its expiry reads as expired. */
export function invitationStatus(invitation: Pick<InvitationRow, 'status' | 'expires_at'>, now: string): InvitationState {
  return invitation.status === 'pending' && invitation.expires_at <= now ? 'expired' : invitation.status;
}

export function presentInvitation(i: InvitationRow, now: string) {
  return { id: i.id, email: i.email, permission: i.permission, status: invitationStatus(i, now), expires_at: i.expires_at };
}

export function presentTeam(team: TeamRow, members: MemberWithUser[], invitations: InvitationRow[], now: string) {
  return {
    id: team.id,
    folder_id: team.folder_id,
    members: members.filter((m) => m.team_id === team.id).map(presentMember),
    invitations: invitations.filter((i) => i.team_id === team.id).map((i) => presentInvitation(i, now)),
  };
}

export type TeamData = ReturnType<typeof presentTeam>;

export function presentOwner(owner: Pick<User, 'id' | 'name' | 'email' | 'color' | 'avatar_key'>) {
  return { id: owner.id, name: owner.name, email: owner.email, avatar: avatarUrls(owner), color: owner.color };
}
