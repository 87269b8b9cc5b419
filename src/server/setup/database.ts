import { writeFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DB } from '../../../db/index.ts';
import { storedDatabaseUrlFile } from '../config/env.ts';
import type { AppContext } from '../context.ts';
import { validationError } from '../http/errors.ts';

/**
 * The database step's PostgreSQL choice: connect, migrate, then switch this process over and write
 * the URL to DATA_DIR/database.url so the next start uses it. Any failure leaves everything as it was.
 */
export async function switchToPostgres(ctx: AppContext, url: string): Promise<void> {
  if (ctx.config.databaseSource === 'env') {
    throw validationError({ database_url: ['DATABASE_URL is set in the environment: change the database there.'] });
  }
  const db = await preparePostgres(url);
  await writeFile(storedDatabaseUrlFile(ctx.config.dataDir), url + '\n', { mode: 0o600 });
  const previous = ctx.db;
  ctx.db = db;
  ctx.config = { ...ctx.config, database: { dialect: 'postgres', url }, databaseSource: 'data-dir' };
  // Requests already running on the old database finish first.
  setTimeout(() => void previous.destroy().catch(() => {}), 5_000).unref();
  ctx.logger.info('setup: switched to PostgreSQL');
}

/** Connects to a PostgreSQL URL and brings its tables up to date; a 422 on the URL field when either fails. */
export async function preparePostgres(url: string): Promise<DB> {
  let db: DB | null = null;
  try {
    db = await openDatabase({ dialect: 'postgres', url });
    await sql`select 1`.execute(db);
  } catch (error) {
    await db?.destroy().catch(() => {});
    throw validationError({ database_url: [`Could not connect to the database: ${describe(error)}`] });
  }
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw validationError({ database_url: [`Connected, but the tables could not be created: ${describe(error)}`] });
  }
  return db;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Never echo a password back, even the one just typed.
  return message.replace(/postgres(ql)?:\/\/[^\s]+/g, 'postgres://…').slice(0, 300) || 'unknown error';
}
