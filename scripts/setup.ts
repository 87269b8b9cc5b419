// npm run setup -- --admin-email you@example.com --admin-password '...' [--admin-name 'Your Name'] [--database-url postgres://...] [--app-name 'My Drive']
// The setup wizard's work from the command line, for unattended deploys. Run it with the server's DATA_DIR.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { migrateToLatest } from '../db/index.ts';
import { createUser } from '../src/server/auth/service.ts';
import { completeUnattended } from '../src/server/bootstrap.ts';
import { commandLine } from '../src/server/config/command-line.ts';
import { ConfigError, loadConfig, storedDatabaseUrlFile } from '../src/server/config/env.ts';
import { createContext } from '../src/server/context.ts';
import { isAppError } from '../src/server/http/errors.ts';
import { preparePostgres } from '../src/server/setup/database.ts';
import { AdminSetupInput } from '../src/server/setup/schemas.ts';
import { readInstallationState } from '../src/server/setup/state.ts';

const USAGE = `Usage: ${commandLine('setup')} --admin-email <email> --admin-password <password> [--admin-name <name>] [--database-url postgres://…] [--app-name <name>]`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

const { values } = parseArgs({
  options: {
    'admin-email': { type: 'string' },
    'admin-password': { type: 'string' },
    'admin-name': { type: 'string', default: 'Admin' },
    'database-url': { type: 'string' },
    'app-name': { type: 'string' },
  },
});

const admin = AdminSetupInput.safeParse({ name: values['admin-name'], email: values['admin-email'], password: values['admin-password'], password_confirmation: values['admin-password'] });
if (!admin.success) fail(`${admin.error.issues.map((i) => `  ${String(i.path[0] ?? '')}: ${i.message}`).join('\n')}\n${USAGE}`, 2);
const appName = values['app-name']?.trim();
if (appName !== undefined && (appName.length < 1 || appName.length > 60)) fail(`  app-name: 1 to 60 characters\n${USAGE}`, 2);

try {
  let config = await loadConfig();
  const url = values['database-url'];
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) fail('  database-url: must be a postgres:// URL (leave it out to keep the embedded SQLite database)', 2);
    if (config.databaseSource === 'env') fail('DATABASE_URL is set in the environment: leave out --database-url or unset it.', 2);
    const pgDb = await preparePostgres(url);
    const state = await readInstallationState(pgDb);
    await pgDb.destroy();
    if (state === 'installation-done') fail('That database is already installed.');
    await writeFile(storedDatabaseUrlFile(config.dataDir), url + '\n', { mode: 0o600 });
    config = await loadConfig();
  }
  const ctx = await createContext({ ...config, logLevel: 'warn' });
  await migrateToLatest(ctx.db);
  if ((await readInstallationState(ctx.db)) === 'installation-done') {
    await ctx.db.destroy();
    fail('This instance is already installed: nothing changed.');
  }
  await createUser(ctx, { name: admin.data.name, email: admin.data.email, password: admin.data.password, role: 'admin', verified: true });
  await completeUnattended(ctx, appName ?? null);
  await ctx.db.destroy();
  console.log(`Installed: admin ${admin.data.email}${url ? ', PostgreSQL' : ''}. Start the server with ${commandLine('start')}.`);
} catch (error) {
  if (error instanceof ConfigError) fail(error.message, 2);
  if (isAppError(error)) fail(`${error.message}${error.errors ? '\n' + JSON.stringify(error.errors) : ''}`);
  throw error;
}
