import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadSharp } from '../images/sharp.ts';
import type { AppContext } from '../context.ts';
import { findItem } from '../files/queries.ts';
import { THUMBNAIL_SIZE_NAMES, THUMBNAIL_SIZES, thumbnailBlobKey, thumbnailBlobKeys } from './sizes.ts';
import { findTool, runTool } from './tools.ts';

/**
 * Thumbnails: made in the background after a file is stored (`file.created`), from images with sharp,
 * from a video's frame with ffmpeg and from a PDF's first page with pdftoppm when those tools are on
 * PATH. Inputs over MAX_INPUT_PIXELS are refused before they are decoded (no pixel flood). A thumbnail
 * that cannot be made leaves the item without one; it never fails the upload that caused it.
 */

/** The largest picture decoded for a thumbnail: 100 megapixels (a 50 MP photo fits twice over). */
export const MAX_INPUT_PIXELS = 100_000_000;
const SHARP_TIMEOUT_SECONDS = 30;

/** Picture formats sharp may decode for a thumbnail. Not SVG: it is a document that can point elsewhere. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff', 'heif']);

/** ffmpeg demuxers by MIME type. The demuxer is always forced, so a file can never pick a playlist or concat demuxer that reads other files. */
const VIDEO_DEMUXERS: Record<string, string> = {
  'video/mp4': 'mov',
  'video/quicktime': 'mov',
  'video/x-m4v': 'mov',
  'video/3gpp': 'mov',
  'video/webm': 'matroska',
  'video/x-matroska': 'matroska',
  'video/x-msvideo': 'avi',
  'video/ogg': 'ogg',
  'video/mpeg': 'mpeg',
  'video/mp2t': 'mpegts',
};

export type ThumbnailOutcome =
  | { outcome: 'made'; prefix: string }
  | { outcome: 'skipped' | 'refused' | 'failed' | 'gone' | 'unsupported'; reason: string };

/**
 * The types the catch-up looks at (catch-up.ts `thumbnailable`, its SQL prefilter): a file of any
 * other type never gets a thumbnail and is never picked again, so nothing is recorded on it.
 */
export function catchUpPicks(mimetype: string | null): boolean {
  return /^(image\/|video\/|application\/pdf)/.test((mimetype ?? '').toLowerCase());
}

type Source = { kind: 'image' } | { kind: 'video'; demuxer: string } | { kind: 'pdf' };

function sourceOf(mimetype: string | null): Source | null {
  const type = (mimetype ?? '').toLowerCase().split(';')[0]!.trim();
  if (type.startsWith('image/') && type !== 'image/svg+xml') return { kind: 'image' };
  if (VIDEO_DEMUXERS[type]) return { kind: 'video', demuxer: VIDEO_DEMUXERS[type] };
  if (type === 'application/pdf') return { kind: 'pdf' };
  return null;
}

class Refused extends Error {}

/** Tries without a thumbnail after which a file is given up on (the catch-up picks it no more). Migration 20261204100000 uses the same figure. */
export const MAX_THUMBNAIL_ATTEMPTS = 3;

/**
 * A file's attempts count after an outcome, or null when there is nothing to record: a thumbnail
 * refused or skipped will never be made (given up at once), a failure may be passing (one more try).
 */
export function attemptsAfter(outcome: ThumbnailOutcome['outcome'], attempts: number): number | null {
  if (outcome === 'refused' || outcome === 'skipped') return MAX_THUMBNAIL_ATTEMPTS;
  if (outcome === 'failed') return Math.min(attempts + 1, MAX_THUMBNAIL_ATTEMPTS);
  return null;
}

/** makeThumbnails, and an outcome other than 'made' recorded on the item, so the catch-up tries it a bounded number of times. */
export async function makeThumbnailsRecorded(ctx: AppContext, itemId: string): Promise<ThumbnailOutcome> {
  const result = await makeThumbnails(ctx, itemId);
  // A text file or an archive: no read-and-write of its attempts after every upload.
  if (result.outcome === 'made' || result.outcome === 'gone' || result.outcome === 'unsupported') return result;
  const row = await ctx.db.selectFrom('items').select('thumbnail_attempts').where('id', '=', itemId).executeTakeFirst();
  const attempts = row ? attemptsAfter(result.outcome, Number(row.thumbnail_attempts)) : null;
  if (attempts !== null) {
    await ctx.db.updateTable('items').set({ thumbnail_attempts: attempts, thumbnail_attempted_at: ctx.clock.now().toISOString() }).where('id', '=', itemId).execute();
  }
  return result;
}

/** Makes (or finds) the thumbnails of one file item. Never throws for a bad input; answers what happened. */
export async function makeThumbnails(ctx: AppContext, itemId: string): Promise<ThumbnailOutcome> {
  const item = await findItem(ctx.db, itemId);
  if (item?.type !== 'file' || !item.blob_key) return { outcome: 'gone', reason: 'no such file' };
  if (item.thumbnail_key) return { outcome: 'made', prefix: item.thumbnail_key };
  const source = sourceOf(item.mimetype);
  if (!source) return { outcome: catchUpPicks(item.mimetype) ? 'skipped' : 'unsupported', reason: `no thumbnails for ${item.mimetype ?? 'an unknown type'}` };
  const tool = source.kind === 'video' ? 'ffmpeg' : source.kind === 'pdf' ? 'pdftoppm' : null;
  const toolPath = tool ? findTool(tool) : null;
  if (tool && !toolPath) return { outcome: 'skipped', reason: `${tool} is not installed` };

  const work = await mkdtemp(path.join(os.tmpdir(), 'cd-thumb-'));
  try {
    const input = await localFile(ctx, item.blob_key, work);
    let picture = input;
    if (source.kind === 'video') picture = await videoPoster(toolPath!, source.demuxer, input, work);
    if (source.kind === 'pdf') picture = await pdfFirstPage(toolPath!, input, work);
    const prefix = `thumbnails/${item.owner_id.toLowerCase()}/${item.id}`;
    const images = await render(picture, source.kind === 'image');
    for (const size of THUMBNAIL_SIZE_NAMES) await ctx.blobs.put(thumbnailBlobKey(prefix, size), Readable.from([images[size]]));
    // The row may have gone while we worked: then the blobs go too.
    const result = await ctx.db.updateTable('items').set({ thumbnail_key: prefix }).where('id', '=', item.id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      await Promise.all(thumbnailBlobKeys(prefix).map((key) => ctx.blobs.delete(key)));
      return { outcome: 'gone', reason: 'the file was deleted meanwhile' };
    }
    return { outcome: 'made', prefix };
  } catch (error) {
    if (error instanceof Refused || /pixel limit/i.test((error as Error).message)) {
      return { outcome: 'refused', reason: (error as Error).message };
    }
    return { outcome: 'failed', reason: (error as Error).message };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The blob as a file on disk: the store's own path when it has one, else a copy in `work`. */
async function localFile(ctx: AppContext, key: string, work: string): Promise<string> {
  const local = ctx.blobs.localPath?.(key);
  if (local) return local;
  const copy = path.join(work, 'input');
  await pipeline(ctx.blobs.get(key), createWriteStream(copy));
  return copy;
}

/** The three sizes as WebP. The header is checked against the pixel limit before anything is decoded. */
async function render(file: string, fromUpload: boolean): Promise<Record<(typeof THUMBNAIL_SIZE_NAMES)[number], Buffer>> {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, animated: false, failOn: 'error' as const };
  const sharp = await loadSharp();
  const meta = await sharp(file, options).metadata();
  if (!meta.format || (fromUpload && !IMAGE_FORMATS.has(meta.format))) throw new Refused(`not a picture format thumbnails are made from (${meta.format ?? 'unknown'})`);
  const pixels = (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0);
  if (!pixels) throw new Refused('the picture has no size');
  if (pixels > MAX_INPUT_PIXELS) throw new Refused(`the picture is ${meta.width}×${meta.height}, over the pixel limit of ${MAX_INPUT_PIXELS}`);
  const base = sharp(file, options).timeout({ seconds: SHARP_TIMEOUT_SECONDS }).rotate();
  const out = {} as Record<(typeof THUMBNAIL_SIZE_NAMES)[number], Buffer>;
  for (const size of THUMBNAIL_SIZE_NAMES) {
    const side = THUMBNAIL_SIZES[size];
    out[size] = await base.clone().resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  }
  return out;
}

async function videoPoster(ffmpeg: string, demuxer: string, input: string, work: string): Promise<string> {
  const out = path.join(work, 'poster.png');
  // A frame one second in (past a fade from black), else the first frame of a shorter video.
  for (const at of ['1', '0']) {
    const args = ['-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-f', demuxer, '-ss', at, '-i', input, '-frames:v', '1', '-an', '-sn', '-vf', 'scale=min(1280\\,iw):-2', '-y', out];
    await runTool(ffmpeg, args);
    if (existsSync(out)) return out;
  }
  throw new Refused('the video has no frame');
}

async function pdfFirstPage(pdftoppm: string, input: string, work: string): Promise<string> {
  const prefix = path.join(work, 'page');
  await runTool(pdftoppm, ['-f', '1', '-l', '1', '-singlefile', '-png', '-scale-to', '1280', input, prefix]);
  const out = `${prefix}.png`;
  if (!existsSync(out)) throw new Refused('the PDF has no page');
  return out;
}

/**
 * Listens for new files and makes their thumbnails one or two at a time. Answers a function that
 * stops listening and waits for the jobs in flight (queued ones are dropped: they were never promised).
 */
export function startThumbnailWorker(ctx: AppContext, concurrency = 2): () => Promise<void> {
  const queue: string[] = [];
  const running = new Set<Promise<void>>();
  const pump = () => {
    while (running.size < concurrency && queue.length > 0) {
      const itemId = queue.shift()!;
      const job: Promise<void> = makeThumbnailsRecorded(ctx, itemId)
        .then((result) => {
          if (result.outcome === 'refused' || result.outcome === 'failed') ctx.logger.warn({ itemId, ...result }, 'no thumbnail');
          else ctx.logger.debug({ itemId, ...result }, 'thumbnail');
        })
        .catch((error: unknown) => ctx.logger.error({ err: error, itemId }, 'thumbnail job failed'))
        .finally(() => {
          running.delete(job);
          pump();
        });
      running.add(job);
    }
  };
  const off = ctx.events.on('file.created', ({ itemId, mimetype }) => {
    // A type that never has thumbnails (text, archives): what the job would answer, without reading the row.
    if (!sourceOf(mimetype) && !catchUpPicks(mimetype)) return void ctx.logger.debug({ itemId, outcome: 'unsupported', reason: `no thumbnails for ${mimetype ?? 'an unknown type'}` }, 'thumbnail');
    queue.push(itemId);
    pump();
  });
  return async () => {
    off();
    queue.length = 0;
    await Promise.all(running);
  };
}
