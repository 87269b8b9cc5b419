import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../db/index.ts';
import { loadConfig } from '../../src/server/config/env.ts';
import { PG_ADMIN_URL } from './server.ts';

/**
 * vitest's global setup for the PostgreSQL project: migrates one database once per run, and every
 * test server's database is copied from it (`create database … template`, tests/support/server.ts)
 * instead of running every migration again. Dropped when the run ends.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const name = `cd_template_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cd-template-'));
  try {
    const config = await loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url.href, LOG_LEVEL: 'silent' }, dataDir);
    const db = await openDatabase(config.database);
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  // A template must have no connection while it is copied; a closed pool's sockets may still be closing.
  for (let i = 0; i < 40 && (await connections(name)) > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  process.env.TEST_PG_TEMPLATE = name;
  return async () => {
    await admin(`drop database if exists ${name} with (force)`);
  };
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function connections(name: string): Promise<number> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
    return rows[0].n;
  } finally {
    await client.end();
  }
}
