import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Metrics } from './registry.ts';
import { routeLabel, statusClass, type RouteSource } from './route-label.ts';

/** What a socket's earlier requests already counted: each request counts the bytes since, so keep-alive connections add up exactly. */
const counted = new WeakMap<Socket, { read: number; written: number }>();

function bytesSinceLastRequest(socket: Socket | null): { bytesIn: number; bytesOut: number } {
  if (!socket) return { bytesIn: 0, bytesOut: 0 };
  const before = counted.get(socket) ?? { read: 0, written: 0 };
  const now = { read: socket.bytesRead, written: socket.bytesWritten };
  counted.set(socket, now);
  return { bytesIn: Math.max(0, now.read - before.read), bytesOut: Math.max(0, now.written - before.written) };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts one request when its answer ends or its connection goes: route pattern (set by the router
 * through `route`), method, status class, duration and bytes. Without metrics it does nothing.
 */
export function observeRequest(metrics: Metrics | undefined, req: IncomingMessage, res: ServerResponse): { route(source: RouteSource | (() => RouteSource)): void } {
  if (!metrics) return { route: () => {} };
  const started = performance.now();
  let source: RouteSource | (() => RouteSource) = { kind: 'unmatched' };
  res.once('close', () => {
    const resolved = typeof source === 'function' ? source() : source;
    metrics.request({
      route: routeLabel(resolved),
      method: METHODS.has(req.method ?? '') ? (req.method as string) : 'OTHER',
      status: statusClass(res.headersSent ? res.statusCode : null),
      seconds: (performance.now() - started) / 1000,
      ...bytesSinceLastRequest(req.socket),
    });
  });
  return {
    route(next) {
      source = next;
    },
  };
}
