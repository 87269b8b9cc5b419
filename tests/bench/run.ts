// npm run bench: request throughput of the product against a raw Node server on this machine.
// Bounded: each scenario runs for DURATION_MS with CONCURRENCY connections, only on 127.0.0.1.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { once } from 'node:events';
import { Client, registerUser } from '../support/client.ts';
import { freePort, startServer } from '../support/server.ts';
import { CONCURRENCY, DURATION_MS, fmt, load } from './load.ts';

const server = await startServer({ db: 'sqlite' });
try {
  const { client } = await registerUser(server.url);
  const me = await client.get('/api/user');
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const page = await new Client(server.url).request('/sign-in', { method: 'GET', headers: { Accept: 'text/html' } });
  const asset = page.text.match(/href="(\/_astro\/[^"]+\.css)"/)?.[1];
  if (!asset) throw new Error('no built stylesheet found on /sign-in');

  const rawPort = await freePort();
  const raw = spawn(process.execPath, [path.join(import.meta.dirname, 'raw-server.ts'), String(rawPort), me.text, path.resolve('dist/client' + asset)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(raw.stdout!, 'data');
  const rawUrl = `http://127.0.0.1:${rawPort}`;

  console.log(`benchmarks: ${CONCURRENCY} connections, ${DURATION_MS} ms each, node ${process.version}\n`);
  const scenarios = [
    ['GET /api/user (session lookup + user resource)', '/api/user', { Cookie: cookie, Accept: 'application/json' }],
    [`GET ${asset} (hashed static asset)`, asset, {}],
  ] as const;
  for (const [label, route, headers] of scenarios) {
    const product = await load(server.url + route, headers);
    const reference = await load(rawUrl + (route === '/api/user' ? '/api/user' : '/asset'), {});
    console.log(label);
    console.log(`  product    ${fmt(product)}`);
    console.log(`  raw node   ${fmt(reference)}`);
    console.log(`  ratio      ${(product.rps / reference.rps).toFixed(2)}x of raw Node throughput\n`);
  }
  raw.kill();
} finally {
  await server.stop();
}
