import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import { DIST } from '../host/dist-path.ts';
import { loadSharp } from '../images/sharp.ts';
import type { AppContext } from '../context.ts';
import { AppError, validationError } from '../http/errors.ts';
import { getSettings } from '../settings/service.ts';

/** Uploaded logos: raster images only (an SVG is a document that can run script), named by content. */
const LOGO_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
type LogoExt = keyof typeof LOGO_TYPES;
/** The setup wizard's limit; the admin area allows ADMIN_IMAGE_MAX_BYTES. */
export const MAX_LOGO_BYTES = 512 * 1024;
export const ADMIN_IMAGE_MAX_BYTES = 1024 * 1024;
/** The favicon is made this many pixels square (sharp), whatever was uploaded. */
export const FAVICON_PX = 64;
const MAX_INPUT_PIXELS = 40_000_000;
const BRANDING_PATH = /^\/branding\/([0-9a-f]{32})\.(png|jpg|webp)$/;

export const isBrandingRequest = (pathname: string) => pathname.startsWith('/branding/');
export const isBrandingPath = (value: string) => BRANDING_PATH.test(value);

/**
 * An uploaded branding image, checked by its bytes (never the client's name or type): a PNG, JPEG
 * or WebP that sharp can read, of at most `maxBytes`. `field` names the form field in a refusal.
 */
async function readBrandingImage(file: unknown, field: string, label: string, maxBytes: number): Promise<{ bytes: Buffer; ext: LogoExt }> {
  if (!(file instanceof File) || file.size === 0) throw validationError({ [field]: [`Choose an image file for the ${label}.`] });
  if (file.size > maxBytes) throw new AppError(413, `The ${label} may not be larger than ${maxBytes >= 1024 * 1024 ? `${maxBytes / 1024 / 1024} MB` : `${maxBytes / 1024} KB`}.`, { errors: { [field]: [`The ${label} is too large.`] } });
  const bytes = Buffer.from(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  const sharp = await loadSharp();
  const readable = type && type.ext in LOGO_TYPES && (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata().then((m) => !!m.width && !!m.height, () => false));
  if (!type || !readable) throw validationError({ [field]: [`The ${label} must be a PNG, JPEG or WebP image.`] });
  return { bytes, ext: type.ext as LogoExt };
}

async function putBrandingImage(ctx: AppContext, bytes: Buffer, ext: LogoExt): Promise<string> {
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${ext}`;
  await ctx.blobs.put(`branding/${name}`, Readable.from([bytes]));
  return `/branding/${name}`;
}

/** Stores a logo in the blob store as it was sent and answers the path it is served at. */
export async function storeLogo(ctx: AppContext, file: unknown, { maxBytes = MAX_LOGO_BYTES, field = 'logo' } = {}): Promise<string> {
  const { bytes, ext } = await readBrandingImage(file, field, 'logo', maxBytes);
  return putBrandingImage(ctx, bytes, ext);
}

/** Stores a site icon: the image made a FAVICON_PX square PNG (transparent margins, metadata gone). */
export async function storeFavicon(ctx: AppContext, file: unknown, { maxBytes = ADMIN_IMAGE_MAX_BYTES, field = 'favicon' } = {}): Promise<string> {
  const { bytes } = await readBrandingImage(file, field, 'icon', maxBytes);
  const sharp = await loadSharp();
  const png = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize(FAVICON_PX, FAVICON_PX, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  return putBrandingImage(ctx, png, 'png');
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

/** The built-in icon (public/favicon.ico, copied into the build); the data plane runs from src/. */
const BUILT_IN_FAVICON = fileURLToPath(new URL('client/favicon.ico', DIST));

/**
 * Data plane: /favicon.ico, which browsers ask for by themselves: the admin's icon (a PNG) when one
 * is set, else the built-in one. Revalidated each time (the name stays, the icon may change).
 */
export async function serveFavicon(ctx: AppContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { favicon } = await getSettings(ctx);
  const match = BRANDING_PATH.exec(favicon);
  const key = match ? `branding/${match[1]}.${match[2]}` : null;
  const custom = key ? await ctx.blobs.stat(key) : null;
  const builtIn = custom ? null : await stat(BUILT_IN_FAVICON).catch(() => null);
  if (!custom && !builtIn) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    return void res.end('Not found');
  }
  const etag = custom ? `"${match![1]}"` : `"builtin-${builtIn!.size}-${Math.trunc(builtIn!.mtimeMs)}"`;
  const headers = {
    'Content-Type': custom ? LOGO_TYPES[match![2] as LogoExt] : 'image/x-icon',
    'Cache-Control': 'public, max-age=0, must-revalidate',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
  res.writeHead(200, { ...headers, 'Content-Length': custom ? custom.size : builtIn!.size });
  if (req.method === 'HEAD') return void res.end();
  await pipeline(custom ? ctx.blobs.get(key!) : createReadStream(BUILT_IN_FAVICON), res);
}
