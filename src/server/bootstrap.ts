import { createUser } from './auth/service.ts';
import type { AppContext } from './context.ts';
import { findUserByEmail, updateUser } from './users/queries.ts';

/** ADMIN_EMAIL + ADMIN_PASSWORD on start create (or promote) that admin account, for unattended installs. */
export async function bootstrapAdmin(ctx: AppContext): Promise<void> {
  const admin = ctx.config.bootstrapAdmin;
  if (!admin) return;
  const existing = await findUserByEmail(ctx, admin.email);
  if (existing) {
    if (existing.role !== 'admin') await updateUser(ctx, existing.id, { role: 'admin' });
    return;
  }
  await createUser(ctx, { ...admin, role: 'admin', verified: true });
  ctx.logger.info({ email: admin.email }, 'admin account created');
}
