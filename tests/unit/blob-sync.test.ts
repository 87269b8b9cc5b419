import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSync } from '../../src/server/blobs/sync.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cd-blob-sync-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sharedSync (group commit of fsyncs)', () => {
  it('gives callers that arrive while a flush runs one shared next flush, then starts afresh', async () => {
    const sync = sharedSync();
    const first = sync(dir);
    const second = sync(dir);
    const third = sync(dir);
    // The second and third asked while the first ran: both wait for the same, later flush.
    expect(second).toBe(third);
    expect(second).not.toBe(first);
    await Promise.all([first, second, third]);
    // Nothing running any more: a new caller starts its own flush at once.
    const fourth = sync(dir);
    expect(fourth).not.toBe(second);
    await fourth;
  });

  it('keeps paths apart, refuses a missing path, and passes one over when told to', async () => {
    const sync = sharedSync();
    const other = path.join(dir, 'sub');
    await mkdir(other);
    await expect(sync(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    const here = sync(dir);
    const there = sync(other);
    expect(there).not.toBe(here);
    await Promise.all([here, there]);
    await expect(sharedSync({ data: true, missingIsFine: true })(path.join(dir, 'missing-wal'))).resolves.toBeUndefined();
  });
});
