import { randomUUID } from 'node:crypto';
import type { User } from '../../auth/sessions.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { createPasswordResetLink, dropPasswordResetLink, INVITATION_LIFETIME_MS } from '../../auth/reset-links.ts';
import { sendVerificationEmail } from '../../auth/service.ts';
import { weakPasswordMessage } from '../../auth/strength.ts';
import { generateSecret } from '../../auth/tokens.ts';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { colorFor } from '../../users/colors.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';
import { sendInvitationMail } from './mails.ts';
import { presentAdminUserFor } from './presenter.ts';
import { emailTaken, findUserRow, insertUserRow, isUniqueViolation } from './queries.ts';
import { CreateUserInput } from './schemas.ts';

export const emailTakenError = () => validationError({ email: ['The email has already been taken.'] });

/**
 * An admin makes an account: with the password they chose (strength-checked for the role; the
 * address verified at once when they say so, else the usual verification mail goes out), or with
 * an invitation mail whose link (a set-password link valid a week) lets the person choose one;
 * until then the account has an unguessable random password and an unverified address.
 */
export async function createUserAsAdmin(ctx: AppContext, actor: User, body: unknown) {
  requireAdmin(actor);
  const input = validate(CreateUserInput, body);
  if (input.password !== undefined) {
    const weak = weakPasswordMessage(input.password, [input.name, input.email], input.role);
    if (weak) throw validationError({ password: [weak] });
  }
  if (await emailTaken(ctx.db, input.email)) throw emailTakenError();
  const passwordHash = await hashPassword(input.password ?? generateSecret(32));
  const id = randomUUID();
  const now = ctx.clock.now().toISOString();
  let invitation: string | null = null;
  try {
    await ctx.db.transaction().execute(async (tx) => {
      if (await emailTaken(tx, input.email)) throw emailTakenError();
      await insertUserRow(tx, {
        id,
        email: input.email,
        name: input.name,
        password_hash: passwordHash,
        role: input.role,
        color: colorFor(id),
        email_verified_at: input.verified ? now : null,
        storage_limit_bytes: input.storage_limit_bytes,
        created_at: now,
        updated_at: now,
      });
      if (input.send_invitation) invitation = await createPasswordResetLink(ctx, tx, { id, email: input.email }, INVITATION_LIFETIME_MS);
      await recordAudit(ctx, tx, actor, {
        action: 'user.create',
        target_type: 'user',
        target_id: id,
        target_label: input.email,
        after: { name: input.name, email: input.email, role: input.role, verified: input.verified, invitation: input.send_invitation, storage_limit_bytes: input.storage_limit_bytes },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTakenError();
    throw error;
  }
  const created = (await findUserRow(ctx.db, id))!;
  let invitationSent: boolean | null = null;
  if (invitation) {
    try {
      await sendInvitationMail(ctx, created, invitation);
      invitationSent = true;
    } catch (error) {
      // The account stays; the admin hears the mail did not go, and can send a link from the password tab.
      ctx.logger.warn({ err: error, userId: id }, 'invitation not sent');
      await dropPasswordResetLink(ctx.db, invitation);
      invitationSent = false;
    }
  } else if (!created.email_verified_at) {
    await sendVerificationEmail(ctx, created);
  }
  const result = presentAdminUserFor(actor, created);
  return { data: result.data, meta: { ...result.meta, invitation_sent: invitationSent } };
}
