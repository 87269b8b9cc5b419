import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { migrations } from '../migrations/index.ts';
import type { Config } from '../src/server/config/env.ts';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;
export type { Database } from './schema.ts';

/** Opens the database that `DATABASE_URL` names: a SQLite file by default, PostgreSQL for postgres:// URLs. */
export async function openDatabase(database: Config['database']): Promise<DB> {
  if (database.dialect === 'postgres') {
    const { default: pg } = await import('pg');
    // Integers beyond 2^31 (bigint counts, sums of sizes) come back as numbers, not strings.
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: database.url, max: 10, connectionTimeoutMillis: 10_000 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const { default: SQLite } = await import('better-sqlite3');
  mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

export function migrator(db: DB): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** Runs pending migrations; throws with the failing migration's name. */
export async function migrateToLatest(db: DB): Promise<MigrationResultSet> {
  const result = await migrator(db).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}
