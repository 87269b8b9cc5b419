import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushLog, openDatabase } from '../../db/index.ts';
import { openDescriptors } from '../support/descriptors.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cd-flush-log-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('flushLog (what an upload waits for before its 201, uploads/durable.ts)', () => {
  it("flushes a SQLite database's write-ahead log through one handle held until the database closes", async () => {
    const file = path.join(dir, 'database.sqlite');
    const db = await openDatabase({ dialect: 'sqlite', file });
    await sql`create table t (x integer)`.execute(db);
    await sql`insert into t values (1)`.execute(db);
    // SQLite's own descriptor of the log, then one more of ours, whatever the number of flushes.
    const own = await openDescriptors(`${file}-wal`);
    await Promise.all([flushLog(db), flushLog(db)]);
    await flushLog(db);
    expect(await openDescriptors(`${file}-wal`)).toBe(own + 1);
    await db.destroy();
    await expect.poll(() => openDescriptors(`${file}-wal`)).toBe(0);
  });

  it('has nothing to flush for an in-memory database', async () => {
    const db = await openDatabase({ dialect: 'sqlite', file: ':memory:' });
    await expect(flushLog(db)).resolves.toBeUndefined();
    await db.destroy();
  });
});
