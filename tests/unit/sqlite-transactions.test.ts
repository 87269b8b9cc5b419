import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../db/index.ts';

// A transaction on SQLite holds the write lock from its start, so another process's write waits for
// it (busy_timeout) instead of the transaction failing when it turns from reading to writing.

let dir: string;
let db: DB;
let other: Database.Database;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cd-tx-'));
  const file = path.join(dir, 'db.sqlite');
  db = await openDatabase({ dialect: 'sqlite', file });
  await sql`CREATE TABLE t (n INTEGER)`.execute(db);
  // Another process's connection, which does not wait: a lock it meets is an error at once.
  other = new Database(file);
  other.pragma('busy_timeout = 0');
});
afterAll(async () => {
  other.close();
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

describe('SQLite transactions', () => {
  it('take the write lock when they begin, before their first write', async () => {
    await db.transaction().execute(async (tx) => {
      await sql`SELECT count(*) FROM t`.execute(tx);
      expect(() => other.prepare('INSERT INTO t VALUES (1)').run()).toThrow(/locked|busy/i);
    });
    // Committed: the other connection writes again.
    other.prepare('INSERT INTO t VALUES (2)').run();
    expect(await db.selectFrom('t' as never).select(sql<number>`count(*)`.as('n')).executeTakeFirst()).toEqual({ n: 1 });
  });
});
