// npm run bench: the JSON API's own overhead, and a static asset, against raw Node servers on this machine.
// `GET /api/user` and a folder's first page are compared with raw-json-server.ts answering them with
// the product's own session lookup and service calls on the same SQLite file (the same SQL): the
// ratio is what Astro, the middleware and the route helpers cost. Bounded: each scenario runs for
// BENCH_DURATION_MS with BENCH_CONCURRENCY connections, BENCH_ROUNDS times alternating, 127.0.0.1 only.
// BENCH_CPU_PROF=<dir> writes the product server's CPU profile there (node --cpu-prof) when it stops.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { Client, registerUser } from '../support/client.ts';
import { seedContext, seedFile, seedFolder } from '../support/seed.ts';
import { freePort, startServer } from '../support/server.ts';
import { CONCURRENCY, DURATION_MS, fmt, load, type Result } from './load.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FOLDER_ITEMS = Number(process.env.BENCH_FOLDER_ITEMS ?? 500);

async function startChild(script: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, script), String(port), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => Promise.reject(new Error(`${script} did not start`)))]);
  return { url: `http://127.0.0.1:${port}`, child };
}

const cpuProf = process.env.BENCH_CPU_PROF;
const server = await startServer({ db: 'sqlite', env: cpuProf ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(cpuProf)}` } : {} });
const children: ChildProcess[] = [];
try {
  const { client, user } = await registerUser(server.url);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const page = await new Client(server.url).request('/sign-in', { method: 'GET', headers: { Accept: 'text/html' } });
  const asset = page.text.match(/href="(\/_astro\/[^"]+\.css)"/)?.[1];
  if (!asset) throw new Error('no built stylesheet found on /sign-in');

  const seed = await seedContext(server);
  const folder = await seedFolder(seed, user.id, 'Bench folder');
  for (let i = 0; i < FOLDER_ITEMS; i += 1) {
    if (i % 20 === 0) await seedFolder(seed, user.id, `folder ${String(i).padStart(6, '0')}`, folder);
    else await seedFile(seed, user.id, { name: `report ${String(i).padStart(6, '0')}.pdf`, parentId: folder, mimetype: 'application/pdf', content: 'x'.repeat(i % 512) });
  }
  await seed.db.destroy();

  const staticRef = await startChild('raw-server.ts', ['{}', path.resolve('dist/client' + asset)]);
  const sqlRef = await startChild('raw-json-server.ts', [`--data-dir=${server.dataDir}`]);
  children.push(staticRef.child, sqlRef.child);

  const json = { Cookie: cookie, Accept: 'application/json' };
  const scenarios = [
    ['GET /api/user (session lookup + user resource)', server.url + '/api/user', sqlRef.url + '/api/user', json],
    [`GET a folder's first page (200 of ${FOLDER_ITEMS} items)`, `${server.url}/api/browse/folders/${folder}?limit=200`, `${sqlRef.url}/api/browse/folders/${folder}?limit=200`, json],
    [`GET ${asset} (hashed static asset)`, server.url + asset, staticRef.url + '/asset', {}],
  ] as const;
  // The same bytes from both, or the comparison means nothing.
  for (const [label, product, reference, headers] of scenarios.slice(0, 2)) {
    const [a, b] = await Promise.all([product, reference].map(async (u) => (await fetch(u, { headers })).text()));
    if (a !== b) throw new Error(`${label}: the reference answered different bytes (${a!.length} against ${b!.length})`);
  }

  console.log(`benchmarks: ${CONCURRENCY} connections, ${DURATION_MS} ms each, ${ROUNDS} rounds alternating, node ${process.version}\n`);
  for (const [label, product, reference, headers] of scenarios) {
    const ratios: number[] = [];
    let best: [Result, Result] | undefined;
    for (let round = 0; round < ROUNDS; round += 1) {
      const p = await load(product, headers);
      const r = await load(reference, headers);
      ratios.push(p.rps / r.rps);
      if (!best || p.rps / r.rps > best[0].rps / best[1].rps) best = [p, r];
    }
    ratios.sort((a, b) => a - b);
    console.log(label);
    console.log(`  product    ${fmt(best![0])}`);
    console.log(`  reference  ${fmt(best![1])}`);
    console.log(`  ratio      median ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}x of the reference (rounds: ${ratios.map((x) => x.toFixed(2)).join(', ')})\n`);
  }
} finally {
  for (const child of children) child.kill();
  await server.stop();
}
