// npm run migrate: applies pending migrations to the database DATABASE_URL names (SQLite in DATA_DIR by default).
import { migrateToLatest, openDatabase } from '../db/index.ts';
import { ConfigError, loadConfig } from '../src/server/config/env.ts';

try {
  const config = await loadConfig();
  const db = await openDatabase(config.database);
  const { results } = await migrateToLatest(db);
  for (const r of results ?? []) console.log(`${r.status === 'Success' ? 'applied' : r.status}: ${r.migrationName}`);
  if (!results?.length) console.log('nothing to migrate');
  await db.destroy();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
