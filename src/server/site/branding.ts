import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../context.ts';
import { AppError, validationError } from '../http/errors.ts';

/** Uploaded logos: raster images only (an SVG is a document that can run script), named by content. */
const LOGO_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
type LogoExt = keyof typeof LOGO_TYPES;
export const MAX_LOGO_BYTES = 512 * 1024;
const BRANDING_PATH = /^\/branding\/([0-9a-f]{32})\.(png|jpg|webp)$/;

export const isBrandingRequest = (pathname: string) => pathname.startsWith('/branding/');

/** Stores a logo in the blob store and answers the path it is served at. */
export async function storeLogo(ctx: AppContext, file: unknown): Promise<string> {
  if (!(file instanceof File) || file.size === 0) throw validationError({ logo: ['Choose an image file for the logo.'] });
  if (file.size > MAX_LOGO_BYTES) throw new AppError(413, `The logo may not be larger than ${MAX_LOGO_BYTES / 1024} KB.`);
  const bytes = Buffer.from(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !(type.ext in LOGO_TYPES)) throw validationError({ logo: ['The logo must be a PNG, JPEG or WebP image.'] });
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${type.ext as LogoExt}`;
  await ctx.blobs.put(`branding/${name}`, Readable.from([bytes]));
  return `/branding/${name}`;
}

/** Data plane: a logo, public and cacheable for ever (its name is its content's hash). */
export async function serveBranding(ctx: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const match = BRANDING_PATH.exec(pathname);
  const stat = match && (req.method === 'GET' || req.method === 'HEAD') ? await ctx.blobs.stat(`branding/${match[1]}.${match[2]}`) : null;
  if (!match || !stat) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    return void res.end('Not found');
  }
  res.writeHead(200, {
    'Content-Type': LOGO_TYPES[match[2] as LogoExt],
    'Content-Length': stat.size,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') return void res.end();
  await pipeline(ctx.blobs.get(`branding/${match[1]}.${match[2]}`), res);
}
