import type { Updateable } from 'kysely';
import type { UsersTable } from '../../../../db/schema.ts';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';
import { emailTakenError } from './create.ts';
import { presentAdminUserFor } from './presenter.ts';
import { countAdmins, dropMailedLinks, emailTaken, findUserRow, isUniqueViolation, lockAdminRoles, updateUserRow } from './queries.ts';
import { UpdateUserInput } from './schemas.ts';
import { findTarget, userNotFound } from './target.ts';

export async function getUserForAdmin(ctx: AppContext, actor: User, id: string | undefined) {
  requireAdmin(actor);
  return presentAdminUserFor(actor, await findTarget(ctx, id));
}

/**
 * The details tab: name, email (unique; a new address is unverified unless the admin marks it
 * verified in the same change, and links mailed to the old one stop working), the verified state
 * and the role. Nobody removes their own admin role, and the last admin stays one. Audited as
 * `user.update` (name, email, verified) and `user.role`.
 */
export async function updateUserAsAdmin(ctx: AppContext, actor: User, id: string | undefined, body: unknown) {
  requireAdmin(actor);
  await findTarget(ctx, id);
  const input = validate(UpdateUserInput, body);
  try {
    await ctx.db.transaction().execute(async (tx) => {
      if (input.role) await lockAdminRoles(tx, ctx.config.database.dialect);
      const target = await findUserRow(tx, id!);
      if (!target) throw userNotFound();
      const now = ctx.clock.now().toISOString();
      const patch: Updateable<UsersTable> = {};
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const change = <K extends 'name' | 'email'>(field: K, value: string | undefined) => {
        if (value === undefined || value === target[field]) return;
        patch[field] = value;
        before[field] = target[field];
        after[field] = value;
      };
      change('name', input.name);
      change('email', input.email);
      if (patch.email !== undefined && (await emailTaken(tx, patch.email, target.id))) throw emailTakenError();
      const wasVerified = target.email_verified_at !== null;
      const verified = input.verified ?? (patch.email !== undefined ? false : wasVerified);
      if (verified !== wasVerified) {
        patch.email_verified_at = verified ? now : null;
        before.verified = wasVerified;
        after.verified = verified;
      }
      if (Object.keys(patch).length) {
        await updateUserRow(tx, target.id, { ...patch, updated_at: now });
        if (patch.email !== undefined) await dropMailedLinks(tx, target.id);
        await recordAudit(ctx, tx, actor, { action: 'user.update', target_type: 'user', target_id: target.id, target_label: patch.email ?? target.email, before, after });
      }
      if (input.role && input.role !== target.role) {
        if (target.role === 'admin') {
          if ((await countAdmins(tx)) <= 1) throw validationError({ role: ['This is the only administrator: make someone else an administrator first.'] });
          if (target.id === actor.id) throw validationError({ role: ['You cannot remove your own administrator role: ask another administrator.'] });
        }
        await updateUserRow(tx, target.id, { role: input.role, updated_at: now });
        await recordAudit(ctx, tx, actor, { action: 'user.role', target_type: 'user', target_id: target.id, target_label: patch.email ?? target.email, before: { role: target.role }, after: { role: input.role } });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTakenError();
    throw error;
  }
  return presentAdminUserFor(actor, (await findUserRow(ctx.db, id!))!);
}
