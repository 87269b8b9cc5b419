// The reference for JSON endpoints: a bare Node HTTP server answering prepared bodies from memory.
// Arguments: port, then route=file pairs (each file holds the exact body to answer on that route).
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [, , portArg, ...routes] = process.argv;
const bodies = new Map(routes.map((pair) => {
  const eq = pair.lastIndexOf('='); // routes may hold '=', the file paths do not
  return [pair.slice(0, eq), readFileSync(pair.slice(eq + 1))] as const;
}));
const server = http.createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  if (!body) return void res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
});
server.listen(Number(portArg), '127.0.0.1', () => console.log('ready'));
