import type { IncomingMessage, ServerResponse } from 'node:http';
import sirv from 'sirv';

/**
 * Built client assets, pre-compressed. Astro puts content-hashed files under /_astro/: those are
 * cached for a year; everything else revalidates with its ETag.
 */
export function staticAssets(dir: string): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return sirv(dir, {
    etag: true,
    dev: false,
    // The build writes .br and .gz copies of text assets (integrations/compress-assets.mjs); sirv
    // picks one by Accept-Encoding and sends Vary: Accept-Encoding.
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      const hashed = pathname.startsWith('/_astro/');
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // sirv's type table has no entry for icons; nosniff would leave the browser guessing.
      if (pathname.endsWith('.ico')) res.setHeader('Content-Type', 'image/x-icon');
    },
  });
}
