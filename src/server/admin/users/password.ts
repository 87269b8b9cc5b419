import type { Session, User } from '../../auth/sessions.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { createPasswordResetLink, dropPasswordResetLink } from '../../auth/reset-links.ts';
import { weakPasswordMessage } from '../../auth/strength.ts';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';
import { sendAdminResetMail } from './mails.ts';
import { dropPasswordResets, endSessionsAndTokens, updateUserRow } from './queries.ts';
import { UserPasswordInput } from './schemas.ts';
import { findTarget } from './target.ts';

/**
 * The password tab: set a new password (strength-checked for the account's role), or mail a link
 * to choose one (the password stays until it is used). Either way every session and access token
 * of the account ends, but the acting admin's own session when it is their own account. A mail
 * that cannot go changes nothing. Audited as `user.password`.
 */
export async function changeUserPassword(ctx: AppContext, actor: User, actorSession: Session | null, id: string | undefined, body: unknown) {
  requireAdmin(actor);
  const target = await findTarget(ctx, id);
  const input = validate(UserPasswordInput, body);
  const keep = target.id === actor.id ? (actorSession?.id ?? null) : null;
  let passwordHash: string | null = null;
  if (input.action === 'set') {
    const weak = weakPasswordMessage(input.password, [target.name, target.email], target.role);
    if (weak) throw validationError({ password: [weak] });
    passwordHash = await hashPassword(input.password);
  } else {
    const link = await createPasswordResetLink(ctx, ctx.db, target);
    try {
      await sendAdminResetMail(ctx, target, link);
    } catch (error) {
      await dropPasswordResetLink(ctx.db, link);
      throw error;
    }
  }
  const ended = await ctx.db.transaction().execute(async (tx) => {
    if (passwordHash) {
      await updateUserRow(tx, target.id, { password_hash: passwordHash, updated_at: ctx.clock.now().toISOString() });
      // Links mailed before for the old password would set another one over the admin's.
      await dropPasswordResets(tx, target.id);
    }
    const counts = await endSessionsAndTokens(tx, target.id, keep);
    await recordAudit(ctx, tx, actor, {
      action: 'user.password',
      target_type: 'user',
      target_id: target.id,
      target_label: target.email,
      // (No field named like a token: the audit would redact the count.)
      after: { method: input.action, ended_sessions: counts.sessions, revoked_api_access: counts.tokens },
    });
    return counts;
  });
  return { meta: { action: input.action, sessions_ended: ended.sessions, access_tokens_revoked: ended.tokens } };
}
