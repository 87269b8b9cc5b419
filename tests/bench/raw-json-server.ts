// The reference for JSON endpoints: a bare Node HTTP server.
// Arguments: port, then route=file pairs (each file holds the exact body to answer on that route).
// With `--data-dir=<dir>` first, it also answers `GET /api/user` and `GET /api/browse/folders/<id>`
// live: the product's own session lookup and service calls on the same database (so the same SQL),
// without Astro, the middleware or the route helpers. What the product adds on top is our overhead.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [, , portArg, ...args] = process.argv;
const dataDir = args[0]?.startsWith('--data-dir=') ? args.shift()!.slice('--data-dir='.length) : null;
const bodies = new Map(args.map((pair) => {
  const eq = pair.lastIndexOf('='); // routes may hold '=', the file paths do not
  return [pair.slice(0, eq), readFileSync(pair.slice(eq + 1))] as const;
}));

type Live = (req: http.IncomingMessage) => Promise<unknown> | null;
const live: Live = dataDir ? await liveRoutes(dataDir) : () => null;

const send = (res: http.ServerResponse, status: number, body: Buffer | string) => {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
};
const server = http.createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  if (body) return send(res, 200, body);
  const answer = live(req);
  if (!answer) return void res.writeHead(404).end();
  answer.then(
    (data) => (data === null ? send(res, 401, '{"message":"Unauthenticated."}') : send(res, 200, JSON.stringify(data))),
    (error: unknown) => send(res, 500, JSON.stringify({ message: String(error) })),
  );
});
server.listen(Number(portArg), '127.0.0.1', () => console.log('ready'));

async function liveRoutes(dir: string): Promise<Live> {
  const { loadConfig } = await import('../../src/server/config/env.ts');
  const { createContext } = await import('../../src/server/context.ts');
  const { identify, viewOfNode } = await import('../../src/server/auth/principal.ts');
  const { userResource } = await import('../../src/server/users/resource.ts');
  const { browseAs } = await import('../../src/server/files/endpoints.ts');
  const ctx = await createContext(await loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }, dir));
  return (req) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const folder = url.pathname.match(/^\/api\/browse\/folders\/(.+)$/)?.[1];
    if (url.pathname !== '/api/user' && !folder) return null;
    return (async () => {
      const { principal } = await identify(ctx, viewOfNode(req, url.pathname));
      if (!principal) return null;
      return folder ? browseAs(ctx, principal, folder, url.searchParams) : userResource(ctx, principal.user);
    })();
  };
}
