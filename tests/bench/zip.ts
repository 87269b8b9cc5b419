// npm run bench:zip: zip throughput next to reading the same files bare, measured in the same run.
// Seeds through product code one folder holding a file of random bytes (application/octet-stream,
// a type the already-compressed list does not know, so only the trial deflate can store it) and one
// holding a text file, then downloads `GET /api/zip` of each folder and the same blob file from a
// bare Node server (tests/bench/transfer-ref.ts, fs.createReadStream). Prints MiB/s of source bytes,
// the zip's size, time to first byte and the product's share of the bare read. No assertion on time.
// Sizes: BENCH_ZIP_RANDOM_BYTES (default 1 GiB), BENCH_ZIP_TEXT_BYTES (default 256 MiB).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createFileItem, newBlobKey } from '../../src/server/files/service.ts';
import { registerUser } from '../support/client.ts';
import { cookieHeader, patternBytes } from '../support/downloads.ts';
import { seedContext, seedFolder } from '../support/seed.ts';
import { freePort, startServer } from '../support/server.ts';

const MiB = 1024 * 1024;
const RANDOM_BYTES = Number(process.env.BENCH_ZIP_RANDOM_BYTES ?? 1024 * MiB);
const TEXT_BYTES = Number(process.env.BENCH_ZIP_TEXT_BYTES ?? 256 * MiB);

/** Log-like lines: repetitive like real text, never the same line twice (a deflate's fair case). */
async function* textBytes(size: number): AsyncGenerator<Buffer> {
  const words = ['upload', 'folder', 'share', 'the', 'quick', 'brown', 'fox', 'request', 'session', 'GET', 'POST', 'ok', 'user', 'file', 'zip', 'thumbnail'];
  let line = 0;
  let x = 7;
  for (let sent = 0; sent < size; ) {
    const parts: string[] = [];
    for (let n = 0; n < 4096; n += 1, line += 1) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      parts.push(`2026-11-24T21:${String(line % 60).padStart(2, '0')}:00Z ${words[x % 16]} ${words[(x >> 4) % 16]} ${words[(x >> 8) % 16]} id=${x.toString(16)} n=${line}\n`);
    }
    const block = Buffer.from(parts.join('')).subarray(0, size - sent);
    sent += block.length;
    yield block;
  }
}

interface Read {
  bytes: number;
  seconds: number;
  ttfbMs: number;
}

function read(url: string, headers: Record<string, string> = {}): Promise<Read> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { headers }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`));
        let ttfb = -1;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (ttfb < 0) ttfb = performance.now() - started;
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ bytes, seconds: (performance.now() - started) / 1000, ttfbMs: ttfb }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

// BENCH_CPU_PROF=<dir> writes the product server's CPU profile there (node --cpu-prof) when it stops.
const cpuProf = process.env.BENCH_CPU_PROF;
const server = await startServer({ db: 'sqlite', env: cpuProf ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(cpuProf)}` } : {} });
const seed = await seedContext(server);
const tmp = await mkdtemp(path.join(os.tmpdir(), 'cd-bench-zip-'));
let ref: ReturnType<typeof spawn> | null = null;
try {
  const { client, user } = await registerUser(server.url);
  const cookie = { Cookie: cookieHeader(client), 'X-Forwarded-For': client.ip };
  const seedOne = async (folderName: string, name: string, mimetype: string, size: number, bytes: AsyncIterable<Buffer>) => {
    const folder = await seedFolder(seed, user.id, folderName);
    const blobKey = newBlobKey(user.id);
    await seed.blobs.put(blobKey, Readable.from(bytes));
    await createFileItem(seed, { ownerId: user.id, parentId: folder, name, mimetype, size, blobKey });
    return { folder, blobKey, size };
  };
  const started = performance.now();
  const scenarios = [
    { title: `random bytes, ${(RANDOM_BYTES / MiB).toFixed(0)} MiB (application/octet-stream)`, goal: 'goal ≥ 80% of the bare read', ...(await seedOne('random', 'random.bin', 'application/octet-stream', RANDOM_BYTES, patternBytes(RANDOM_BYTES, 1))) },
    { title: `text, ${(TEXT_BYTES / MiB).toFixed(0)} MiB (text/plain)`, goal: 'goal ≥ 50 MiB/s', ...(await seedOne('text', 'log.txt', 'text/plain', TEXT_BYTES, textBytes(TEXT_BYTES))) },
  ];
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const port = await freePort();
  ref = spawn(process.execPath, [path.join(import.meta.dirname, 'transfer-ref.ts'), String(port), path.join(server.dataDir, 'blobs'), tmp], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(ref.stdout!, 'data');
  console.log(`\nnode ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}, loopback; product = the built server (SQLite); bare = fs.createReadStream over HTTP\n`);

  for (const s of scenarios) {
    console.log(s.title);
    const zipUrl = `${server.url}/api/zip?items=${s.folder}|folder`;
    const bareUrl = `http://127.0.0.1:${port}/blobs/${s.blobKey}`;
    await read(bareUrl); // the page cache holds the file for both
    const bare = await read(bareUrl);
    const zip = await read(zipUrl, cookie);
    const mibs = (r: Read) => s.size / MiB / r.seconds;
    console.log(`  bare read        ${mibs(bare).toFixed(0).padStart(5)} MiB/s   TTFB ${bare.ttfbMs.toFixed(1)} ms`);
    console.log(
      `  product /api/zip ${mibs(zip).toFixed(0).padStart(5)} MiB/s   TTFB ${zip.ttfbMs.toFixed(1)} ms   zip ${(zip.bytes / MiB).toFixed(1)} MiB (${((zip.bytes / s.size) * 100).toFixed(1)}% of the source)   = ${((mibs(zip) / mibs(bare)) * 100).toFixed(0)}% of the bare read (${s.goal})`,
    );
  }
} finally {
  if (ref && ref.exitCode === null) {
    ref.kill('SIGTERM');
    await once(ref, 'exit');
  }
  await seed.db.destroy();
  await server.stop();
  await rm(tmp, { recursive: true, force: true });
}
