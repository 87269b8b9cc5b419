import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { ZipWriter } from '../../src/server/downloads/zip-writer.ts';
import { isAlreadyCompressed, parseZipItems, safeEntrySegment } from '../../src/server/downloads/zip.ts';

// The zip writer as /api/zip drives it (stream sources, one entry at a time): ZIP64 must kick in by
// itself past 65,535 entries, and past 4 GiB (that one is slow: ZIP64_LARGE=1).

async function writeZip(file: string, entries: AsyncIterable<{ name: string; source: Readable; store: boolean; size?: number }>): Promise<void> {
  const out = createWriteStream(file);
  const zip = new ZipWriter(out, 6);
  for await (const { name, source, store, size } of entries) await zip.addFile(name, new Date(), source, { store, sizeHint: size ?? 0 });
  await zip.finish();
  await finished(out);
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, z) => (error ? reject(error) : resolve(z!))));
}

describe('zip64', () => {
  it('writes a readable ZIP64 archive past 65,535 entries', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cd-zip64-'));
    try {
      const file = path.join(dir, 'many.zip');
      const count = 65_540;
      await writeZip(
        file,
        (async function* () {
          for (let i = 0; i < count; i += 1) yield { name: `d${i % 10}/f${i}.txt`, source: Readable.from([Buffer.from(`entry ${i}`)]), store: i % 2 === 0 };
        })(),
      );
      const bytes = await readFile(file);
      // The ZIP64 end of central directory record and its locator are there.
      expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
      expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true);
      const zip = await openZip(file);
      expect(zip.entryCount).toBe(count);
      zip.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!process.env.ZIP64_LARGE)('writes a readable ZIP64 archive past 4 GiB', { timeout: 600_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cd-zip64-'));
    try {
      const file = path.join(dir, 'large.zip');
      const size = 4 * 1024 ** 3 + 12345;
      const chunk = Buffer.alloc(1024 * 1024, 7);
      const big = Readable.from(
        (async function* () {
          for (let left = size; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
        })(),
      );
      await writeZip(
        file,
        (async function* () {
          yield { name: 'small-before.txt', source: Readable.from([Buffer.from('before')]), store: false };
          yield { name: 'large.bin', source: big, store: true, size };
          yield { name: 'small-after.txt', source: Readable.from([Buffer.from('after')]), store: false };
        })(),
      );
      expect((await stat(file)).size).toBeGreaterThan(size);
      const zip = await openZip(file);
      const entries: yauzl.Entry[] = [];
      await new Promise<void>((resolve, reject) => {
        zip.on('entry', (e: yauzl.Entry) => {
          entries.push(e);
          zip.readEntry();
        });
        zip.on('end', resolve);
        zip.on('error', reject);
        zip.readEntry();
      });
      expect(entries.map((e) => [e.fileName, e.uncompressedSize])).toEqual([['small-before.txt', 6], ['large.bin', size], ['small-after.txt', 5]]);
      // The entry after the 4 GiB mark (offset past 32 bits) reads back.
      const after = entries[2]!;
      const text = await new Promise<string>((resolve, reject) =>
        zip.openReadStream(after, (error, stream) => {
          if (error) return reject(error);
          let out = '';
          stream!.on('data', (c: Buffer) => (out += c.toString())).on('end', () => resolve(out)).on('error', reject);
        }),
      );
      expect(text).toBe('after');
      zip.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('zip inputs', () => {
  it('parses items=id|type lists and refuses anything else', () => {
    const id = '0b6c5a1e-5f1e-4c1a-9c1e-2f1e5a1e0b6c';
    expect(parseZipItems(`${id}|folder, ${id.toUpperCase()}|folder`)).toEqual([{ id, type: 'folder' }]);
    for (const bad of [null, '', ',', 'x|file', `${id}|thing`, `${id}`, `${id}|file|more`]) expect(() => parseZipItems(bad)).toThrow();
    expect(() => parseZipItems(Array.from({ length: 1001 }, () => `${id}|file`).join(','))).toThrow();
  });

  it('makes one safe path segment of any name', () => {
    expect(safeEntrySegment('..')).toBe('_');
    expect(safeEntrySegment('../x')).toBe('.._x');
    expect(safeEntrySegment('a\\b')).toBe('a_b');
    expect(safeEntrySegment('/abs')).toBe('_abs');
    expect(safeEntrySegment('C:\\win')).toBe('C__win');
    expect(safeEntrySegment('line\r\nbreak')).toBe('linebreak');
    expect(safeEntrySegment('  ')).toBe('_');
    expect(safeEntrySegment('Résumé 日本.pdf')).toBe('Résumé 日本.pdf');
  });

  it('stores already-compressed types and deflates the rest', () => {
    for (const t of ['image/jpeg', 'video/mp4', 'audio/mpeg', 'application/zip', 'application/pdf', 'application/gzip', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document']) expect(isAlreadyCompressed(t), t).toBe(true);
    for (const t of ['text/plain', 'image/bmp', 'image/svg+xml', 'audio/wav', 'application/octet-stream', null]) expect(isAlreadyCompressed(t), String(t)).toBe(false);
  });
});
