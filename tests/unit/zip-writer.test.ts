import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { ZipWriter } from '../../src/server/downloads/zip-writer.ts';
import { deflatedIfWorth } from '../../src/server/downloads/zip-method.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every entry of the zip at `file` read back through its central directory: name → bytes. */
async function readBack(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (e, z) => (e ? reject(e) : resolve(z!))),
  );
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) {
        out.set(entry.fileName, Buffer.alloc(0));
        return zip.readEntry();
      }
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream!.on('data', (c: Buffer) => chunks.push(c)).on('error', reject).on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve).on('error', reject);
    zip.readEntry();
  });
  return out;
}

function hasUnzip(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('the streaming zip writer', () => {
  it('writes folders, empty, stored and deflated files with UTF-8 names that read back byte-exact', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cd-zipw-'));
    try {
      const file = path.join(dir, 'mixed.zip');
      const noise = randomBytes(700_000);
      const text = Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(20_000));
      const out = createWriteStream(file);
      const zip = new ZipWriter(out, 1);
      const date = new Date(2026, 10, 25, 13, 37, 42);
      await zip.addDirectory('Résumés 日本/', date);
      await zip.addFile('Résumés 日本/empty.txt', date, null, { store: true, sizeHint: 0 });
      await zip.addFile('Résumés 日本/noise.bin', date, Readable.from([noise.subarray(0, 100_000), noise.subarray(100_000)]), { store: true, sizeHint: noise.length });
      await zip.addFile('notes.txt', date, Readable.from([text]), { store: false, sizeHint: text.length });
      // Whole small files: one stored, one deflated by the caller (deflatedIfWorth), one refused by it.
      const small = text.subarray(0, 5000);
      const smallNoise = noise.subarray(0, 5000);
      expect(deflatedIfWorth(smallNoise)).toBeNull();
      await zip.addBytes('small-stored.txt', date, small, null);
      await zip.addBytes('small-deflated.txt', date, small, deflatedIfWorth(small));
      await zip.addBytes('small-noise.bin', date, smallNoise, deflatedIfWorth(smallNoise));
      await zip.finish();
      await finished(out);

      const entries = await readBack(file);
      expect([...entries.keys()]).toEqual(['Résumés 日本/', 'Résumés 日本/empty.txt', 'Résumés 日本/noise.bin', 'notes.txt', 'small-stored.txt', 'small-deflated.txt', 'small-noise.bin']);
      expect(entries.get('small-stored.txt')!.equals(text.subarray(0, 5000))).toBe(true);
      expect(entries.get('small-deflated.txt')!.equals(text.subarray(0, 5000))).toBe(true);
      expect(entries.get('small-noise.bin')!.equals(noise.subarray(0, 5000))).toBe(true);
      expect(sha(entries.get('Résumés 日本/noise.bin')!)).toBe(sha(noise));
      expect(sha(entries.get('notes.txt')!)).toBe(sha(text));
      expect(entries.get('Résumés 日本/empty.txt')!.length).toBe(0);
      // Deflated: the text came out far smaller than it went in.
      expect((await readFile(file)).length).toBeLessThan(noise.length + text.length / 10);
      if (hasUnzip()) {
        const tested = execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
        expect(tested).toContain('No errors detected');
        expect(sha(execFileSync('unzip', ['-p', file, 'notes.txt'], { maxBuffer: 8 * 1024 * 1024 }))).toBe(sha(text));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops with the error when a source fails halfway, stored or deflated', async () => {
    for (const store of [true, false]) {
      const zip = new ZipWriter(new PassThrough().resume(), 1);
      const failing = new Readable({ read() {} });
      failing.push(Buffer.alloc(1000, 1));
      setImmediate(() => failing.destroy(new Error('disk gone')));
      await expect(zip.addFile('a.bin', new Date(), failing, { store, sizeHint: 2000 })).rejects.toThrow('disk gone');
    }
  });

  it('stops when the destination closes (a client that left), stored or deflated', async () => {
    for (const store of [true, false]) {
      const sink = new PassThrough();
      const zip = new ZipWriter(sink, 1);
      // Incompressible and endless: the destination fills up and the writer waits on it.
      const endless = new Readable({ read() { this.push(randomBytes(64 * 1024)); } });
      const adding = zip.addFile('endless.bin', new Date(), endless, { store, sizeHint: 0 });
      await new Promise((resolve) => sink.once('data', resolve));
      sink.destroy();
      await expect(adding).rejects.toThrow();
      expect(endless.destroyed || store).toBe(true);
      endless.destroy();
    }
  });
});
