// npm run bench:package: start times of the one-file build (run `npm run package` first).
// Starts release/cloud-drive-linux-x64 with an empty environment in a fresh folder: the first start
// unpacks the app into an empty cache; the later ones find it there (and check it). Each time is
// from spawning the process to its "listening" log line; then SIGTERM, waiting for the exit. Also
// `--version` (the launcher alone) and the resident memory once listening. Prints, asserts nothing.
// BENCH_PACKAGE_STARTS: later starts to time (default 5); BENCH_PACKAGE_EXE: another executable.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/server.ts';

const EXE = path.resolve(process.env.BENCH_PACKAGE_EXE ?? path.join(import.meta.dirname, '../../release/cloud-drive-linux-x64'));
const LATER = Number(process.env.BENCH_PACKAGE_STARTS ?? 5);
if (!existsSync(EXE)) {
  console.error(`${EXE} is missing: run npm run package first`);
  process.exit(1);
}

const work = await mkdtemp(path.join(os.tmpdir(), 'cloud-drive-bench-'));
const port = await freePort();
const env = { PATH: '/usr/bin:/bin', HOME: work, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(work, 'data') };

/** Milliseconds from spawn to the "listening" line, and the resident memory then (KiB). */
async function timedStart(): Promise<{ ms: number; rssKiB: number; unpacked: boolean }> {
  const started = performance.now();
  const child = spawn(EXE, [], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const exited = once(child, 'exit');
  const listening = new Promise<number>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('"msg":"listening"')) resolve(performance.now() - started);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    exited.then(() => reject(new Error(`the server exited before listening:\n${log}`)));
  });
  const ms = await listening;
  // An answer means the start has finished, its SIGTERM handler included (it follows the "listening" line).
  await fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.arrayBuffer());
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  child.kill('SIGTERM');
  const [code] = await exited;
  if (code !== 0) throw new Error(`exit code ${code} after SIGTERM:\n${log}`);
  return { ms, rssKiB, unpacked: log.includes('unpacked the app') };
}

async function timedVersion(): Promise<number> {
  const started = performance.now();
  const child = spawn(EXE, ['--version'], { env, stdio: 'ignore' });
  await once(child, 'exit');
  return performance.now() - started;
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
try {
  const size = (await import('node:fs')).statSync(EXE).size;
  console.log(`executable: ${EXE} (${(size / 2 ** 20).toFixed(1)} MiB), ${os.cpus().length} CPUs`);
  console.log(`--version (launcher only): ${fmt(await timedVersion())}`);
  const first = await timedStart();
  console.log(`first start (unpacks, creates the database): ${fmt(first.ms)}, ${(first.rssKiB / 1024).toFixed(0)} MiB resident${first.unpacked ? '' : ' (did not unpack?)'}`);
  const later: number[] = [];
  for (let i = 0; i < LATER; i += 1) {
    const run = await timedStart();
    if (run.unpacked) throw new Error('a later start unpacked again');
    later.push(run.ms);
    console.log(`later start ${i + 1}: ${fmt(run.ms)}, ${(run.rssKiB / 1024).toFixed(0)} MiB resident`);
  }
  const sorted = [...later].sort((a, b) => a - b);
  console.log(`later starts: median ${fmt(sorted[Math.floor(sorted.length / 2)]!)}, best ${fmt(sorted[0]!)}, worst ${fmt(sorted.at(-1)!)}`);
} finally {
  await rm(work, { recursive: true, force: true });
}
