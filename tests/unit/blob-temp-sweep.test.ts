import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalBlobStore } from '../../src/server/blobs/store.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'cd-blob-sweep-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const temporary = () => readdir(path.join(root, '.tmp')).catch(() => [] as string[]);

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('sweeping temporary blob files', () => {
  it('removes stale files no live write holds, and never the file of a write still in progress', async () => {
    const store = createLocalBlobStore(root);
    const source = new PassThrough();
    const put = store.put('files/u/live', source);
    source.write(Buffer.alloc(1000, 1));
    await until(async () => (await temporary()).length === 1, 'the temporary file');
    const [live] = await temporary();
    // A write from a process that died: old, and nobody writes it.
    const stray = path.join(root, '.tmp', 'stray');
    await writeFile(stray, 'half an upload');
    const old = new Date(Date.now() - 3600_000);
    await utimes(stray, old, old);

    // A clock far ahead: both look stale, but only the stray one may go.
    expect(await store.sweepTemporary!(new Date(Date.now() + 3600_000))).toBe(1);
    expect(await temporary()).toEqual([live]);
    // Fresh files stay whoever wrote them.
    await writeFile(stray, 'another');
    expect(await store.sweepTemporary!(new Date(Date.now() - 60_000))).toBe(0);
    await rm(stray);

    source.end(Buffer.alloc(1000, 2));
    expect((await put).size).toBe(2000);
    expect(await temporary()).toEqual([]);
    expect(await store.stat('files/u/live')).toMatchObject({ size: 2000 });
  });
});
