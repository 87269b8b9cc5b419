import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../../db/index.ts';
import { loadConfig } from '../../src/server/config/env.ts';
import { pgUrlOf, untilDisconnected, withPgAdmin } from './server.ts';

/**
 * vitest's global setup for the PostgreSQL project: migrates one database once per run, and every
 * test server's database is copied from it (`create database … template`, tests/support/server.ts)
 * instead of running every migration again. Dropped when the run ends.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const name = `cd_template_${randomBytes(6).toString('hex')}`;
  await withPgAdmin((admin) => admin.query(`create database ${name}`));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cd-template-'));
  try {
    const config = await loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgUrlOf(name), LOG_LEVEL: 'silent' }, dataDir);
    const db = await openDatabase(config.database);
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  await withPgAdmin((admin) => untilDisconnected(admin, name));
  process.env.TEST_PG_TEMPLATE = name;
  return async () => {
    await withPgAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
  };
}
