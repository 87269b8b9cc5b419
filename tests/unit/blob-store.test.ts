import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalBlobStore, type BlobStore } from '../../src/server/blobs/store.ts';
import { loadConfig } from '../../src/server/config/env.ts';
import { openDescriptors } from '../support/descriptors.ts';

describe('local blob store: listing and opening', () => {
  let root: string;
  let store: BlobStore;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cd-blobs-'));
    store = createLocalBlobStore(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const keys = async (prefix?: string) => {
    const found: string[] = [];
    for await (const entry of store.list(prefix)) found.push(entry.key);
    return found.sort();
  };

  it('streams every key with its size and time, skipping temporary files and names that are not keys', async () => {
    await store.put('files/u1/a', Readable.from([Buffer.from('abc')]));
    await store.put('files/u2/b', Readable.from([Buffer.from('de')]));
    await store.put('branding/x.png', Readable.from([Buffer.from('f')]));
    await mkdir(path.join(root, '.tmp'), { recursive: true });
    await writeFile(path.join(root, '.tmp', 'partial'), 'x');
    await writeFile(path.join(root, 'files', 'Not A Key'), 'x');
    expect(await keys()).toEqual(['branding/x.png', 'files/u1/a', 'files/u2/b']);
    expect(await keys('files/')).toEqual(['files/u1/a', 'files/u2/b']);
    expect(await keys('avatars/')).toEqual([]);
    const entries = [];
    for await (const entry of store.list('files/u1/')) entries.push(entry);
    expect(entries).toEqual([{ key: 'files/u1/a', size: 3, modifiedAt: expect.any(Date) }]);
  });

  const temporaryFiles = async () => (await readdir(path.join(root, '.tmp')).catch(() => [])).length;

  // Both ways of writing: through a temporary file, and in place (an upload whose key its intent
  // names, uploads/receive.ts, is written at the key itself).
  for (const { label, options } of [
    { label: 'a put', options: undefined },
    { label: 'an in-place put', options: { inPlace: true } },
  ]) {
    it(`keeps nothing of ${label} whose source closes without ending, and rejects`, async () => {
      const source = new PassThrough();
      source.write(Buffer.alloc(1024, 1));
      const put = store.put('files/u1/cut', source, options);
      setImmediate(() => source.destroy());
      await expect(put).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
      expect(await store.stat('files/u1/cut')).toBeNull();
      expect(await temporaryFiles()).toBe(0);
    });

    it(`keeps nothing of ${label} refused before its file was even opened`, async () => {
      // An upload refused on its first bytes (over quota, a refused type): the source errs while the
      // file's open is still under way. Repeated, since it is a race with that open.
      for (let i = 0; i < 40; i += 1) {
        const source = new Readable({
          read() {
            this.destroy(new Error('refused'));
          },
        });
        await expect(store.put(`files/u1/refused-${i}`, source, options)).rejects.toThrow('refused');
        expect(await temporaryFiles()).toBe(0);
      }
      expect(await readdir(path.join(root, 'files/u1'))).toEqual([]);
    });
  }

  it('destroys the source when the file cannot be written, and keeps nothing', async () => {
    // The temporary folder, known to exist after a first put, is a file now: the write stream's open fails.
    await store.put('files/u1/first', Readable.from([Buffer.from('a')]));
    await rm(path.join(root, '.tmp'), { recursive: true });
    await writeFile(path.join(root, '.tmp'), 'in the way');
    const source = new PassThrough();
    source.end(Buffer.alloc(1024, 1));
    await expect(store.put('files/u1/unwritable', source)).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(source.destroyed).toBe(true);
    expect(await store.stat('files/u1/unwritable')).toBeNull();
  });

  it('writes an in-place put at its key, whole, without a temporary file', async () => {
    const bytes = Buffer.alloc(300 * 1024, 7);
    expect(await store.put('files/u1/direct', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { inPlace: true })).toMatchObject({ size: bytes.length });
    expect(await store.stat('files/u1/direct')).toMatchObject({ size: bytes.length });
    expect(await readdir(path.join(root, '.tmp')).catch(() => null)).toBeNull();
    const opened = (await store.open!('files/u1/direct'))!;
    try {
      const into = Buffer.alloc(bytes.length);
      expect(await opened.read(into, 0, bytes.length, 0)).toBe(bytes.length);
      expect(into.equals(bytes)).toBe(true);
    } finally {
      await opened.close();
    }
  });

  it('rejects an in-place put whose file cannot be made, and destroys its source', async () => {
    // The key's folder, known to exist after a first put, is a file now: the write stream's open fails.
    await store.put('files/u9/first', Readable.from([Buffer.from('a')]), { inPlace: true });
    await rm(path.join(root, 'files', 'u9'), { recursive: true });
    await writeFile(path.join(root, 'files', 'u9'), 'a file where the folder goes');
    const source = new PassThrough();
    source.end(Buffer.alloc(1024, 1));
    await expect(store.put('files/u9/blocked', source, { inPlace: true })).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(source.destroyed).toBe(true);
    // The next put makes the folder again.
    await rm(path.join(root, 'files', 'u9'));
    await store.put('files/u9/again', Readable.from([Buffer.from('b')]), { inPlace: true });
    expect(await store.stat('files/u9/again')).toMatchObject({ size: 1 });
  });

  it('opens a blob with the stat of the open file, and answers null for a missing one', async () => {
    const bytes = Buffer.from('0123456789');
    await store.put('files/u1/small', Readable.from([bytes]));
    const opened = await store.open!('files/u1/small');
    try {
      expect(opened?.stat).toEqual(await store.stat('files/u1/small'));
      const into = Buffer.alloc(10);
      expect(await opened!.read(into, 0, 10, 0)).toBe(10);
      expect(into.equals(bytes)).toBe(true);
      expect(await opened!.read(into, 0, 10, 10)).toBe(0);
    } finally {
      await opened?.close();
    }
    expect(await store.open!('files/u1/missing')).toBeNull();
  });

  it('takes a known stat instead of asking the file, and closes once the reads under way are done', async () => {
    await store.put('files/u1/known', Readable.from([Buffer.from('abcdef')]));
    const known = { size: 6, modifiedAt: new Date('2026-01-02T03:04:05Z') };
    const opened = (await store.open!('files/u1/known', known))!;
    const descriptors = async () => openDescriptors(path.join(root, 'files/u1/known'));
    expect(opened.stat).toBe(known);
    expect(await descriptors()).toBe(1);
    const into = Buffer.alloc(6);
    const reading = opened.read(into, 0, 6, 0);
    const closing = opened.close();
    expect(opened.close()).toBe(closing);
    expect(await reading).toBe(6);
    expect(into.toString()).toBe('abcdef');
    await closing;
    expect(await descriptors()).toBe(0);
    await expect(opened.read(into, 0, 6, 0)).rejects.toThrow('closed');
  });

  it('refuses to open a key that is not a blob key', async () => {
    await expect(store.open!('../outside')).rejects.toThrow();
  });

  it('refuses a prefix that is not a folder of keys', () => {
    expect(() => store.list('files')).toThrow();
    expect(() => store.list('../')).toThrow();
  });
});

describe('fault injection and reconciler settings', () => {
  it('is off unless named, and refuses names it does not know', async () => {
    const config = await loadConfig({}, '/srv');
    expect(config.fault).toBeNull();
    expect(config.blobs).toEqual({ reconcileMs: 86_400_000, orphanGraceMs: 3_600_000 });
    expect((await loadConfig({ CLOUD_DRIVE_FAULT: 'tus-finish-after-blob-move' }, '/srv')).fault).toBe('tus-finish-after-blob-move');
    await expect(loadConfig({ CLOUD_DRIVE_FAULT: 'everywhere' }, '/srv')).rejects.toThrow(/CLOUD_DRIVE_FAULT/);
    await expect(loadConfig({ BLOB_ORPHAN_GRACE_SECONDS: '-1' }, '/srv')).rejects.toThrow(/BLOB_ORPHAN_GRACE_SECONDS/);
  });
});
