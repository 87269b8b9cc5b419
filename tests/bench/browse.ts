// npm run bench:browse: the file platform's read paths on a large folder and tree, on SQLite.
// Seeds by bulk INSERTs (bulk-items.ts: a million items in minutes; no blobs, the routes read
// listings only), then for each route prints the product's throughput and latency, a raw Node server answering the same
// JSON bytes (the HTTP floor), and the bare SELECT behind it run in-process (the database floor).
// BENCH_NODES=2 runs browse-nodes.ts instead: two nodes on PostgreSQL behind a round-robin proxy against one.
// Bounded: BENCH_DURATION_MS per scenario, BENCH_CONCURRENCY connections, 127.0.0.1 only.
// BENCH_ONLY=first page,search (labels, comma-separated) runs those routes only, and no bulk writes;
// BENCH_CPU_PROF=<dir> writes the product server's CPU profile there (node --cpu-prof) when it stops.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { registerUser } from '../support/client.ts';
import { listTreeLevel } from '../../src/server/files/queries.ts';
import { seedContext, seedFolder } from '../support/seed.ts';
import { bulkInsertItems, type BulkItem } from './bulk-items.ts';
import { freePort, startServer } from '../support/server.ts';
import { CONCURRENCY, DURATION_MS, fmt, load, summarise, type Result } from './load.ts';

// The sizes: a 10,000-item folder and a 100,000-item tree (one item in ten a folder).
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const TREE_ITEMS = Number(process.env.BENCH_TREE_ITEMS ?? 100_000);
const TREE_FOLDERS = Math.floor(TREE_ITEMS / 10);
// The page size the file browser asks for.
const PAGE = 200;

// BENCH_NODES=2 (or more): the listing load against several nodes on PostgreSQL behind a proxy instead (browse-nodes.ts).
if (Number(process.env.BENCH_NODES ?? 1) > 1) {
  await import('./browse-nodes.ts');
  process.exit(0);
}
/** Thrown past the bulk writes when BENCH_ONLY picks some routes. */
class Done extends Error {}
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((label) => label.trim())) : null;
const cpuProf = process.env.BENCH_CPU_PROF;
const server = await startServer({ db: 'sqlite', env: cpuProf ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(cpuProf)}` } : {} });
const seed = await seedContext(server);
const tmp = await mkdtemp(path.join(os.tmpdir(), 'cd-bench-'));
let raw: ReturnType<typeof spawn> | undefined;
try {
  const { client, user } = await registerUser(server.url);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const headers = { Cookie: cookie, Accept: 'application/json' };

  let started = performance.now();
  const big = await seedFolder(seed, user.id, 'Big folder');
  await bulkInsertItems(
    seed.db,
    user.id,
    Array.from({ length: ITEMS }, (_, i): BulkItem =>
      i % 20 === 0 ? { parentId: big, type: 'folder', name: `folder ${String(i).padStart(6, '0')}` } : { parentId: big, type: 'file', name: `report ${String(i).padStart(6, '0')}.pdf`, mimetype: 'application/pdf', size: i % 512 },
    ),
  );
  // A tree for the navigation panel: ten top folders, each a chain of sub-folders, the files spread over them.
  const tops = Array.from({ length: 10 }, () => randomUUID());
  const branches = Array.from({ length: TREE_FOLDERS }, () => randomUUID());
  await bulkInsertItems(seed.db, user.id, [
    ...tops.map((id, i): BulkItem => ({ id, parentId: null, type: 'folder', name: `tree ${i}` })),
    ...branches.map((id, i): BulkItem => ({ id, parentId: i < 10 ? tops[i]! : branches[i - 10]!, type: 'folder', name: `branch ${i}` })),
    ...Array.from({ length: TREE_ITEMS - TREE_FOLDERS }, (_, i): BulkItem => ({ parentId: branches[i % branches.length]!, type: 'file', name: `note ${String(i).padStart(7, '0')}.txt`, mimetype: 'text/plain' })),
  ]);
  console.log(`seeded ${ITEMS} items in one folder and a ${TREE_ITEMS}-item tree (${TREE_FOLDERS + 10} folders) by bulk inserts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Ten levels down the first chain: the tree's answer when that folder is open.
  const deep = branches[Math.min(branches.length - 1, 90)]!;
  const trail = [null, tops[0]!, ...branches.filter((_, i) => i % 10 === 0 && i <= 90)];

  const allRoutes = {
    'first page': `/api/browse/folders/${big}?limit=${PAGE}`,
    'whole folder': `/api/browse/folders/${big}`,
    navigation: '/api/browse/navigation',
    'navigation, open 10 levels down': `/api/browse/navigation?open=${deep}`,
    'navigation, one branch': `/api/browse/navigation?parent_id=${tops[0]}`,
    search: '/api/search?query=report%200042',
  };
  const routes = Object.fromEntries(Object.entries(allRoutes).filter(([label]) => !only || only.has(label)));
  // The raw server answers exactly the bytes the product answered.
  const pairs: string[] = [];
  // The connection kept from before a long seeding may have been closed by the server meanwhile: one retry.
  const first = (url: string) => fetch(url, { headers }).catch(() => fetch(url, { headers }));
  for (const [label, route] of Object.entries(routes)) {
    const res = await first(server.url + route);
    if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
    const file = path.join(tmp, `${label.replace(/\W/g, '_')}.json`);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    pairs.push(`${route}=${file}`);
  }
  const rawPort = await freePort();
  raw = spawn(process.execPath, [path.join(import.meta.dirname, 'raw-json-server.ts'), String(rawPort), ...pairs], { stdio: ['ignore', 'pipe', 'inherit'] });
  await Promise.race([once(raw.stdout!, 'data'), once(raw, 'exit').then(() => Promise.reject(new Error('the raw server did not start')))]);

  // The database floor: the bare SELECT behind each route, sequentially, on a second connection.
  const floors: Record<string, () => Promise<unknown>> = {
    'first page': () => sql`select * from items where owner_id = ${user.id} and parent_id = ${big} and deleted_at is null order by type desc, created_at desc, id desc limit ${PAGE}`.execute(seed.db),
    'whole folder': () => sql`select * from items where owner_id = ${user.id} and parent_id = ${big} and deleted_at is null order by type desc, created_at desc, id desc`.execute(seed.db),
    navigation: () => listTreeLevel(seed.db, user.id, { parentId: null }),
    'navigation, open 10 levels down': async () => {
      for (const parentId of trail) await listTreeLevel(seed.db, user.id, { parentId });
    },
    'navigation, one branch': () => listTreeLevel(seed.db, user.id, { parentId: tops[0]! }),
    // What the product's search runs (queries.ts searchByName): the trigram index's matches first, then their rows.
    search: () =>
      sql`select i.* from items_fts f cross join items_search s on s.id = f.rowid cross join items i on i.id = s.item_id
          where items_fts match '"report 0042"' and i.owner_id = ${user.id} and i.deleted_at is null and i.name_key like '%report 0042%'
          order by i.type desc, i.name_key, i.id limit 20`.execute(seed.db),
  };
  // What the search cost before the index: every one of the owner's names read.
  const scan = () => sql`select * from items where owner_id = ${user.id} and deleted_at is null and name_key like '%report 0042%' order by type desc, name_key limit 20`.execute(seed.db);
  const floor = async (run: () => Promise<unknown>): Promise<Result> => {
    const latencies: number[] = [];
    started = performance.now();
    const deadline = started + Math.min(DURATION_MS, 2000);
    while (performance.now() < deadline) {
      const t = performance.now();
      await run();
      latencies.push(performance.now() - t);
    }
    return summarise(latencies, (performance.now() - started) / 1000);
  };

  console.log(`benchmarks: ${CONCURRENCY} connections, ${DURATION_MS} ms each, node ${process.version}, SQLite\n`);
  for (const [label, route] of Object.entries(routes)) {
    const bytes = (await fetch(server.url + route, { headers }).then((r) => r.arrayBuffer())).byteLength;
    const product = await load(server.url + route, headers);
    const reference = await load(`http://127.0.0.1:${rawPort}${route}`, {});
    const db = await floor(floors[label as keyof typeof floors]!);
    console.log(`GET ${route.replace(big, '{id}').replace(deep, '{id}').replace(tops[0]!, '{id}')}  (${label}, ${(bytes / 1024).toFixed(1)} KiB)`);
    console.log(`  product    ${fmt(product)}`);
    console.log(`  raw node   ${fmt(reference)}`);
    if (label === 'first page') {
      const alone = await load(server.url + route, headers, DURATION_MS, 1);
      const rawAlone = await load(`http://127.0.0.1:${rawPort}${route}`, {}, DURATION_MS, 1);
      console.log(`  product, one client   ${fmt(alone)}`);
      console.log(`  raw node, one client  ${fmt(rawAlone)}`);
    }
    console.log(`  bare SELECT, one connection, sequential: p50 ${db.p50.toFixed(2)} ms   p99 ${db.p99.toFixed(2)} ms`);
    if (label === 'search') {
      const unindexed = await floor(scan);
      console.log(`  the same SELECT without the trigram index: p50 ${unindexed.p50.toFixed(2)} ms   p99 ${unindexed.p99.toFixed(2)} ms`);
    }
    console.log(`  ratio      ${(product.rps / reference.rps).toFixed(2)}x of raw Node throughput\n`);
  }

  if (only) throw new Done();
  // Bulk writes on the big folder's items, 1000 per request (the API's limit) one after another,
  // while a probe asks for a static asset back to back: the probe's latency is how long the
  // server's event loop was held, what every other user waits while one user's bulk operation runs.
  const all: { id: string; type: string }[] = (await fetch(`${server.url}/api/browse/folders/${big}`, { headers }).then((r) => r.json())).data.map((i: any) => ({ id: i.id, type: i.type }));
  const target = await seedFolder(seed, user.id, 'Bulk target');
  const send = async (route: string, body: unknown, method = 'POST') => {
    const res = await fetch(server.url + route, { method, headers: { ...headers, 'Content-Type': 'application/json', Origin: server.url, 'X-Requested-With': 'XMLHttpRequest' }, body: JSON.stringify(body) });
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${route} answered ${res.status}`);
  };
  const inChunks = (route: string, body: (items: typeof all) => unknown) => async () => {
    for (let i = 0; i < all.length; i += 1000) await send(route, body(all.slice(i, i + 1000)));
  };
  const bulk = {
    [`move ${all.length} items`]: inChunks('/api/move', (items) => ({ to_id: target, items })),
    [`trash ${all.length} items`]: inChunks('/api/remove', (items) => ({ items })),
    [`restore ${all.length} items`]: inChunks('/api/trash/restore', (items) => ({ items })),
    [`trash a folder of ${all.length} items`]: () => send('/api/remove', { items: [{ id: target, type: 'folder' }] }),
    [`empty a trash of ${all.length + 1} items`]: () => send('/api/trash/dump', { _method: 'delete' }),
  };
  console.log(`bulk writes, 1000 items per request, with a probe fetching /favicon.svg back to back (event-loop lag seen from outside)`);
  // The probe's own floor on this machine: the server idle for a second.
  const idle = () => new Promise<void>((resolve) => setTimeout(resolve, 1000));
  for (const [label, run] of Object.entries({ 'idle (the floor)': idle, ...bulk })) {
    const lags: number[] = [];
    let done = false;
    const probe = (async () => {
      while (!done) {
        const t = performance.now();
        await fetch(`${server.url}/favicon.svg`).then((r) => r.arrayBuffer());
        lags.push(performance.now() - t);
      }
    })();
    const t = performance.now();
    await run();
    const took = performance.now() - t;
    done = true;
    await probe;
    const s = summarise([...lags], took / 1000);
    console.log(`  ${label.padEnd(32)} ${took.toFixed(0).padStart(6)} ms   probe p50 ${s.p50.toFixed(1)} ms   p99 ${s.p99.toFixed(1)} ms   max ${Math.max(...lags).toFixed(1)} ms   (${lags.length} probes)`);
  }
} catch (error) {
  if (error instanceof Done) process.exitCode = 0;
  else {
    // The server's last words, when it went away under the run.
    console.error(server.logs.slice(-30).join(''));
    throw error;
  }
} finally {
  raw?.kill();
  await seed.db.destroy();
  await server.stop();
  await rm(tmp, { recursive: true, force: true });
}
