import http from 'node:http';
import type net from 'node:net';

/** One request the proxy passed on: which node (its index in `targets`) answered it. */
export interface Forwarded {
  method: string;
  path: string;
  node: number;
}

export interface RoundRobin {
  url: string;
  /** Every request so far, in the order it arrived. */
  forwarded: Forwarded[];
  close(): Promise<void>;
}

/**
 * A small load balancer (plain node:http): each request goes to the next of `targets` in turn,
 * its body streamed to the node and the node's answer streamed back (nothing buffered, so a tus
 * PATCH, a download and an event stream pass as they would through nginx with buffering off).
 * Headers go as they came (Host, Origin, X-Forwarded-For): the nodes run with APP_URL = this URL.
 */
export async function startRoundRobin(targets: string[], port = 0): Promise<RoundRobin> {
  const forwarded: Forwarded[] = [];
  const sockets = new Set<net.Socket>();
  let next = 0;
  const server = http.createServer((req, res) => {
    const node = next;
    next = (next + 1) % targets.length;
    forwarded.push({ method: req.method ?? 'GET', path: req.url ?? '/', node });
    const target = new URL(req.url ?? '/', targets[node]);
    const upstream = http.request(target, { method: req.method, headers: req.headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders as never);
      answer.pipe(res);
      // A client that goes (an event stream closed) ends the node's side too.
      res.once('close', () => answer.destroy());
    });
    upstream.once('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' }).end('bad gateway');
      else res.destroy();
    });
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
