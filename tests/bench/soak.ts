// npm run bench:soak: a mixed load from many clients for a long while, watching the server's memory
// and event loop. 50 clients (BENCH_SOAK_CLIENTS) over 5 accounts browse (a folder's first page,
// the user resource, the navigation tree), download files, upload small files, zip a folder and open
// a share link, for 10 minutes (BENCH_SOAK_MS). Prints the RSS at rest after start, the peak RSS
// (sampled every 200 ms, and the kernel's VmHWM), ΔRSS between minute 2 and the end (the same share
// of a shorter run), and the event loop's delay measured inside the server (perf_hooks
// monitorEventLoopDelay, logged every 5 s through EVENT_LOOP_STATS_MS). 127.0.0.1 only.
import { Readable } from 'node:stream';
import { registerUser, type Client } from '../support/client.ts';
import { patternBytes, procStatus, serverPid } from '../support/downloads.ts';
import { seedContext, seedFile, seedFolder } from '../support/seed.ts';
import { startServer } from '../support/server.ts';

const SOAK_MS = Number(process.env.BENCH_SOAK_MS ?? 10 * 60_000);
const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 50);
const ACCOUNTS = 5;
const LOOP_WINDOW_MS = 5000;
const MiB = 1024 * 1024;

const server = await startServer({ db: 'sqlite', env: { EVENT_LOOP_STATS_MS: String(LOOP_WINDOW_MS) } });
try {
  const pid = serverPid(server);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const atRest = await procStatus(pid, 'VmRSS');
  // Start-up writes (migrations, job records) keep the WAL checkpoint worker for 30 s after the last
  // one (db/checkpoints.ts): at rest once it has gone is what an idle server holds.
  await new Promise((resolve) => setTimeout(resolve, 35_000));
  const atRestIdle = await procStatus(pid, 'VmRSS');

  // Each account: a 300-item folder to browse, 20 files of 64 KiB to download and zip, a shared folder.
  const seed = await seedContext(server);
  const accounts: { client: Client; bearer: Record<string, string>; cookie: Record<string, string>; folder: string; zipFolder: string; files: string[]; shareToken: string }[] = [];
  for (let a = 0; a < ACCOUNTS; a += 1) {
    const { client, user } = await registerUser(server.url);
    const folder = await seedFolder(seed, user.id, 'Browse');
    for (let i = 0; i < 300; i += 1) {
      if (i % 20 === 0) await seedFolder(seed, user.id, `folder ${i}`, folder);
      else await seedFile(seed, user.id, { name: `report ${String(i).padStart(4, '0')}.pdf`, parentId: folder, mimetype: 'application/pdf', content: 'x'.repeat(i % 512) });
    }
    const zipFolder = await seedFolder(seed, user.id, 'Zip me');
    const files: string[] = [];
    for (let i = 0; i < 20; i += 1) files.push((await seedFile(seed, user.id, { name: `part ${i}.bin`, parentId: zipFolder, mimetype: 'application/octet-stream', content: Buffer.alloc(64 * 1024, i) })).id);
    const shared = await client.post(`/api/share/${zipFolder}`, { type: 'folder', permission: 'visitor' });
    if (shared.status !== 201) throw new Error(`sharing answered ${shared.status}: ${shared.text}`);
    const token = (await client.post('/api/user/tokens', { name: 'soak' })).body.meta.token as string;
    const cookie = { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), Accept: 'application/json' };
    accounts.push({ client, bearer: { Authorization: `Bearer ${token}` }, cookie, folder, zipFolder, files, shareToken: shared.body.data.attributes.token });
  }
  await seed.db.destroy();

  const counts = new Map<string, { ok: number; failed: number }>();
  const get = async (kind: string, url: string, headers: Record<string, string>) => {
    const res = await fetch(server.url + url, { headers });
    await res.arrayBuffer();
    tally(kind, res.status === 200);
  };
  const tally = (kind: string, ok: boolean) => {
    const c = counts.get(kind) ?? { ok: 0, failed: 0 };
    if (ok) c.ok += 1;
    else c.failed += 1;
    counts.set(kind, c);
  };
  let uploads = 0;
  const upload = async (account: (typeof accounts)[number]) => {
    const name = `soak-${uploads++}.bin`;
    const size = 64 * 1024;
    const boundary = `----soak${uploads}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Readable.from((async function* () { yield head; yield* patternBytes(size, uploads); yield tail; })());
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { ...account.bearer, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + size + tail.length) },
      body: Readable.toWeb(body) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    await res.arrayBuffer();
    tally('upload', res.status === 200 || res.status === 201);
  };
  // One step of a client: mostly browsing, as people do; then downloads, uploads, shares and a zip now and then.
  const step = async (account: (typeof accounts)[number], n: number) => {
    const pick = n % 20;
    if (pick < 4) return get('browse: first page', `/api/browse/folders/${account.folder}?limit=200`, account.cookie);
    if (pick < 7) return get('browse: user', '/api/user', account.cookie);
    if (pick < 9) return get('browse: navigation', '/api/browse/navigation', account.cookie);
    if (pick < 13) return get('download 64 KiB', `/file/${account.files[n % account.files.length]}`, account.cookie);
    if (pick < 16) return upload(account);
    if (pick < 19) return get('share: open the link', `/api/browse/folders/all/${account.shareToken}`, { Accept: 'application/json' });
    return get('zip 20 × 64 KiB', `/api/zip?items=${account.zipFolder}|folder`, account.cookie);
  };

  const samples: { at: number; rss: number }[] = [];
  const started = performance.now();
  const sampler = setInterval(() => {
    procStatus(pid, 'VmRSS').then((rss) => samples.push({ at: performance.now() - started, rss }), () => {});
  }, 200);
  const logStart = server.logs.length;
  console.log(`soak: ${CLIENTS} clients over ${ACCOUNTS} accounts for ${(SOAK_MS / 1000).toFixed(0)} s, node ${process.version}`);
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      const account = accounts[c % ACCOUNTS]!;
      for (let n = c; performance.now() - started < SOAK_MS; n += 1) await step(account, n).catch(() => tally('network error', false));
    }),
  );
  clearInterval(sampler);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const afterRest = await procStatus(pid, 'VmRSS');
  const hwm = await procStatus(pid, 'VmHWM');

  // ΔRSS between minute 2 and minute 10: the same fractions of the run, each the mean of the samples within ±2% of it.
  const around = (fraction: number) => {
    const near = samples.filter((s) => Math.abs(s.at - fraction * SOAK_MS) <= 0.02 * SOAK_MS);
    return near.reduce((sum, s) => sum + s.rss, 0) / Math.max(1, near.length);
  };
  const early = around(0.2);
  const late = around(0.98);
  const peak = Math.max(...samples.map((s) => s.rss));
  const windows = server.logs
    .slice(logStart)
    .filter((line) => line.includes('"msg":"event loop"'))
    .map((line) => JSON.parse(line) as { loop_p50_ms: number; loop_p99_ms: number; loop_max_ms: number; heap_used_bytes: number; heap_total_bytes: number; external_bytes: number });
  const p99s = windows.map((w) => w.loop_p99_ms).sort((a, b) => a - b);

  const mib = (b: number) => `${(b / MiB).toFixed(0)} MiB`;
  console.log('\nrequests');
  for (const [kind, c] of [...counts].sort()) console.log(`  ${kind.padEnd(24)} ${String(c.ok).padStart(7)} ok ${c.failed ? `${c.failed} FAILED` : ''}`);
  console.log('\nmemory (VmRSS of the server process)');
  console.log(`  at rest after start       ${mib(atRest)} (3 s), ${mib(atRestIdle)} (38 s, idle)`);
  console.log(`  peak                      ${mib(peak)} sampled, ${mib(hwm)} VmHWM`);
  console.log(`  at 20% of the run         ${mib(early)}`);
  console.log(`  at the end                ${mib(late)}`);
  console.log(`  ΔRSS (20% → end)          ${((late - early) / MiB).toFixed(1)} MiB`);
  console.log(`  at rest after the load    ${mib(afterRest)}`);
  const last = windows.at(-1);
  if (last) console.log(`  V8 at the last window     heap ${mib(last.heap_used_bytes)} used of ${mib(last.heap_total_bytes)}, external ${mib(last.external_bytes)}`);
  console.log(`\nevent loop delay, inside the server (${windows.length} windows of ${LOOP_WINDOW_MS / 1000} s)`);
  console.log(`  p99 per window: median ${p99s[Math.floor(p99s.length / 2)] ?? '-'} ms, worst ${p99s.at(-1) ?? '-'} ms; max ${Math.max(...windows.map((w) => w.loop_max_ms))} ms`);
} finally {
  await server.stop();
}
