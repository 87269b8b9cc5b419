import { createUser } from './auth/service.ts';
import type { AppContext } from './context.ts';
import { putSetting } from './settings/service.ts';
import { installationState, markInstalled } from './setup/state.ts';
import { ensureSetupToken, removeSetupFiles } from './setup/token.ts';
import { findUserByEmail, updateUser } from './users/queries.ts';

/**
 * At start: ADMIN_EMAIL + ADMIN_PASSWORD create (or promote) that admin account and, on a new
 * instance, finish the installation unattended. A new instance without them prints the setup
 * wizard's one-time token in the log.
 */
export async function bootstrapAdmin(ctx: AppContext): Promise<void> {
  const admin = ctx.config.bootstrapAdmin;
  if (admin) {
    const existing = await findUserByEmail(ctx, admin.email);
    if (existing) {
      if (existing.role !== 'admin') await updateUser(ctx, existing.id, { role: 'admin' });
    } else {
      await createUser(ctx, { ...admin, role: 'admin', verified: true });
      ctx.logger.info({ email: admin.email }, 'admin account created');
    }
    if ((await installationState(ctx)) === 'installation-needed') await completeUnattended(ctx, ctx.config.bootstrapAppName);
  }
  if ((await installationState(ctx)) === 'installation-needed') {
    const token = await ensureSetupToken(ctx.config.dataDir);
    const url = new URL('/install', ctx.config.appUrl).href;
    ctx.logger.warn({ setup_url: url, setup_token: token }, `installation needed: open ${url} and enter the setup token ${token}`);
  }
}

/** The end of an unattended install (environment or `npm run setup`): app name, then installation-done. */
export async function completeUnattended(ctx: AppContext, appName: string | null): Promise<void> {
  if (appName) await putSetting(ctx, 'app_name', appName);
  await markInstalled(ctx.db);
  await removeSetupFiles(ctx.config.dataDir);
  ctx.logger.info('installation done (unattended)');
}
