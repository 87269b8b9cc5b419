import type { TeamPermission } from '../../../db/schema.ts';
import { generateSecret } from '../auth/tokens.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireUnscoped } from '../files/access.ts';
import { findItem } from '../files/queries.ts';
import { AppError, notFound, validationError } from '../http/errors.ts';
import { displayName, escapeHtml, htmlParagraphs, takeUserMail } from '../mail/outgoing.ts';
import { createNotification } from '../notifications/service.ts';
import { getSettings } from '../settings/service.ts';
import { avatarUrls } from '../users/presenter.ts';
import { findUserByEmail, findUserById } from '../users/queries.ts';
import { assertEmailVerified, verificationPending } from '../users/restrictions.ts';
import { requireRoomFor } from './limits.ts';
import { invitationStatus, presentInvitation } from './presenter.ts';
import * as q from './queries.ts';
import { INVITATION_ID, UUID } from './schemas.ts';

/**
 * Team invitations: sent by the team folder's owner to an address; an account with that address
 * gets a `team-invitation` notification, an address without one a mail with the invitation link.
 * Only the account of the invited address accepts or declines; an invitation expires after the
 * `team_invitation_expiry_days` setting and can be revoked by the owner.
 */

export interface NewInvitation {
  email: string;
  permission: TeamPermission;
}

const now = (ctx: AppContext) => ctx.clock.now().toISOString();
const invitationNotFound = () => notFound('The invitation was not found.');

/**
 * Refuses (422 on `invitations.{n}.email`, or `email` for one) an address that is the owner's own,
 * a member's, already invited and pending in this team, or given twice; then the member limit;
 * last, takes the outgoing-mail budget for every address (a mail or a notification: either reaches
 * someone else), so nothing may refuse the invitations after it. Call it before saving anything.
 */
export async function checkInvitations(ctx: AppContext, owner: User, team: q.TeamRow | null, list: NewInvitation[], single = false): Promise<void> {
  const field = (n: number) => (single ? 'email' : `invitations.${n}.email`);
  const members = team ? new Set((await q.membersOf(ctx.db, [team.id])).map((m) => m.email.toLowerCase())) : new Set<string>();
  const at = now(ctx);
  const pending = team ? new Set((await q.pendingInvitationsOf(ctx.db, [team.id])).filter((i) => i.expires_at > at).map((i) => i.email)) : new Set<string>();
  const seen = new Set<string>();
  for (const [n, { email }] of list.entries()) {
    if (email === owner.email.toLowerCase()) throw validationError({ [field(n)]: ['You own this team folder: invite someone else.'] });
    if (members.has(email)) throw validationError({ [field(n)]: ['This person is a member already.'] });
    if (pending.has(email)) throw validationError({ [field(n)]: ['This address has an open invitation already.'] });
    if (seen.has(email)) throw validationError({ [field(n)]: ['This address is in the list twice.'] });
    seen.add(email);
  }
  await requireRoomFor(ctx, owner, [...seen]);
  if (seen.size) await takeUserMail(ctx, owner, [...seen], single ? 'email' : 'invitations');
}

/** Stores the invitations and tells each address (notification or mail). Check them first (`checkInvitations`). */
export async function inviteAll(ctx: AppContext, owner: User, team: q.TeamRow, list: NewInvitation[]): Promise<q.InvitationRow[]> {
  if (!list.length) return [];
  const accounts = new Map<string, User | undefined>();
  for (const { email } of list) accounts.set(email, await findUserByEmail(ctx, email));
  const settings = await getSettings(ctx);
  const at = ctx.clock.now();
  const expires = new Date(at.getTime() + settings.team_invitation_expiry_days * 86_400_000).toISOString();
  const rows = list.map((i): q.InvitationRow => ({
    id: generateSecret(20),
    team_id: team.id,
    email: i.email,
    permission: i.permission,
    inviter_id: owner.id,
    status: 'pending',
    expires_at: expires,
    created_at: at.toISOString(),
    responded_at: null,
  }));
  await ctx.db.transaction().execute(async (tx) => {
    for (const row of rows) await q.insertInvitation(tx, row);
  });
  const folder = await findItem(ctx.db, team.folder_id);
  const folderName = folder?.name ?? '';
  const sender = displayName(owner.name);
  // The budget was taken for every address (checkInvitations): a notification to an account, else a mail with the link.
  for (const row of rows) {
    const account = accounts.get(row.email);
    if (account) {
      await createNotification(ctx, {
        userId: account.id,
        category: 'team-invitation',
        title: 'Team folder invitation',
        description: `${sender} invited you to the team folder "${folderName}".`,
        action: { type: 'invitation', params: { id: row.id, route: 'team-folder-invitation', button: 'accept' } },
      });
      continue;
    }
    const link = `${ctx.config.appUrl.origin}/team-folder-invitation/${row.id}`;
    await ctx.mailer
      .send({
        to: row.email,
        subject: `${sender} invited you to a team folder`,
        text: `${sender} invited you to the team folder "${folderName}".\n\nJoin it here: ${link}\n`,
        html: `${htmlParagraphs(`${sender} invited you to the team folder "${folderName}".`)}\n<p><a href="${escapeHtml(link)}">Join the team folder</a></p>`,
      })
      .catch((error: unknown) => ctx.logger.error({ err: error, to: row.email }, 'team invitation mail failed'));
  }
  return rows;
}

/**
 * The team whose folder is `folderId`, when `user` owns it and the folder is outside the trash;
 * else 404 (a member, a stranger, no team alike). A team folder in the trash is out of sight, as
 * in the lists and the browsing: nobody is invited to it, nor its team changed, until it is restored.
 */
export async function requireOwnTeam(ctx: AppContext, user: User, folderId: string): Promise<q.TeamRow> {
  requireUnscoped(user);
  const team = UUID.test(folderId) ? await q.findTeamByFolder(ctx.db, folderId) : undefined;
  if (!team || team.owner_id !== user.id || (await findItem(ctx.db, team.folder_id))?.deleted_at !== null) throw notFound('The team folder was not found.');
  return team;
}

export async function inviteMember(ctx: AppContext, user: User, folderId: string, input: NewInvitation) {
  const team = await requireOwnTeam(ctx, user, folderId);
  await checkInvitations(ctx, user, team, [input], true);
  const [row] = await inviteAll(ctx, user, team, [input]);
  return presentInvitation(row!, now(ctx));
}

export async function revokeInvitation(ctx: AppContext, user: User, folderId: string, invitationId: string): Promise<void> {
  const team = await requireOwnTeam(ctx, user, folderId);
  const invitation = INVITATION_ID.test(invitationId) ? await q.findInvitation(ctx.db, invitationId) : undefined;
  if (!invitation || invitation.team_id !== team.id) throw invitationNotFound();
  if (invitation.status !== 'pending' || !(await q.respondToInvitation(ctx.db, invitation.id, 'revoked', now(ctx)))) {
    throw new AppError(409, 'This invitation is not open any more.');
  }
  await q.clearInvitationNotifications(ctx.db, invitation.id);
}

// --- the invited ------------------------------------------------------------------------------

async function findOpen(ctx: AppContext, id: string): Promise<{ invitation: q.InvitationRow; team: q.TeamRow }> {
  const invitation = INVITATION_ID.test(id) ? await q.findInvitation(ctx.db, id) : undefined;
  const team = invitation && (await q.findTeam(ctx.db, invitation.team_id));
  if (!invitation || !team) throw invitationNotFound();
  return { invitation, team };
}

/**
 * What the public invitation page shows: open to visitors, who hold the link. The invited account,
 * signed in, also gets the folder's id, so the page leads it straight into the team.
 */
export async function describeInvitation(ctx: AppContext, id: string, viewer: User | null = null) {
  const { invitation, team } = await findOpen(ctx, id);
  const [folder, inviter, account] = await Promise.all([
    findItem(ctx.db, team.folder_id),
    invitation.inviter_id ? findUserById(ctx, invitation.inviter_id) : undefined,
    findUserByEmail(ctx, invitation.email),
  ]);
  return {
    ...presentInvitation(invitation, now(ctx)),
    folder: { name: folder?.name ?? '', ...(viewer && viewer.email.toLowerCase() === invitation.email ? { id: team.folder_id } : {}) },
    inviter: inviter ? { name: inviter.name, avatar: avatarUrls(inviter), color: inviter.color } : null,
    has_account: !!account,
  };
}

/** Refuses an invitation that is not the user's to answer or not open (410 with a code). */
function requireAnswerable(ctx: AppContext, user: User, invitation: q.InvitationRow): void {
  if (invitation.email !== user.email.toLowerCase()) {
    throw new AppError(403, 'This invitation was sent to another email address.', { code: 'invitation_other_account' });
  }
  const status = invitationStatus(invitation, now(ctx));
  if (status === 'expired') throw new AppError(410, 'This invitation has expired.', { code: 'invitation_expired' });
  if (status === 'revoked') throw new AppError(410, 'This invitation was withdrawn.', { code: 'invitation_revoked' });
  if (status !== 'pending') throw new AppError(410, 'This invitation has been answered already.', { code: 'invitation_used' });
}

const used = () => new AppError(410, 'This invitation has been answered already.', { code: 'invitation_used' });

export async function acceptInvitation(ctx: AppContext, user: User, id: string): Promise<{ folder_id: string; team_id: string; permission: TeamPermission }> {
  requireUnscoped(user);
  const { invitation, team } = await findOpen(ctx, id);
  requireAnswerable(ctx, user, invitation);
  assertEmailVerified(user, await getSettings(ctx));
  await join(ctx, user, invitation, team);
  return { folder_id: team.folder_id, team_id: team.id, permission: invitation.permission };
}

async function join(ctx: AppContext, user: User, invitation: q.InvitationRow, team: q.TeamRow): Promise<void> {
  const at = now(ctx);
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await q.respondToInvitation(tx, invitation.id, 'accepted', at))) throw used();
    if (!(await q.insertMember(tx, { team_id: team.id, user_id: user.id, permission: invitation.permission, created_at: at }))) {
      await q.setMemberPermission(tx, team.id, user.id, invitation.permission);
    }
    await q.clearInvitationNotifications(tx, invitation.id);
  });
  const folder = await findItem(ctx.db, team.folder_id);
  await createNotification(ctx, {
    userId: team.owner_id,
    category: 'team-member-joined',
    title: 'A member joined your team folder',
    description: `${user.name} joined the team folder "${folder?.name ?? ''}".`,
    action: { type: 'route', params: { id: team.folder_id, route: 'TeamFolders', button: 'Open' } },
  });
}

export async function declineInvitation(ctx: AppContext, user: User, id: string): Promise<void> {
  requireUnscoped(user);
  const { invitation } = await findOpen(ctx, id);
  requireAnswerable(ctx, user, invitation);
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await q.respondToInvitation(tx, invitation.id, 'declined', now(ctx)))) throw used();
    await q.clearInvitationNotifications(tx, invitation.id);
  });
}

/**
 * A new account: the open invitations to its address are accepted when the address counts as its
 * own (verified, or verification not required); otherwise each becomes a notification to accept
 * once verified.
 */
export async function welcomeInvitedAccount(ctx: AppContext, userId: string): Promise<void> {
  const user = await findUserById(ctx, userId);
  if (!user) return;
  const open = await q.openInvitationsTo(ctx.db, user.email.toLowerCase(), now(ctx));
  if (!open.length) return;
  const verified = !verificationPending(user, await getSettings(ctx));
  for (const invitation of open) {
    const team = await q.findTeam(ctx.db, invitation.team_id);
    if (!team) continue;
    if (verified) {
      await join(ctx, user, invitation, team).catch((error: unknown) => ctx.logger.warn({ err: error, invitation: invitation.id }, 'could not accept an invitation at sign-up'));
      continue;
    }
    const folder = await findItem(ctx.db, team.folder_id);
    await createNotification(ctx, {
      userId: user.id,
      category: 'team-invitation',
      title: 'Team folder invitation',
      description: `You were invited to the team folder "${folder?.name ?? ''}".`,
      action: { type: 'invitation', params: { id: invitation.id, route: 'team-folder-invitation', button: 'accept' } },
    });
  }
}

/** Listens for new accounts (main.ts); answers the function that stops listening. */
export function startTeamSignUps(ctx: AppContext): () => void {
  return ctx.events.on('user.registered', ({ userId }) => {
    welcomeInvitedAccount(ctx, userId).catch((error: unknown) => ctx.logger.error({ err: error, userId }, 'team invitations at sign-up failed'));
  });
}
