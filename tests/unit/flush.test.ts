import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grouped, heldSync, sharedSync } from '../../src/server/fs/flush.ts';
import { openDescriptors } from '../support/descriptors.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cd-flush-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('grouped (group commit of one flush)', () => {
  it('gives callers that arrive while a flush runs one shared next flush, then starts afresh', async () => {
    const releases: (() => void)[] = [];
    let runs = 0;
    const flush = grouped(
      () =>
        new Promise<void>((resolve) => {
          runs += 1;
          releases.push(resolve);
        }),
    );
    const first = flush();
    const second = flush();
    const third = flush();
    // The second and third asked while the first ran: both wait for the same, later flush.
    expect(second).toBe(third);
    expect(second).not.toBe(first);
    expect(runs).toBe(1);
    releases.shift()!();
    await first;
    await expect.poll(() => runs).toBe(2);
    releases.shift()!();
    await Promise.all([second, third]);
    // Nothing running any more: a new caller starts its own flush at once.
    const fourth = flush();
    expect(runs).toBe(3);
    releases.shift()!();
    await fourth;
  });

  it('a failed flush fails its callers only; the next one runs', async () => {
    let fail = true;
    const flush = grouped(async () => {
      if (fail) throw new Error('disk gone');
    });
    const first = flush();
    const second = flush();
    fail = false;
    await expect(first).rejects.toThrow('disk gone');
    await expect(second).resolves.toBeUndefined();
  });
});

describe('sharedSync (directories, by path)', () => {
  it('keeps paths apart and refuses a missing path', async () => {
    const sync = sharedSync();
    const other = path.join(dir, 'sub');
    await mkdir(other);
    await expect(sync(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    await Promise.all([sync(dir), sync(other), sync(dir)]);
    // No descriptor is kept: each flush opens and closes the folder.
    expect(await openDescriptors(dir)).toBe(0);
  });
});

describe('heldSync (the write-ahead log)', () => {
  it('passes a missing file over, then keeps one handle across flushes until closed', async () => {
    const file = path.join(dir, 'database.sqlite-wal');
    const log = heldSync(file);
    await expect(log.sync()).resolves.toBeUndefined();
    expect(await openDescriptors(file)).toBe(0);
    await writeFile(file, 'frames');
    await Promise.all([log.sync(), log.sync(), log.sync()]);
    await log.sync();
    expect(await openDescriptors(file)).toBe(1);
    await log.close();
    expect(await openDescriptors(file)).toBe(0);
    // Closed: a late flush does nothing and opens nothing.
    await log.sync();
    expect(await openDescriptors(file)).toBe(0);
  });
});
