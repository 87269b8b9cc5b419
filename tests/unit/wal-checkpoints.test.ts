import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointInBackground } from '../../db/checkpoints.ts';

// The checkpoint worker runs only while the database changes: started by a write, let go when idle.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function walDatabase() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wal-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER)');
  return { db, file };
}

/** Resolves on the next change of the worker's state, to the new state. */
function recorder() {
  const states: boolean[] = [];
  let wake: (() => void) | null = null;
  return {
    onWorker: (running: boolean) => {
      states.push(running);
      wake?.();
    },
    states,
    async next(count: number) {
      while (states.length < count) await new Promise<void>((resolve) => (wake = resolve));
      return states[count - 1];
    },
  };
}

describe('WAL checkpoints', () => {
  it('start a worker on a change, let it go when idle, and start it again on the next change', async () => {
    const { db, file } = await walDatabase();
    const seen = recorder();
    const stop = checkpointInBackground(db, file, { intervalMs: 10, idleMs: 50, startAfterMs: 0, onWorker: seen.onWorker });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    db.prepare('INSERT INTO t VALUES (1)').run();
    expect(await seen.next(1)).toBe(true);
    expect(await seen.next(2)).toBe(false);
    db.prepare('INSERT INTO t VALUES (2)').run();
    expect(await seen.next(3)).toBe(true);
    // Closing lets the running worker go after its last checkpoint.
    stop();
    expect(seen.states).toEqual([true, false, true, false]);
    db.close();
  });

  it('let a few changed rows wait for more, and start at once for many', async () => {
    const { db, file } = await walDatabase();
    const seen = recorder();
    const stop = checkpointInBackground(db, file, { intervalMs: 10, idleMs: 60_000, startAfterMs: 60_000, startAfterRows: 100, onWorker: seen.onWorker });
    db.prepare('INSERT INTO t VALUES (1)').run();
    // Ticks go by (the worker would have started on the first): 99 rows are still too few.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.states).toEqual([]);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    db.transaction(() => {
      for (let n = 0; n < 98; n += 1) insert.run(n);
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.states).toEqual([]);
    insert.run(99);
    expect(await seen.next(1)).toBe(true);
    stop();
    expect(seen.states).toEqual([true, false]);
    db.close();
  });
});
