// npm run bench:browse with BENCH_NODES=<n> (2 or more): the same listing load against n app nodes on
// one PostgreSQL database behind a round-robin proxy (its own process), and against one node behind
// the same proxy, one node direct. Prints throughput and the ratios; no assertion on timings.
// Bounded: BENCH_DURATION_MS per run, BENCH_CONCURRENCY connections, BENCH_ITEMS items, 127.0.0.1 only.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { registerUser } from '../support/client.ts';
import { seedContext, seedFolder } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { bulkInsertItems, type BulkItem } from './bulk-items.ts';
import { CONCURRENCY, DURATION_MS, fmt, load, type Result } from './load.ts';

const NODES = Math.max(2, Number(process.env.BENCH_NODES));
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const PAGE = 200;

async function startProxy(targets: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'round-robin-proxy.ts'), ...targets], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [url] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), once(child, 'exit').then(() => Promise.reject(new Error('the proxy did not start')))])) as [string];
  return { url, child };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

const first = await startServer({ db: 'postgres' });
const nodes: RunningServer[] = [first];
const seed = await seedContext(first);
const proxies: ChildProcess[] = [];
try {
  for (let i = 1; i < NODES; i++) nodes.push(await startServer({ alongside: first }));
  const { client, user } = await registerUser(first.url);
  const headers = { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), Accept: 'application/json' };
  const big = await seedFolder(seed, user.id, 'Big folder');
  await bulkInsertItems(
    seed.db,
    user.id,
    Array.from({ length: ITEMS }, (_, i): BulkItem =>
      i % 20 === 0 ? { parentId: big, type: 'folder', name: `folder ${String(i).padStart(6, '0')}` } : { parentId: big, type: 'file', name: `report ${String(i).padStart(6, '0')}.pdf`, mimetype: 'application/pdf', size: i % 512 },
    ),
  );
  const one = await startProxy([first.url]);
  const all = await startProxy(nodes.map((n) => n.url));
  proxies.push(one.child, all.child);
  const routes = { 'first page': `/api/browse/folders/${big}?limit=${PAGE}`, navigation: '/api/browse/navigation' };
  console.log(`bench:browse on ${NODES} nodes: PostgreSQL, ${ITEMS} items in one folder, ${CONCURRENCY} connections, ${DURATION_MS} ms each, node ${process.version}\n`);
  for (const [label, route] of Object.entries(routes)) {
    for (const base of [first.url, one.url, all.url]) await load(base + route, headers, 300); // warm each path
    const direct: Result = await load(first.url + route, headers);
    const oneBehind = await load(one.url + route, headers);
    const manyBehind = await load(all.url + route, headers);
    console.log(`GET ${route.replace(big, '{id}')}  (${label})`);
    console.log(`  one node, direct            ${fmt(direct)}`);
    console.log(`  one node, behind the proxy  ${fmt(oneBehind)}`);
    console.log(`  ${NODES} nodes, behind the proxy   ${fmt(manyBehind)}`);
    console.log(`  ratio  ${(manyBehind.rps / oneBehind.rps).toFixed(2)}x of one node behind the same proxy, ${(manyBehind.rps / direct.rps).toFixed(2)}x of one node direct\n`);
  }
} finally {
  for (const child of proxies) await stop(child);
  await seed.db.destroy();
  for (const node of nodes.slice(1)) await node.stop();
  await first.stop();
}
