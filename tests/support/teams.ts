import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TeamPermission } from '../../db/schema.ts';
import { generateSecret } from '../../src/server/auth/tokens.ts';
import type { AppContext } from '../../src/server/context.ts';
import { findTeamByFolder, insertInvitation, insertMember, insertTeam, setMemberPermission } from '../../src/server/teams/queries.ts';
import type { Client } from './client.ts';

/**
 * Team folders for tests: made through the API as a user would (`createTeam`, `invite`, `accept`),
 * or, for the many fresh teams a table needs, written straight into the team tables (`seedTeam`, …).
 */

export async function createTeam(owner: Client, name: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await owner.post('/api/teams/folders', { name, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

export async function invite(owner: Client, folder: string, email: string, permission: TeamPermission = 'can_edit'): Promise<string> {
  const res = await owner.post(`/api/teams/folders/${folder}/invitations`, { email, permission });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

export async function accept(member: Client, invitation: string): Promise<void> {
  const res = await member.request(`/api/teams/invitations/${invitation}`, { method: 'PUT' });
  expect(res.status, res.text).toBe(200);
}

/** Makes the owner's folder `folderId` a team folder; answers the team's id. */
export async function seedTeam(seed: AppContext, ownerId: string, folderId: string): Promise<string> {
  const id = randomUUID();
  await insertTeam(seed.db, { id, folder_id: folderId, owner_id: ownerId, created_at: new Date().toISOString() });
  return id;
}

/** The id of the team whose folder is `folderId`, if it is one. */
export async function teamOf(seed: AppContext, folderId: string): Promise<string | undefined> {
  return (await findTeamByFolder(seed.db, folderId))?.id;
}

/** Makes the user a member of the team with this permission (again, if they were one). */
export async function seedMember(seed: AppContext, teamId: string, userId: string, permission: TeamPermission): Promise<void> {
  if (!(await insertMember(seed.db, { team_id: teamId, user_id: userId, permission, created_at: new Date().toISOString() }))) {
    await setMemberPermission(seed.db, teamId, userId, permission);
  }
}

/** An invitation of the team to `email` (pending unless told), as the owner would have sent it; answers its id. */
export async function seedInvitation(
  seed: AppContext,
  teamId: string,
  email: string,
  options: { inviterId?: string | null; status?: 'pending' | 'revoked' } = {},
): Promise<string> {
  const id = generateSecret(20);
  const at = new Date();
  await insertInvitation(seed.db, {
    id,
    team_id: teamId,
    email: email.toLowerCase(),
    permission: 'can_edit',
    inviter_id: options.inviterId ?? null,
    status: options.status ?? 'pending',
    expires_at: new Date(at.getTime() + 86_400_000).toISOString(),
    created_at: at.toISOString(),
    responded_at: options.status && options.status !== 'pending' ? at.toISOString() : null,
  });
  return id;
}

/** An invitation id of the right form that names nothing. */
export function madeUpInvitationId(): string {
  return generateSecret(20);
}
