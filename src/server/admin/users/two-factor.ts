import { dropChallenges } from '../../auth/second-step.ts';
import type { User } from '../../auth/sessions.ts';
import { clearTwoFactor } from '../../auth/two-factor/manage.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';
import { presentAdminUserFor } from './presenter.ts';
import { findUserRow } from './queries.ts';
import { findTarget } from './target.ts';

/**
 * For a user who lost both their authenticator and their recovery codes: the second factor goes
 * (key, recovery codes, sign-ins waiting for a code), and the password alone signs in again until
 * they set it up anew. Audited as `user.two_factor_reset`.
 */
export async function resetUserTwoFactor(ctx: AppContext, actor: User, id: string | undefined) {
  requireAdmin(actor);
  const target = await findTarget(ctx, id);
  if (target.two_factor_enabled_at === null && target.totp_secret === null) throw new AppError(409, 'This user has no two-factor authentication.');
  await ctx.db.transaction().execute(async (tx) => {
    await clearTwoFactor(tx, target.id);
    await recordAudit(ctx, tx, actor, {
      action: 'user.two_factor_reset',
      target_type: 'user',
      target_id: target.id,
      target_label: target.email,
      before: { two_factor_enabled_at: target.two_factor_enabled_at },
      after: { two_factor_enabled_at: null },
    });
  });
  await dropChallenges(ctx, target.id);
  return presentAdminUserFor(actor, (await findUserRow(ctx.db, target.id)) ?? target);
}
