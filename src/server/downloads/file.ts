import type { IncomingMessage } from 'node:http';
import parseRange from 'range-parser';
import { requireDownloadableFile } from '../files/access.ts';
import { actorOf, type Principal } from '../auth/principal.ts';
import { actorFor } from '../teams/actor.ts';
import { dataRoute, type DataRequest } from '../http/data-route.ts';
import { isAppError, notFound } from '../http/errors.ts';
import { readerOf } from './reader.ts';
import { contentDisposition, etagListMatches, etagOf, httpDateSeconds, parseHttpDate, presentationOf } from './headers.ts';
import { openBlobBody, type BlobBody } from './blob-body.ts';
import { bandwidthMeter } from '../billing/bandwidth.ts';
import type { ItemRow } from '../files/queries.ts';

const FILE_PATH = /^\/file\/([0-9a-f-]{36})(?:\/([a-z2-7]{39}))?\/?$/;

export function isFileRequest(pathname: string, method: string): boolean {
  return pathname.startsWith('/file/') && (method === 'GET' || method === 'HEAD');
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Data plane: `GET/HEAD /file/{id}[?download=1]` streams a file's bytes from the blob store with
 * backpressure, honouring Range (one range; several get the whole file), If-None-Match /
 * If-Modified-Since (304) and If-Range. Only the owner, outside the trash, with downloads allowed.
 */
export const serveFile = dataRoute({ methods: ['GET', 'HEAD'], principal: readerOf(FILE_PATH, 2), handle: sendFile });

async function sendFile({ ctx, req, res, pathname, principal }: DataRequest<Principal>): Promise<void> {
  const actor = actorOf(principal);
  const id = FILE_PATH.exec(pathname)?.[1];
  if (!id) throw notFound('The item was not found.');
  const item = await downloadableFile(ctx, actor, id);
  // On S3 with presigned downloads on: the bucket serves the bytes (and any Range), after the same checks.
  if (ctx.blobs.presignedGet && (await presignedDownloadsOn(ctx))) return redirectToBucket(ctx, req, res, item, item.blob_key!);
  await sendFileBytes(ctx, req, res, item);
}

/**
 * The bytes of a file the caller may download (checked already), with its validators, Range and
 * conditional answers, and the owner's bandwidth counted: `/file/{id}` and WebDAV's GET (dav/).
 */
export async function sendFileBytes(ctx: DataRequest<Principal>['ctx'], req: IncomingMessage, res: DataRequest<Principal>['res'], item: Pick<ItemRow, 'id' | 'name' | 'mimetype' | 'owner_id' | 'blob_key' | 'size' | 'updated_at'>): Promise<void> {
  const blobKey = item.blob_key!;
  // A file's blob never changes under its key: its size is the item's (counted by the server as the
  // bytes were stored), and Last-Modified the item's time, as in zips and WebDAV listings.
  const body = await openBlobBody(ctx, blobKey, { size: Number(item.size), modifiedAt: new Date(item.updated_at) });
  if (!body) {
    ctx.logger.error({ itemId: item.id, blobKey }, 'a file row has no blob');
    throw notFound('The file’s bytes were not found.');
  }
  try {
    await sendBody(ctx, req, res, item, blobKey, body);
  } finally {
    await body.close();
  }
}

async function sendBody(ctx: DataRequest<Principal>['ctx'], req: IncomingMessage, res: DataRequest<Principal>['res'], item: { id: string; name: string; mimetype: string | null; owner_id: string }, blobKey: string, body: BlobBody): Promise<void> {
  const { stat } = body;
  const size = stat.size;
  const etag = etagOf(blobKey, size);
  const modified = httpDateSeconds(stat.modifiedAt);
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const presentation = presentationOf(item.mimetype, query.get('download') === '1' || query.get('download') === 'true');

  const common: Record<string, string> = {
    ETag: etag,
    'Last-Modified': new Date(modified * 1000).toUTCString(),
    'Cache-Control': 'private, no-cache',
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ...(presentation.csp ? { 'Content-Security-Policy': presentation.csp } : {}),
  };

  // Conditional GET (RFC 9110 §13.2.2): If-None-Match wins over If-Modified-Since.
  const ifNoneMatch = header(req, 'if-none-match');
  const ifModifiedSince = parseHttpDate(header(req, 'if-modified-since'));
  if (ifNoneMatch !== undefined ? etagListMatches(ifNoneMatch, etag) : ifModifiedSince !== null && modified <= ifModifiedSince) {
    res.writeHead(304, common);
    return void res.end();
  }

  const headers: Record<string, string | number> = {
    ...common,
    'Content-Type': presentation.contentType,
    'Content-Disposition': contentDisposition(item.name, presentation.inline),
  };

  let range: { start: number; end: number } | undefined;
  const rangeHeader = header(req, 'range');
  if (rangeHeader && size > 0 && ifRangeHolds(header(req, 'if-range'), etag, modified)) {
    const parsed = parseRange(size, rangeHeader, { combine: true });
    if (parsed === -1) {
      res.writeHead(416, { ...common, 'Content-Range': `bytes */${size}`, 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end();
    }
    // -2 (malformed) and several ranges: the whole file, 200.
    if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1) range = { start: parsed[0]!.start, end: parsed[0]!.end };
  }

  if (range) {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
    headers['Content-Length'] = range.end - range.start + 1;
    res.writeHead(206, headers);
  } else {
    headers['Content-Length'] = size;
    res.writeHead(200, headers);
  }
  if (req.method === 'HEAD' || size === 0) return void res.end();
  // The end is known: the read stops at it instead of asking the disk once more for the end of file.
  const sent = range ?? { start: 0, end: size - 1 };
  // Metered plans bill the owner's bandwidth (billing/bandwidth.ts): one upsert per download.
  const count = await bandwidthMeter(ctx);
  await body.send(res, sent, { itemId: item.id });
  await count(item.owner_id, sent.end - sent.start + 1);
}

/** A presigned URL's lifetime: long enough to start a download, short enough that a leaked link soon dies. */
const PRESIGNED_SECONDS = 5 * 60;

async function presignedDownloadsOn(ctx: DataRequest<Principal>['ctx']): Promise<boolean> {
  const row = await ctx.db.selectFrom('settings').select('value').where('key', '=', 's3_presigned_downloads').executeTakeFirst();
  return row?.value === 'true';
}

/**
 * 302 to a presigned GET of the blob, answered with the Content-Type and Content-Disposition the
 * app itself would send. Never cached: the URL expires. A metered owner is billed the whole file
 * (the bucket's answer, ranged or not, is not seen here).
 */
async function redirectToBucket(ctx: DataRequest<Principal>['ctx'], req: IncomingMessage, res: DataRequest<Principal>['res'], item: { id: string; name: string; mimetype: string | null; size: number; owner_id: string }, blobKey: string): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const presentation = presentationOf(item.mimetype, query.get('download') === '1' || query.get('download') === 'true');
  const count = await bandwidthMeter(ctx);
  const location = await ctx.blobs.presignedGet!(blobKey, { expiresInSeconds: PRESIGNED_SECONDS, contentDisposition: contentDisposition(item.name, presentation.inline), contentType: presentation.contentType });
  res.writeHead(302, { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'Content-Length': 0 });
  res.end();
  if (req.method === 'GET') await count(item.owner_id, Number(item.size));
}

/**
 * The file as the principal may download it. Most downloads are of one's own files: asked as the
 * user first (one statement), and only when that finds nothing, as the owner of a team folder the
 * user is a member of (teams/actor.ts, one walk up more), which answers the same for one's own items.
 */
async function downloadableFile(ctx: DataRequest<Principal>['ctx'], actor: ReturnType<typeof actorOf>, id: string) {
  try {
    return await requireDownloadableFile(ctx, actor, id);
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    const team = await actorFor(ctx, actor, [id]);
    if (team === actor) throw error;
    return requireDownloadableFile(ctx, team, id);
  }
}

/** If-Range: the range applies only when the validator names these very bytes (an ETag strongly, a date exactly). */
function ifRangeHolds(value: string | undefined, etag: string, modified: number): boolean {
  if (value === undefined) return true;
  const trimmed = value.trim();
  if (trimmed.startsWith('"') || trimmed.startsWith('W/')) return trimmed === etag;
  return parseHttpDate(trimmed) === modified;
}
