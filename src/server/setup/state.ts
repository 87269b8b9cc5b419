import type { DB } from '../../../db/index.ts';
import type { AppContext } from '../context.ts';

/** SPEC §3: a new instance is `installation-needed` until the wizard (or `npm run setup`) finishes. */
export type InstallationState = 'installation-needed' | 'installation-done';

const INSTALLATION_KEY = 'installation';
// Installed is for ever: once seen, no more lookups for this context.
const installed = new WeakSet<AppContext>();

export async function installationState(ctx: AppContext): Promise<InstallationState> {
  if (installed.has(ctx)) return 'installation-done';
  const state = await readInstallationState(ctx.db);
  if (state === 'installation-done') installed.add(ctx);
  return state;
}

export async function readInstallationState(db: DB): Promise<InstallationState> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', INSTALLATION_KEY).executeTakeFirst();
  return row?.value === JSON.stringify('installation-done') ? 'installation-done' : 'installation-needed';
}

/** Marks the database installed. Only ever moves forward: there is no way back to installation-needed. */
export async function markInstalled(db: DB): Promise<void> {
  const value = JSON.stringify('installation-done');
  await db
    .insertInto('settings')
    .values({ key: INSTALLATION_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
