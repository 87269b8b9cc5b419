import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../context.ts';

const AVATAR_PATH = /^\/avatars\/([0-9a-f-]{36})\/([a-z0-9]{8,40})-(xs|sm|md)\.webp$/;

export function isAvatarRequest(pathname: string): boolean {
  return pathname.startsWith('/avatars/');
}

/** Data plane: streams an avatar image from the blob store. Names are versioned, so they cache for ever. */
export async function serveAvatar(ctx: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const match = AVATAR_PATH.exec(pathname);
  if (!match || (req.method !== 'GET' && req.method !== 'HEAD')) return notFound(res);
  const [, userId, version, size] = match;
  const key = `avatars/${userId}/${version}-${size}.webp`;
  const stat = await ctx.blobs.stat(key);
  if (!stat) return notFound(res);
  res.writeHead(200, {
    'Content-Type': 'image/webp',
    'Content-Length': stat.size,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') return void res.end();
  await pipeline(ctx.blobs.get(key), res);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not found');
}
