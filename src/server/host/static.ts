import { createReadStream, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openForReading, readFully } from '../blobs/open-file.ts';

/**
 * Built client assets. The build writes a brotli and a gzip copy beside every text asset
 * (integrations/compress-assets.mjs); the best one the client accepts is sent, with
 * `Vary: Accept-Encoding`. Astro puts content-hashed files under /_astro/: those are cached for a
 * year as immutable; everything else revalidates, and a matching If-None-Match or
 * If-Modified-Since answers 304 with no body. The file list is read once at start, as the build
 * never changes under a running process.
 */

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

type Encoding = 'br' | 'gzip' | 'identity';
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };

interface Variant {
  file: string;
  size: number;
  etag: string;
}

interface Asset {
  type: string;
  cacheControl: string;
  lastModified: string;
  /** Whole seconds, as Last-Modified carries them. */
  modifiedSeconds: number;
  variants: Partial<Record<Encoding, Variant>>;
}

function walk(dir: string, prefix: string, out: Map<string, Asset>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const url = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) walk(full, url, out);
    if (!entry.isFile() || entry.name.startsWith('.') || /\.(br|gz)$/.test(entry.name)) continue;
    const stat = statSync(full);
    const variants: Asset['variants'] = {};
    for (const encoding of ['identity', 'br', 'gzip'] as const) {
      const file = full + SUFFIX[encoding];
      const size = encoding === 'identity' ? stat.size : safeSize(file);
      // One validator per representation: a cache must not answer a gzip request with brotli bytes.
      if (size !== null) variants[encoding] = { file, size, etag: `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}${encoding === 'identity' ? '' : `-${encoding}`}"` };
    }
    out.set(url, {
      type: TYPES[path.extname(entry.name).toLowerCase()] ?? 'application/octet-stream',
      cacheControl: url.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      lastModified: stat.mtime.toUTCString(),
      modifiedSeconds: Math.floor(stat.mtimeMs / 1000),
      variants,
    });
  }
}

function safeSize(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

/** The client's weights for br and gzip from Accept-Encoding (`q=0` refuses; absent is 0). */
export function pickEncoding(header: string | undefined, available: Partial<Record<Encoding, Variant>>): Encoding {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  // Brotli first at equal weight: it is the smaller file.
  let best: Encoding = 'identity';
  let bestWeight = 0;
  for (const encoding of ['br', 'gzip'] as const) {
    const w = weight(encoding);
    if (available[encoding] && w > bestWeight) [best, bestWeight] = [encoding, w];
  }
  return best;
}

function notModified(req: IncomingMessage, asset: Asset, variant: Variant): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2); weak comparison, so W/ is ignored.
  if (ifNoneMatch) return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === variant.etag);
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && asset.modifiedSeconds <= Math.floor(since / 1000);
}

export function staticAssets(dir: string): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const assets = new Map<string, Asset>();
  walk(dir, '', assets);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let pathname = (req.url ?? '/').split('?')[0] ?? '/';
    try {
      pathname = decodeURIComponent(pathname);
    } catch {
      return next();
    }
    const asset = assets.get(pathname);
    if (!asset) return next();
    const encoding = pickEncoding(req.headers['accept-encoding'], asset.variants);
    const variant = asset.variants[encoding]!;
    const headers: Record<string, string | number> = {
      'Cache-Control': asset.cacheControl,
      ETag: variant.etag,
      'Last-Modified': asset.lastModified,
      'X-Content-Type-Options': 'nosniff',
    };
    if (asset.variants.br || asset.variants.gzip) headers.Vary = 'Accept-Encoding';
    if (notModified(req, asset, variant)) return void res.writeHead(304, headers).end();
    headers['Content-Type'] = asset.type;
    headers['Content-Length'] = variant.size;
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') return void res.end();
    if (variant.size <= SMALL_ASSET_BYTES) return void sendSmall(asset, variant, res).catch(() => res.destroy());
    pipeline(createReadStream(variant.file), res).catch(() => res.destroy());
  };
}

/** Up to this size an asset is read whole (one open, one read, a close on this thread) and written at once. */
const SMALL_ASSET_BYTES = 64 * 1024;

/**
 * A small asset's bytes in one write: a read stream and `pipeline` cost an open, two reads, a close
 * in the thread pool and an AbortController per asset, where most of the built assets are a few KiB.
 * The size is the one read at start (the build never changes under a running process); a file that
 * turns out shorter ends the response early.
 */
async function sendSmall(asset: Asset, variant: Variant, res: ServerResponse): Promise<void> {
  const file = await openForReading(variant.file, { size: variant.size, modifiedAt: new Date(asset.modifiedSeconds * 1000) });
  if (!file) return void res.destroy();
  try {
    const bytes = Buffer.allocUnsafe(variant.size);
    if ((await readFully(file, bytes, variant.size, 0)) < variant.size) return void res.destroy();
    res.end(bytes);
  } finally {
    await file.close();
  }
}
