// npm run bench:transfer: the data plane's byte paths on loopback, each next to a reference measured
// in the same run on the same bytes: nginx (when installed; started here on a free port with a temp
// config, one worker, sendfile) serving and accepting them, and a bare Node server streaming them
// from/to disk (tests/bench/transfer-ref.ts). Prints MB/s, files/s, time to first byte and the peak
// RSS of the serving processes (VmRSS sampled from /proc every 20 ms). No assertion on timings.
//
// Downloads: 1 GiB whole, its second half by Range, 200 random 1 MiB ranges over 8 connections,
// 1,000 files of 4 KiB over 8 connections, a zip of 1,000 files (4 KiB, deflated) and a zip of
// 1,000 × 256 KiB (stored). Uploads (1 GiB tus in one PATCH, tus chunked at the default chunk size,
// POST /api/upload, 1,000 × 4 KiB over 8 connections) run when /api/upload and /api/upload/tus
// exist, and are skipped with a note while they answer 404. WebDAV (transfer-dav.ts): a PUT and a GET
// of BENCH_DAV_BYTES (512 MiB) and 1,000 × 4 KiB PUTs over 8 connections, with Basic + app password.
// Bounded: every scenario is a fixed amount of bytes, 127.0.0.1 only. Sizes: BENCH_BIG_BYTES,
// BENCH_SMALL_FILES, BENCH_ZIP_FILE_BYTES; BENCH_CONNECTIONS (8) for the many-request rows.
// BENCH_ONLY=downloads|zips|uploads|webdav runs one group;
// BENCH_S3=1 adds the S3 column: the product on STORAGE_DRIVER=s3 against s3rver (a second server, its
// own bucket), next to the AWS SDK reading and writing that bucket directly in the same run
// (transfer-s3.ts); sizes BENCH_S3_BYTES (default 64 MiB) and BENCH_S3_FILES (default 100 × 4 KiB);
// its tus row sends 8 MiB PATCHes (staged in the bucket) against one lib-storage Upload.
// BENCH_CPU_PROF=<dir> writes the product server's CPU profile there (node --cpu-prof) when it stops.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createFileItem, newBlobKey } from '../../src/server/files/service.ts';
import { getSettings, putSetting } from '../../src/server/settings/service.ts';
import { registerUser } from '../support/client.ts';
import { cookieHeader, patternBytes, serverPid } from '../support/downloads.ts';
import { createS3Client } from '../../src/server/blobs/s3-store.ts';
import { sdkGet, sdkGetMany, sdkPut } from './transfer-s3.ts';
import { davRows } from './transfer-dav.ts';
import { seedContext, seedFolder } from '../support/seed.ts';
import { freePort, startServer } from '../support/server.ts';

const MiB = 1024 * 1024;
const BIG = Number(process.env.BENCH_BIG_BYTES ?? 1024 * MiB);
const SMALL_FILES = Number(process.env.BENCH_SMALL_FILES ?? 1000);
const SMALL = 4096;
const ZIP_FILE_BYTES = Number(process.env.BENCH_ZIP_FILE_BYTES ?? 256 * 1024);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const RANGES = 200;

// --- measuring ------------------------------------------------------------------------------

interface Figures {
  bytes: number;
  seconds: number;
  ttfbMs?: number;
  files?: number;
  p50?: number;
  p95?: number;
  rssMiB?: number;
  /** CPU seconds the serving processes used (user + system), from /proc. */
  cpuSeconds?: number;
}

function rssOf(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Runs `work` while sampling the summed RSS of the serving processes; adds the peak to its figures. */
async function measured(pids: () => number[], work: () => Promise<Figures>): Promise<Figures> {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, pids().reduce((sum, pid) => sum + rssOf(pid), 0));
  };
  sample();
  const cpu = () => pids().reduce((sum, pid) => sum + cpuOf(pid), 0);
  const cpuBefore = cpu();
  const timer = setInterval(sample, 20);
  try {
    const figures = await work();
    sample();
    return { ...figures, rssMiB: peak / MiB, cpuSeconds: cpu() - cpuBefore };
  } finally {
    clearInterval(timer);
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  ttfbMs: number;
  ms: number;
}

/** One request; the body is counted and dropped (the client never holds it). */
function request(url: string, options: { method?: string; headers?: Record<string, string | number>; body?: Readable | Buffer } = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      let ttfb = -1;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (ttfb < 0) ttfb = performance.now() - started;
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, ttfbMs: ttfb < 0 ? performance.now() - started : ttfb, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body instanceof Readable) options.body.pipe(req);
    else req.end(options.body);
  });
}

function expectStatus(r: Fetched, ok: number[], what: string): Fetched {
  if (!ok.includes(r.status)) throw new Error(`${what} answered ${r.status}`);
  return r;
}

async function one(url: string, headers: Record<string, string>, ok = [200]): Promise<Figures> {
  const started = performance.now();
  const r = expectStatus(await request(url, { headers }), ok, url);
  return { bytes: r.bytes, seconds: (performance.now() - started) / 1000, ttfbMs: r.ttfbMs };
}

/** `urls` fetched over CONNECTIONS connections; files/s and per-request latency. */
async function many(urls: { url: string; headers: Record<string, string> }[], ok = [200]): Promise<Figures> {
  const latencies: number[] = [];
  let bytes = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < urls.length) {
        const { url, headers } = urls[next++]!;
        const r = expectStatus(await request(url, { headers }), ok, url);
        latencies.push(r.ms);
        bytes += r.bytes;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { bytes, seconds: (performance.now() - started) / 1000, files: urls.length, p50: latencies[Math.floor(latencies.length * 0.5)], p95: latencies[Math.floor(latencies.length * 0.95)] };
}

// --- output ---------------------------------------------------------------------------------

const rows: string[] = [];
const rate = (f: Figures) => (f.files ? f.files : f.bytes) / f.seconds;
/** One row; `references` (name and figures, measured in the same run) each get the ratio product / reference. */
function show(label: string, f: Figures, references: { name: string; figures: Figures }[] = []): void {
  const mbs = f.bytes / MiB / f.seconds;
  const parts = [`${mbs.toFixed(0).padStart(6)} MiB/s`];
  if (f.files) parts.push(`${(f.files / f.seconds).toFixed(0).padStart(6)} files/s  p50 ${f.p50!.toFixed(2)} ms  p95 ${f.p95!.toFixed(2)} ms`);
  if (f.ttfbMs !== undefined) parts.push(`TTFB ${f.ttfbMs.toFixed(1)} ms`);
  parts.push(`peak RSS ${f.rssMiB!.toFixed(0)} MiB`);
  if (f.cpuSeconds !== undefined) parts.push(`CPU ${((f.cpuSeconds / f.seconds) * 100).toFixed(0)}%`);
  for (const r of references) parts.push(`= ${((rate(f) / rate(r.figures)) * 100).toFixed(0)}% of ${r.name}`);
  const line = `  ${label.padEnd(34)} ${parts.join('   ')}`;
  rows.push(line);
  console.log(line);
}

// --- references -----------------------------------------------------------------------------

interface Reference {
  name: string;
  url: string;
  pids: () => number[];
  stop: () => Promise<void>;
  /** Added to upload URLs (the bare Node server's `?fsync=1`). */
  uploadQuery?: string;
}

async function startNodeReference(blobRoot: string, tmp: string): Promise<Reference> {
  const port = await freePort();
  const uploads = path.join(tmp, 'node-uploads');
  await mkdir(uploads, { recursive: true });
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'transfer-ref.ts'), String(port), blobRoot, uploads], { stdio: ['ignore', 'pipe', 'inherit'] });
  await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => Promise.reject(new Error('the Node reference did not start')))]);
  return { name: 'bare Node', url: `http://127.0.0.1:${port}`, pids: () => [child.pid!], stop: () => stopChild(child) };
}

function findNginx(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) if (existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

async function startNginx(binary: string, blobRoot: string, tmp: string): Promise<Reference> {
  const port = await freePort();
  const dir = path.join(tmp, 'nginx');
  await mkdir(path.join(dir, 'uploads'), { recursive: true });
  const temp = (name: string) => path.join(dir, name);
  // One worker, like the product's one Node process. As root, the worker must stay root to read the
  // test's data dir (created 0700); as anyone else nginx runs as that user anyway.
  const config = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  types { application/octet-stream bin; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    location /blobs/ { alias ${blobRoot}/; }
    # Accepts a body and writes it to disk (the WebDAV PUT handler), like an upload.
    location /upload/ {
      root ${dir}/uploads;
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 0;
      client_body_buffer_size 1m;
    }
  }
}`;
  await writeFile(temp('nginx.conf'), config);
  const child = spawn(binary, ['-p', dir, '-c', temp('nginx.conf'), '-e', temp('error.log')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await request(`${url}/blobs/`);
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nginx did not start: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { name: 'nginx', url, pids: () => [child.pid!, ...childrenOf(child.pid!)], stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

// --- the run --------------------------------------------------------------------------------

const ONLY = process.env.BENCH_ONLY;
const runs = (group: string) => !ONLY || ONLY.split(',').includes(group);
const cpuProf = process.env.BENCH_CPU_PROF;
const server = await startServer({ db: 'sqlite', env: cpuProf ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(cpuProf)}` } : {} });
const seed = await seedContext(server);
const tmp = await mkdtemp(path.join(os.tmpdir(), 'cd-bench-transfer-'));
const references: Reference[] = [];
try {
  const pid = serverPid(server);
  const productPids = () => [pid];
  const { client, user, email } = await registerUser(server.url);
  const cookie = { Cookie: cookieHeader(client), 'X-Forwarded-For': client.ip };
  const blobRoot = path.join(server.dataDir, 'blobs');

  // Seed through product code: bytes into the blob store, then the item row.
  const started = performance.now();
  const seedBlob = async (name: string, size: number, seedNo: number, parentId: string | null, mimetype: string) => {
    const blobKey = newBlobKey(user.id);
    await seed.blobs.put(blobKey, Readable.from(patternBytes(size, seedNo)));
    const item = await createFileItem(seed, { ownerId: user.id, parentId, name, mimetype, size, blobKey });
    return { id: item.id, blobKey };
  };
  const big = await seedBlob('big.bin', BIG, 1, null, 'application/octet-stream');
  const smallFolder = await seedFolder(seed, user.id, 'small');
  const small: { id: string; blobKey: string }[] = [];
  for (let i = 0; i < SMALL_FILES; i += 1) small.push(await seedBlob(`small-${i}.txt`, SMALL, 1000 + i, smallFolder, 'text/plain'));
  const mediaFolder = await seedFolder(seed, user.id, 'media');
  for (let i = 0; i < SMALL_FILES; i += 1) await seedBlob(`photo-${i}.jpg`, ZIP_FILE_BYTES, 5000 + i, mediaFolder, 'image/jpeg');
  console.log(
    `seeded ${(BIG / MiB).toFixed(0)} MiB, ${SMALL_FILES} × ${SMALL / 1024} KiB and ${SMALL_FILES} × ${ZIP_FILE_BYTES / 1024} KiB through product code in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  references.push(await startNodeReference(blobRoot, tmp));
  const nginx = findNginx();
  if (nginx) references.push(await startNginx(nginx, blobRoot, tmp));
  else console.log('nginx is not installed: the bare Node server is the only reference (apt-get install nginx-light adds it)');

  console.log(`\nnode ${process.version}, ${os.cpus().length} CPUs, loopback; product = the built server (dist/host/main.mjs, SQLite); references: ${references.map((r) => r.name).join(', ')}\n`);

  // A fixed sequence of random 1 MiB ranges, the same for everyone.
  let x = 12345;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const ranges = Array.from({ length: RANGES }, () => {
    const start = Math.floor(rand() * Math.max(1, BIG - MiB));
    return `bytes=${start}-${Math.min(BIG, start + MiB) - 1}`;
  });

  type Target = { label: string; pids: () => number[]; file: (key: string, id: string) => string; headers: Record<string, string> };
  const product: Target = { label: 'product', pids: productPids, file: (_key, id) => `${server.url}/file/${id}`, headers: cookie };
  const targets: Target[] = [product, ...references.map((r) => ({ label: r.name, pids: r.pids, file: (key: string) => `${r.url}/blobs/${key}`, headers: {} }))];

  const scenarios: { title: string; run: (t: Target) => Promise<Figures> }[] = [
    { title: `download ${(BIG / MiB).toFixed(0)} MiB`, run: (t) => one(t.file(big.blobKey, big.id), t.headers) },
    { title: `download the second half (Range)`, run: (t) => one(t.file(big.blobKey, big.id), { ...t.headers, Range: `bytes=${Math.floor(BIG / 2)}-` }, [206]) },
    { title: `${RANGES} random 1 MiB ranges, ${CONNECTIONS} conns`, run: (t) => many(ranges.map((r) => ({ url: t.file(big.blobKey, big.id), headers: { ...t.headers, Range: r } })), [206]) },
    { title: `${SMALL_FILES} × 4 KiB, ${CONNECTIONS} connections`, run: (t) => many(small.map((f) => ({ url: t.file(f.blobKey, f.id), headers: t.headers }))) },
  ];

  for (const scenario of runs('downloads') ? scenarios : []) {
    console.log(scenario.title);
    const figures: Figures[] = [];
    for (const target of targets) {
      await scenario.run(target); // warm the page cache and the connections
      figures.push(await measured(target.pids, () => scenario.run(target)));
    }
    targets.forEach((target, i) => {
      show(target.label, figures[i]!, i === 0 ? targets.slice(1).map((t, j) => ({ name: t.label, figures: figures[j + 1]! })) : []);
    });
  }

  // Zips: the product only (nothing else makes one); the reference is the same bytes served as files.
  const zipScenarios = [
    { title: `zip of ${SMALL_FILES} × 4 KiB (deflated)`, folder: smallFolder, name: 'small' },
    { title: `zip of ${SMALL_FILES} × ${ZIP_FILE_BYTES / 1024} KiB (stored, image/jpeg)`, folder: mediaFolder, name: 'media' },
  ];
  for (const z of runs('zips') ? zipScenarios : []) {
    console.log(z.title);
    const url = `${server.url}/api/zip?items=${z.folder}|folder`;
    await one(url, cookie);
    show('product /api/zip', await measured(productPids, () => one(url, cookie)));
    const sameBytes = z.name === 'small' ? small.map((f) => f.blobKey) : null;
    if (sameBytes) {
      for (const r of references) {
        const ref = await measured(r.pids, () => many(sameBytes.map((key) => ({ url: `${r.url}/blobs/${key}`, headers: {} }))));
        show(`${r.name}: the same files, ${CONNECTIONS} conns`, ref);
      }
    }
  }

  // Uploads: only once the upload routes exist.
  if (runs('uploads')) {
  console.log('uploads');
  const token = (await client.post('/api/user/tokens', { name: 'bench' })).body.meta.token as string;
  const bearer = { Authorization: `Bearer ${token}` };
  const tusProbe = await request(`${server.url}/api/upload/tus`, { method: 'OPTIONS', headers: { ...bearer, 'Tus-Resumable': '1.0.0' } });
  const postProbe = await request(`${server.url}/api/upload`, { method: 'POST', headers: { ...bearer, 'Content-Length': 0 } });
  if (tusProbe.status === 404 && postProbe.status === 404) {
    const line = '  skipped: /api/upload and /api/upload/tus answer 404 (the upload routes are not there yet)';
    rows.push('uploads', line);
    console.log(line);
  } else {
    await putSetting(seed, 'default_storage_limit_bytes', 1024 ** 4);
    const chunk = (await getSettings(seed)).chunk_size_bytes;
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const tusUpload = async (size: number, chunkSize: number, name: string): Promise<Figures> => {
      const t0 = performance.now();
      const created = expectStatus(
        await request(`${server.url}/api/upload/tus`, {
          method: 'POST',
          headers: { ...bearer, 'Tus-Resumable': '1.0.0', 'Upload-Length': size, 'Upload-Metadata': `filename ${b64(name)},filetype ${b64('application/octet-stream')}`, 'Content-Length': 0 },
        }),
        [201],
        'tus creation',
      );
      const location = new URL(String(created.headers.location), server.url).href;
      for (let offset = 0; offset < size; offset += chunkSize) {
        const length = Math.min(chunkSize, size - offset);
        const body = Readable.from(
          (async function* () {
            let left = length;
            for await (const block of patternBytes(length, 77 + offset)) {
              yield block.subarray(0, Math.min(block.length, left));
              left -= block.length;
            }
          })(),
        );
        expectStatus(
          await request(location, { method: 'PATCH', headers: { ...bearer, 'Tus-Resumable': '1.0.0', 'Upload-Offset': offset, 'Content-Type': 'application/offset+octet-stream', 'Content-Length': length }, body }),
          [204],
          'tus PATCH',
        );
      }
      return { bytes: size, seconds: (performance.now() - t0) / 1000 };
    };
    const multipart = (name: string, size: number) => {
      const boundary = `----bench${Date.now()}`;
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const body = Readable.from(
        (async function* () {
          yield head;
          yield* patternBytes(size, 99);
          yield tail;
        })(),
      );
      return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': head.length + size + tail.length } };
    };
    const put = (url: string, size: number) => async (): Promise<Figures> => {
      const t0 = performance.now();
      expectStatus(await request(url, { method: 'PUT', headers: { 'Content-Length': size }, body: Readable.from(patternBytes(size, 99)) }), [200, 201, 204], url);
      return { bytes: size, seconds: (performance.now() - t0) / 1000 };
    };
    const sendMany = (method: string, mk: (i: number) => { url: string; headers: Record<string, string | number>; body: Readable }) => async (): Promise<Figures> => {
      let next = 0;
      const latencies: number[] = [];
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (next < SMALL_FILES) {
            const i = next++;
            const { url, headers, body } = mk(i);
            const r = expectStatus(await request(url, { method, headers, body }), [200, 201, 204], url);
            latencies.push(r.ms);
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      return { bytes: SMALL_FILES * SMALL, seconds: (performance.now() - t0) / 1000, files: SMALL_FILES, p50: latencies[Math.floor(latencies.length / 2)], p95: latencies[Math.floor(latencies.length * 0.95)] };
    };
    const refPut = (r: Reference) => put(`${r.url}/upload/one-${Date.now()}.bin${r.uploadQuery ?? ''}`, BIG);
    // The same chunks as the product's tus PATCHes, one request each, written at their offset (bare
    // Node only: nginx cannot append, so its column stays one PUT of the whole file).
    const refChunked = (r: Reference) => {
      if (r.name === 'nginx') return refPut(r);
      return async (): Promise<Figures> => {
        const t0 = performance.now();
        const name = `chunked-${Date.now()}.bin`;
        for (let offset = 0; offset < BIG; offset += chunk) {
          const length = Math.min(chunk, BIG - offset);
          const query = `?offset=${offset}${offset + length >= BIG ? '&final=1' : ''}${r.uploadQuery ? `&${r.uploadQuery.slice(1)}` : ''}`;
          expectStatus(await request(`${r.url}/upload/${name}${query}`, { method: 'PATCH', headers: { 'Content-Length': length }, body: Readable.from(patternBytes(length, 77 + offset)) }), [204], 'reference PATCH');
        }
        return { bytes: BIG, seconds: (performance.now() - t0) / 1000 };
      };
    };
    const uploads: { title: string; product: (() => Promise<Figures>) | null; ref: (r: Reference) => () => Promise<Figures> }[] = [
      { title: `upload ${(BIG / MiB).toFixed(0)} MiB, tus one PATCH`, product: tusProbe.status === 404 ? null : () => tusUpload(BIG, BIG, 'tus-one.bin'), ref: refPut },
      { title: `upload ${(BIG / MiB).toFixed(0)} MiB, tus ${(chunk / MiB).toFixed(0)} MiB chunks`, product: tusProbe.status === 404 ? null : () => tusUpload(BIG, chunk, 'tus-chunked.bin'), ref: refChunked },
      {
        title: `upload ${(BIG / MiB).toFixed(0)} MiB, POST /api/upload`,
        product:
          postProbe.status === 404
            ? null
            : async () => {
                const t0 = performance.now();
                const { body, headers } = multipart('post.bin', BIG);
                expectStatus(await request(`${server.url}/api/upload`, { method: 'POST', headers: { ...bearer, ...headers }, body }), [200, 201], 'POST /api/upload');
                return { bytes: BIG, seconds: (performance.now() - t0) / 1000 };
              },
        ref: refPut,
      },
      {
        title: `upload ${SMALL_FILES} × 4 KiB, ${CONNECTIONS} connections`,
        product:
          postProbe.status === 404
            ? null
            : sendMany('POST', (i) => {
                const { body, headers } = multipart(`up-${i}.txt`, SMALL);
                return { url: `${server.url}/api/upload`, headers: { ...bearer, ...headers }, body };
              }),
        ref: (r) => sendMany('PUT', (i) => ({ url: `${r.url}/upload/small-${i}.bin${r.uploadQuery ?? ''}`, headers: { 'Content-Length': SMALL }, body: Readable.from(patternBytes(SMALL, i)) })),
      },
    ];
    for (const u of uploads) {
      console.log(u.title);
      if (!u.product) {
        console.log('  skipped: the route answers 404');
        continue;
      }
      const mine = await measured(productPids, u.product);
      const theirs: { name: string; figures: Figures }[] = [];
      // The product flushes an upload to disk before answering (README); the bare Node server does it
      // too in a row of its own, so the cost of durability shows apart from the rest.
      const bare = references.find((r) => r.name === 'bare Node');
      const uploadRefs = bare ? [...references, { ...bare, name: 'bare Node + fsync', uploadQuery: '?fsync=1' }] : references;
      for (const r of uploadRefs) theirs.push({ name: r.name, figures: await measured(r.pids, u.ref(r)) });
      show('product', mine, theirs);
      for (const t of theirs) show(t.name, t.figures);
    }
  }
  }
  if (runs('webdav')) {
    await putSetting(seed, 'default_storage_limit_bytes', 1024 ** 4);
    const token = (await client.post('/api/user/tokens', { name: 'bench WebDAV' })).body.meta.token as string;
    const blobKeyOf = async (name: string) =>
      (await seed.db.selectFrom('items').select('blob_key').where('owner_id', '=', user.id).where('name', '=', name).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).blob_key!;
    await davRows({
      productUrl: server.url,
      productPids,
      basic: `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`,
      references,
      blobKeyOf,
      bigBytes: BIG,
      smallFiles: SMALL_FILES,
      connections: CONNECTIONS,
      request,
      measured,
      show,
    });
  }
  if (process.env.BENCH_S3 === '1') await s3Column();
  console.log(`\nproduct server peak RSS over the whole run (VmHWM): ${(Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024).toFixed(0)} MiB`);
} finally {
  agent.destroy();
  for (const r of references) await r.stop().catch(() => {});
  await seed.db.destroy();
  await server.stop();
  await rm(tmp, { recursive: true, force: true });
}

/**
 * The S3 column: a product server on s3rver, seeded through product code, each scenario run against
 * it and against the AWS SDK on the same objects; prints the product's share of the SDK's rate.
 */
async function s3Column(): Promise<void> {
  /** The web app's default tus chunk (settings `chunk_size_bytes`): one S3 part per PATCH. */
  const TUS_S3_CHUNK = 8 * MiB;
  const size = Number(process.env.BENCH_S3_BYTES ?? 64 * MiB);
  const files = Number(process.env.BENCH_S3_FILES ?? 100);
  const onS3 = await startServer({ db: 'sqlite', storage: 's3' });
  const s3seed = await seedContext(onS3);
  const sdk = await createS3Client(onS3.s3!.settings);
  const bucket = onS3.s3!.bucket;
  try {
    const pids = () => [serverPid(onS3)];
    const self = () => [process.pid];
    const { client, user } = await registerUser(onS3.url);
    const cookie = { Cookie: cookieHeader(client), 'X-Forwarded-For': client.ip };
    const seedBlob = async (name: string, bytes: number, seedNo: number) => {
      const blobKey = newBlobKey(user.id);
      await s3seed.blobs.put(blobKey, Readable.from(patternBytes(bytes, seedNo)));
      const item = await createFileItem(s3seed, { ownerId: user.id, parentId: null, name, mimetype: 'application/octet-stream', size: bytes, blobKey });
      return { id: item.id, blobKey };
    };
    const big = await seedBlob('big-s3.bin', size, 3);
    const small: { id: string; blobKey: string }[] = [];
    for (let i = 0; i < files; i += 1) small.push(await seedBlob(`small-s3-${i}.txt`, SMALL, 3000 + i));
    console.log(`\nS3 column (s3rver on loopback, ${(size / MiB).toFixed(0)} MiB and ${files} × 4 KiB): the product on STORAGE_DRIVER=s3 / the AWS SDK on the same bucket`);
    const half = `bytes=${Math.floor(size / 2)}-`;
    const rows3: { title: string; product: () => Promise<Figures>; sdk: () => Promise<Figures> }[] = [
      { title: `S3: download ${(size / MiB).toFixed(0)} MiB`, product: () => one(`${onS3.url}/file/${big.id}`, cookie), sdk: () => sdkGet(sdk, bucket, big.blobKey) },
      { title: 'S3: download the second half (Range)', product: () => one(`${onS3.url}/file/${big.id}`, { ...cookie, Range: half }, [206]), sdk: () => sdkGet(sdk, bucket, big.blobKey, half) },
      {
        title: `S3: ${files} × 4 KiB, ${CONNECTIONS} connections`,
        product: () => many(small.map((f) => ({ url: `${onS3.url}/file/${f.id}`, headers: cookie }))),
        sdk: () => sdkGetMany(sdk, bucket, small.map((f) => f.blobKey), CONNECTIONS),
      },
      {
        title: `S3: upload ${(size / MiB).toFixed(0)} MiB, POST /api/upload`,
        product: async () => {
          const t0 = performance.now();
          const boundary = `----bench${Date.now()}`;
          const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\nup-s3.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="up-s3.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
          const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
          const body = Readable.from(
            (async function* () {
              yield head;
              yield* patternBytes(size, 99);
              yield tail;
            })(),
          );
          const headers = { ...cookie, Origin: onS3.url, 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': head.length + size + tail.length };
          expectStatus(await request(`${onS3.url}/api/upload`, { method: 'POST', headers, body }), [200, 201], 'POST /api/upload on S3');
          return { bytes: size, seconds: (performance.now() - t0) / 1000 };
        },
        sdk: () => sdkPut(sdk, bucket, `bench/sdk-${Date.now()}.bin`, size),
      },
      {
        // tus staged in the bucket (uploads/tus/): one 8 MiB part per PATCH, then a copy inside the bucket.
        title: `S3: upload ${(size / MiB).toFixed(0)} MiB, tus in ${TUS_S3_CHUNK / MiB} MiB PATCHes`,
        product: async () => {
          const t0 = performance.now();
          const writes = { ...cookie, Origin: onS3.url, 'X-Requested-With': 'XMLHttpRequest', 'Tus-Resumable': '1.0.0' };
          const created = expectStatus(
            await request(`${onS3.url}/api/upload/tus`, { method: 'POST', headers: { ...writes, 'Upload-Length': size, 'Upload-Metadata': `filename ${Buffer.from('tus-s3.bin').toString('base64')}`, 'Content-Length': 0 } }),
            [201],
            'tus creation on S3',
          );
          const location = new URL(String(created.headers.location), onS3.url).href;
          for (let offset = 0; offset < size; offset += TUS_S3_CHUNK) {
            const length = Math.min(TUS_S3_CHUNK, size - offset);
            const body = Readable.from(
              (async function* () {
                let left = length;
                for await (const block of patternBytes(length, 55 + offset)) {
                  yield block.subarray(0, Math.min(block.length, left));
                  left -= block.length;
                }
              })(),
            );
            const headers = { ...writes, 'Upload-Offset': offset, 'Content-Type': 'application/offset+octet-stream', 'Content-Length': length };
            expectStatus(await request(location, { method: 'PATCH', headers, body }), [204], 'tus PATCH on S3');
          }
          return { bytes: size, seconds: (performance.now() - t0) / 1000 };
        },
        sdk: () => sdkPut(sdk, bucket, `bench/sdk-tus-${Date.now()}.bin`, size),
      },
    ];
    for (const r of rows3) {
      console.log(r.title);
      await r.product(); // warm the connections (and s3rver's page cache)
      const mine = await measured(pids, r.product);
      const theirs = await measured(self, r.sdk);
      show('product on S3', mine, [{ name: 'AWS SDK direct', figures: theirs }]);
      show('AWS SDK direct (bench process)', theirs);
    }
  } finally {
    sdk.destroy();
    await s3seed.db.destroy();
    await onS3.stop();
  }
}
