import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';
import { taken } from './stream.ts';

/**
 * A streaming ZIP writer (APPNOTE 6.3): entries go out one after another as the destination takes
 * them, each file's bytes straight from its source to the destination (STORED: copied as they
 * come, checksummed by zlib's native crc32) or through one raw deflate stream (DEFLATED); sizes and
 * checksums follow each file in a data descriptor, so nothing is read twice or held whole. Only the
 * central directory (a few dozen bytes per entry) is kept until the end. ZIP64 fields appear where
 * a size or an offset reaches 4 GiB, and the ZIP64 end records when there are more than 65,535
 * entries or the directory starts past 4 GiB. Names are UTF-8 (flag bit 11).
 */
/** A file's bytes for the writer: a stream, or chunks whose buffers the source reuses (downloads/blob-body.ts). */
export type ChunkSource = AsyncIterable<Buffer> | Readable;

export class ZipWriter {
  private offset = 0;
  private readonly entries: CentralEntry[] = [];
  private closed: Error | null = null;
  private readonly out: Writable;
  private readonly deflateLevel: number;

  constructor(out: Writable, deflateLevel: number) {
    this.out = out;
    this.deflateLevel = deflateLevel;
    const gone = () => {
      this.closed ??= new Error('the zip destination closed');
    };
    out.once('close', gone);
    out.once('error', gone);
  }

  /** A folder entry (`name` ends with a slash). */
  async addDirectory(name: string, date: Date): Promise<void> {
    await this.addEmpty(name.endsWith('/') ? name : `${name}/`, date, true);
  }

  /**
   * A file entry from `source`, STORED (`store`) or DEFLATED. `sizeHint` is the size the file is
   * known to have: from 4 GiB on, the local header carries ZIP64 sizes (the data descriptor then does
   * too). A source that fails stops the zip with that error. A chunk is done with (its buffer may be
   * reused) once the next one is asked for: it has been taken by the destination or the deflate by then.
   */
  async addFile(name: string, date: Date, source: ChunkSource | null, options: { store: boolean; sizeHint: number }): Promise<void> {
    if (!source) return this.addEmpty(name, date, false);
    const method = options.store ? STORED : DEFLATED;
    // With room to spare: a deflated entry may come out a little larger than its source.
    const zip64 = options.sizeHint >= ZIP64_HINT;
    const start = this.offset;
    const nameBytes = Buffer.from(name, 'utf8');
    const extra = zip64 ? zip64Extra([0, 0]) : EMPTY;
    await this.write(localHeader({ nameBytes, extra, method, date, flags: FLAG_UTF8 | FLAG_DESCRIPTOR, zip64, crc: 0, size: 0, compressed: 0 }));

    let crc = 0;
    let size = 0;
    let compressed = 0;
    if (method === STORED) {
      for await (const chunk of source) {
        crc = crc32(chunk, crc);
        size += chunk.length;
        await this.writeTaken(chunk);
      }
      compressed = size;
    } else {
      const deflate = createDeflateRaw({ level: this.deflateLevel, chunkSize: 64 * 1024 });
      // The source feeds the deflate while its output goes out; a failing source fails the deflate,
      // which ends the loop below with that error, and a failing destination stops the feeding.
      // (The loop reports the deflate's errors; the listener only keeps a late one from being uncaught.)
      deflate.on('error', () => {});
      const stopFeeding = new AbortController();
      const feeding = (async () => {
        const stopped = once(stopFeeding.signal, 'abort');
        for await (const chunk of source) {
          crc = crc32(chunk, crc);
          size += chunk.length;
          // The next chunk is asked for once zlib has read this one (the write's callback).
          const consumed = new Promise<void>((resolve, reject) => deflate.write(chunk, (error) => (error ? reject(error) : resolve())));
          await Promise.race([consumed, stopped]);
          if (stopFeeding.signal.aborted) return;
        }
        deflate.end();
      })().catch((error: unknown) => {
        deflate.destroy(error as Error);
      });
      try {
        for await (const chunk of deflate as AsyncIterable<Buffer>) {
          compressed += chunk.length;
          await this.write(chunk);
        }
      } finally {
        stopFeeding.abort();
        (source as Partial<Readable>).destroy?.();
        deflate.destroy();
        await feeding;
      }
    }
    if (!zip64 && (size >= ZIP64_FROM || compressed >= ZIP64_FROM)) {
      // The local header promised 32-bit sizes: a reader that trusts it would misread the rest.
      throw new Error(`"${name}" grew past 4 GiB beyond its recorded size`);
    }
    await this.write(dataDescriptor(crc, compressed, size, zip64));
    this.entries.push({ nameBytes, method, date, flags: FLAG_UTF8 | FLAG_DESCRIPTOR, crc, size, compressed, offset: start, directory: false });
  }

  /**
   * A whole small file held in memory, STORED, or DEFLATED when `deflated` (its raw deflate, made by
   * the caller's trial) is given.
   */
  async addBytes(name: string, date: Date, bytes: Buffer, deflated: Buffer | null): Promise<void> {
    const method = deflated ? DEFLATED : STORED;
    const start = this.offset;
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(bytes);
    const body = deflated ?? bytes;
    await this.write(localHeader({ nameBytes, extra: EMPTY, method, date, flags: FLAG_UTF8 | FLAG_DESCRIPTOR, zip64: false, crc: 0, size: 0, compressed: 0 }));
    await this.writeTaken(body);
    await this.write(dataDescriptor(crc, body.length, bytes.length, false));
    this.entries.push({ nameBytes, method, date, flags: FLAG_UTF8 | FLAG_DESCRIPTOR, crc, size: bytes.length, compressed: body.length, offset: start, directory: false });
  }

  /** The central directory and the end records; the destination is then ended. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.entries) await this.write(centralHeader(entry));
    const size = this.offset - start;
    const count = this.entries.length;
    if (count >= 0xffff || start >= ZIP64_FROM || size >= ZIP64_FROM) {
      const at = this.offset;
      await this.write(zip64End(count, size, start));
      await this.write(zip64Locator(at));
    }
    await this.write(end(count, size, start));
    this.out.end();
  }

  private async addEmpty(name: string, date: Date, directory: boolean): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    const entry: CentralEntry = { nameBytes, method: STORED, date, flags: FLAG_UTF8, crc: 0, size: 0, compressed: 0, offset: this.offset, directory };
    await this.write(localHeader({ ...entry, extra: EMPTY, zip64: false }));
    this.entries.push(entry);
  }

  /** Writes a chunk the caller will reuse: waits until the destination has taken it. */
  private async writeTaken(bytes: Buffer): Promise<void> {
    if (this.closed) throw this.closed;
    this.offset += bytes.length;
    if (!(await taken(this.out, bytes))) throw this.closed ?? new Error('the zip destination closed');
  }


  /** Writes with backpressure: waits while the destination's buffer is full. */
  private async write(bytes: Buffer): Promise<void> {
    if (this.closed) throw this.closed;
    this.offset += bytes.length;
    if (this.out.write(bytes)) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        if (this.closed) reject(this.closed);
        else resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
    });
  }
}

interface CentralEntry {
  nameBytes: Buffer;
  method: number;
  date: Date;
  flags: number;
  crc: number;
  size: number;
  compressed: number;
  offset: number;
  directory: boolean;
}

const STORED = 0;
const DEFLATED = 8;
const FLAG_DESCRIPTOR = 1 << 3;
const FLAG_UTF8 = 1 << 11;
const ZIP64_FROM = 0xffffffff;
const ZIP64_HINT = 0xff000000;
const VERSION = 20;
const VERSION_ZIP64 = 45;
/** Made by: Unix (3), so readers take the external attributes as permissions. */
const MADE_BY = (3 << 8) | VERSION_ZIP64;
const EMPTY = Buffer.alloc(0);

/** MS-DOS date and time (local time, two-second steps; 1980 to 2107). */
function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.min(2107, Math.max(1980, date.getFullYear()));
  const clamped = year !== date.getFullYear();
  const time = clamped ? 0 : (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = clamped ? (year - 1980) << 9 | (1 << 5) | 1 : ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return { time, day };
}

/** The ZIP64 extended information field holding these 8-byte values, in the order the format gives. */
function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + values.length * 8);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(values.length * 8, 2);
  for (const [i, v] of values.entries()) extra.writeBigUInt64LE(BigInt(v), 4 + i * 8);
  return extra;
}

function localHeader(e: { nameBytes: Buffer; extra: Buffer; method: number; date: Date; flags: number; zip64: boolean; crc: number; size: number; compressed: number }): Buffer {
  const header = Buffer.alloc(30 + e.nameBytes.length + e.extra.length);
  const { time, day } = dosDateTime(e.date);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(e.zip64 ? VERSION_ZIP64 : VERSION, 4);
  header.writeUInt16LE(e.flags, 6);
  header.writeUInt16LE(e.method, 8);
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(day, 12);
  header.writeUInt32LE(e.crc >>> 0, 14);
  header.writeUInt32LE(e.zip64 ? 0xffffffff : e.compressed, 18);
  header.writeUInt32LE(e.zip64 ? 0xffffffff : e.size, 22);
  header.writeUInt16LE(e.nameBytes.length, 26);
  header.writeUInt16LE(e.extra.length, 28);
  e.nameBytes.copy(header, 30);
  e.extra.copy(header, 30 + e.nameBytes.length);
  return header;
}

function dataDescriptor(crc: number, compressed: number, size: number, zip64: boolean): Buffer {
  const d = Buffer.alloc(zip64 ? 24 : 16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(crc >>> 0, 4);
  if (zip64) {
    d.writeBigUInt64LE(BigInt(compressed), 8);
    d.writeBigUInt64LE(BigInt(size), 16);
  } else {
    d.writeUInt32LE(compressed, 8);
    d.writeUInt32LE(size, 12);
  }
  return d;
}

function centralHeader(e: CentralEntry): Buffer {
  // Whatever does not fit in 32 bits goes into the ZIP64 field, in the order: size, compressed, offset.
  const big = [e.size, e.compressed, e.offset].map((v) => v >= ZIP64_FROM);
  const extra = big.some(Boolean) ? zip64Extra([e.size, e.compressed, e.offset].filter((_, i) => big[i])) : EMPTY;
  const header = Buffer.alloc(46 + e.nameBytes.length + extra.length);
  const { time, day } = dosDateTime(e.date);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY, 4);
  header.writeUInt16LE(extra.length ? VERSION_ZIP64 : VERSION, 6);
  header.writeUInt16LE(e.flags, 8);
  header.writeUInt16LE(e.method, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(day, 14);
  header.writeUInt32LE(e.crc >>> 0, 16);
  header.writeUInt32LE(big[1] ? 0xffffffff : e.compressed, 20);
  header.writeUInt32LE(big[0] ? 0xffffffff : e.size, 24);
  header.writeUInt16LE(e.nameBytes.length, 28);
  header.writeUInt16LE(extra.length, 30);
  // comment length, disk number start, internal attributes: 0
  const mode = e.directory ? 0o40755 : 0o100644;
  header.writeUInt32LE(((mode << 16) | (e.directory ? 0x10 : 0)) >>> 0, 38);
  header.writeUInt32LE(big[2] ? 0xffffffff : e.offset, 42);
  e.nameBytes.copy(header, 46);
  extra.copy(header, 46 + e.nameBytes.length);
  return header;
}

function zip64End(count: number, size: number, offset: number): Buffer {
  const r = Buffer.alloc(56);
  r.writeUInt32LE(0x06064b50, 0);
  r.writeBigUInt64LE(44n, 4); // the record's size after this field
  r.writeUInt16LE(MADE_BY, 12);
  r.writeUInt16LE(VERSION_ZIP64, 14);
  // this disk, the directory's disk: 0
  r.writeBigUInt64LE(BigInt(count), 24);
  r.writeBigUInt64LE(BigInt(count), 32);
  r.writeBigUInt64LE(BigInt(size), 40);
  r.writeBigUInt64LE(BigInt(offset), 48);
  return r;
}

function zip64Locator(recordOffset: number): Buffer {
  const l = Buffer.alloc(20);
  l.writeUInt32LE(0x07064b50, 0);
  l.writeBigUInt64LE(BigInt(recordOffset), 8);
  l.writeUInt32LE(1, 16);
  return l;
}

function end(count: number, size: number, offset: number): Buffer {
  const r = Buffer.alloc(22);
  r.writeUInt32LE(0x06054b50, 0);
  r.writeUInt16LE(Math.min(count, 0xffff), 8);
  r.writeUInt16LE(Math.min(count, 0xffff), 10);
  r.writeUInt32LE(Math.min(size, 0xffffffff), 12);
  r.writeUInt32LE(Math.min(offset, 0xffffffff), 16);
  return r;
}
