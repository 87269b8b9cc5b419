// The one-file build's payload: the staged folder as a tar archive that depends only on the files'
// contents (entries in byte order of their paths, mtime 0, owner 0:0, modes 0755/0644), compressed
// with fixed settings, so the same inputs give the same bytes on any machine.
// packaging/launcher.cjs reads this format back (ustar, with a PAX `path` record for long names).
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { constants, gzipSync } from 'node:zlib';

export interface PayloadFile {
  /** Path inside the payload, with `/`. */
  path: string;
  size: number;
  sha256: string;
}

async function walk(dir: string, prefix = ''): Promise<{ dirs: string[]; files: string[] }> {
  const dirs: string[] = [];
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) {
      dirs.push(rel);
      const inner = await walk(path.join(dir, entry.name), `${rel}/`);
      dirs.push(...inner.dirs);
      files.push(...inner.files);
    } else if (entry.isFile()) files.push(rel);
    else throw new Error(`${rel}: only files and folders can go into the payload`);
  }
  return { dirs, files };
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mode: number, type: '0' | '5' | 'x'): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(mode, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(0, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function padding(size: number): Buffer {
  return Buffer.alloc((512 - (size % 512)) % 512);
}

/** A PAX extended header carrying a path longer than ustar's 100 bytes. */
function paxPath(name: string): Buffer[] {
  const body = ` path=${name}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  const record = Buffer.from(`${length}${body}`);
  return [header('PaxHeader', record.length, 0o644, 'x'), record, padding(record.length)];
}

function entry(name: string, size: number, mode: number, type: '0' | '5'): Buffer[] {
  const long = Buffer.byteLength(name) > 100;
  return [...(long ? paxPath(name) : []), header(long ? name.slice(0, 99) : name, size, mode, type)];
}

/** The tar archive of `dir` and the list of its files (size and SHA-256 each). */
export async function tarFolder(dir: string): Promise<{ tar: Buffer; files: PayloadFile[] }> {
  const { dirs, files } = await walk(dir);
  const parts: Buffer[] = [];
  const listed: PayloadFile[] = [];
  const byPath = (a: string, b: string) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1);
  for (const name of dirs.sort(byPath)) parts.push(...entry(`${name}/`, 0, 0o755, '5'));
  for (const name of files.sort(byPath)) {
    const full = path.join(dir, name);
    const bytes = await readFile(full);
    const executable = ((await stat(full)).mode & 0o111) !== 0;
    parts.push(...entry(name, bytes.length, executable ? 0o755 : 0o644, '0'), bytes, padding(bytes.length));
    listed.push({ path: name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  parts.push(Buffer.alloc(1024));
  return { tar: Buffer.concat(parts), files: listed };
}

/** gzip at level 9: the header carries no name and mtime 0, so the bytes depend only on the input (and zlib's version, part of Node's). */
export function compress(tar: Buffer): Buffer {
  return gzipSync(tar, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
