import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { migrations } from '../migrations/index.ts';
import { heldSync } from '../src/server/fs/flush.ts';
import type { Config } from '../src/server/config/env.ts';
import { checkpointInBackground } from './checkpoints.ts';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;
export type { Database } from './schema.ts';

/** The pieces of a pg Pool the metrics read (src/server/metrics/registry.ts). */
export interface PoolUse {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  /** The pool's size limit (pg's `options.max`). */
  readonly options: { readonly max?: number };
}

const pools = new WeakMap<DB, PoolUse>();

/** The PostgreSQL pool behind `db`; null on SQLite (one connection, no pool). */
export function pgPoolOf(db: DB): PoolUse | null {
  return pools.get(db) ?? null;
}

/** Opens the database that `DATABASE_URL` names: a SQLite file by default, PostgreSQL for postgres:// URLs. */
export async function openDatabase(database: Config['database']): Promise<DB> {
  if (database.dialect === 'postgres') {
    const { default: pg } = await import('pg');
    // Integers beyond 2^31 (bigint counts, sums of sizes) come back as numbers, not strings.
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: database.url, max: 10, connectionTimeoutMillis: 10_000 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return db;
  }
  const { default: SQLite } = await import('better-sqlite3');
  mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  // A file database: its log is flushed through a handle kept while this connection is open
  // (SQLite removes the write-ahead log only when the last connection closes, so it is never
  // replaced under the handle), and checkpoints run in the background. In memory, neither.
  const onDisk = database.file !== ':memory:';
  const log = onDisk ? heldSync(`${database.file}-wal`) : null;
  const stopCheckpoints = onDisk ? checkpointInBackground(sqlite, database.file) : () => {};
  const beforeClose = () => {
    void log?.close().catch(() => undefined);
    stopCheckpoints();
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, beforeClose) }) });
  if (log) logs.set(db, log.sync);
  return db;
}

const logs = new WeakMap<DB, () => Promise<void>>();

/**
 * Flushes SQLite's write-ahead log to the disk (fdatasync), shared by every caller that arrives
 * while one runs (group commit): what was committed before the call survives a power cut once it
 * resolves. Nothing to do on PostgreSQL (it flushes at every commit) or an in-memory database.
 */
export function flushLog(db: DB): Promise<void> {
  return logs.get(db)?.() ?? Promise.resolve();
}

type Sqlite = import('better-sqlite3').Database;
type Statement = ReturnType<Sqlite['prepare']>;

/**
 * better-sqlite3 behind a bounded cache of prepared statements. Kysely's SQLite driver prepares
 * every query afresh, which cost about a tenth of the server's time per small upload; the same
 * query text comes back on every request. A statement still being iterated (a streamed select)
 * is busy, so a second user of the same text gets a fresh one. Transactions begin IMMEDIATE.
 */
function withStatementCache(db: Sqlite, beforeClose: () => void, size = 500): { close(): void; prepare(sql: string): Statement } {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      beforeClose();
      db.close();
    },
    prepare(text) {
      // Kysely opens a transaction with a plain BEGIN (deferred): one that reads, then writes after
      // another process (a CLI, a second app process, a test seeding the same file) committed, fails
      // at once with SQLITE_BUSY, which busy_timeout does not wait out. Taking the write lock at the
      // start makes the other writer wait its turn instead.
      const sql = text === 'begin' ? 'begin immediate' : text;
      const hit = cache.get(sql);
      if (hit && !hit.busy) {
        cache.delete(sql); // most recently used goes last
        cache.set(sql, hit);
        return hit;
      }
      const statement = db.prepare(sql);
      if (!hit) {
        cache.set(sql, statement);
        if (cache.size > size) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
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
