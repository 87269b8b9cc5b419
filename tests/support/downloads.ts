import { readFile } from 'node:fs/promises';
import type { Client } from './client.ts';
import type { RunningServer } from './server.ts';

/** Download helpers: raw bytes (the JSON client would decode them as text). */

export function cookieHeader(client: Client): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

export interface Download {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** A GET (or HEAD) as a browser tab would send it: the client's cookies, no JSON headers. */
export async function download(baseUrl: string, path: string, client: Client | null, headers: Record<string, string> = {}, method = 'GET'): Promise<Download> {
  const all: Record<string, string> = { ...headers };
  if (client) {
    all['X-Forwarded-For'] = client.ip;
    if (client.cookies.size) all.Cookie = cookieHeader(client);
  }
  const res = await fetch(baseUrl + path, { method, headers: all, redirect: 'manual' });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** The server child's pid, from its "listening" log line. */
export function serverPid(server: RunningServer): number {
  for (const line of server.logs) {
    if (!line.includes('"msg":"listening"')) continue;
    const pid = (JSON.parse(line) as { pid?: number }).pid;
    if (pid) return pid;
  }
  throw new Error('the server did not log its pid');
}

/** A figure from /proc/<pid>/status in bytes (VmRSS: resident now, VmHWM: the peak). */
export async function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(kb) * 1024;
}

const BLOCK = 1024 * 1024;
let baseBlock: Buffer | undefined;
/** One MiB of deterministic noise (a fixed xorshift), made once. */
function noise(): Buffer {
  if (!baseBlock) {
    baseBlock = Buffer.alloc(BLOCK);
    let x = 0x9e3779b9;
    for (let i = 0; i < BLOCK; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      baseBlock.writeUInt32LE(x >>> 0, i);
    }
  }
  return baseBlock;
}

/**
 * `size` deterministic bytes, made a block at a time (never one big Buffer): block i is the noise
 * block with its first 8 bytes set to i and `seed`, so no two blocks (and no two seeds) are alike.
 */
export async function* patternBytes(size: number, seed = 0): AsyncGenerator<Buffer> {
  for (let offset = 0, i = 0; offset < size; offset += BLOCK, i += 1) {
    const block = Buffer.from(noise().subarray(0, Math.min(BLOCK, size - offset)));
    if (block.length >= 8) {
      block.writeUInt32LE(i, 0);
      block.writeUInt32LE(seed, 4);
    }
    yield block;
  }
}
