import { etagListMatches, etagOf } from '../downloads/headers.ts';
import { openBlobBody, type BlobBody } from '../downloads/blob-body.ts';
import { requireOwnedItem } from '../files/access.ts';
import { actorOf, type Principal } from '../auth/principal.ts';
import { actorFor } from '../teams/actor.ts';
import { readerOf } from '../downloads/reader.ts';
import { dataRoute, type DataRequest } from '../http/data-route.ts';
import { notFound } from '../http/errors.ts';
import { THUMBNAIL_SIZES, thumbnailBlobKey, type ThumbnailSize } from './sizes.ts';

const THUMBNAIL_PATH = /^\/thumbnail\/([0-9a-f-]{36})\/(xs|sm|md)(?:\.webp)?(?:\/([a-z2-7]{39}))?$/;

export function isThumbnailRequest(pathname: string, method: string): boolean {
  return pathname.startsWith('/thumbnail/') && (method === 'GET' || method === 'HEAD');
}

/**
 * Data plane: `GET /thumbnail/{id}/{xs|sm|md}`, a made thumbnail as WebP. Only the owner; items in the
 * trash keep theirs (the trash lists them). 404 while none is made (the item's `thumbnail` is null then).
 */
// `/thumbnail/{id}/{size}/{share token}`: a share link's holder, inside the share.
export const serveThumbnail = dataRoute({ methods: ['GET', 'HEAD'], principal: readerOf(THUMBNAIL_PATH, 3), handle: sendThumbnail });

async function sendThumbnail({ ctx, req, res, pathname, principal }: DataRequest<Principal>): Promise<void> {
  const actor = actorOf(principal);
  const match = THUMBNAIL_PATH.exec(pathname);
  if (!match) throw notFound();
  const [, id, size] = match as unknown as [string, string, ThumbnailSize];
  const item = await requireOwnedItem(ctx, await actorFor(ctx, actor, [id]), id, { trashed: 'any' });
  if (!item.thumbnail_key || !(size in THUMBNAIL_SIZES)) throw notFound('This item has no thumbnail.');
  const key = thumbnailBlobKey(item.thumbnail_key, size);
  const body = await openBlobBody(ctx, key);
  if (!body) throw notFound('This item has no thumbnail.');
  try {
    await sendThumbnailBody(req, res, key, body, item.id);
  } finally {
    await body.close();
  }
}

async function sendThumbnailBody(req: DataRequest<Principal>['req'], res: DataRequest<Principal>['res'], key: string, body: BlobBody, itemId: string): Promise<void> {
  const { stat } = body;
  const etag = etagOf(key, stat.size);
  const headers = {
    ETag: etag,
    // A thumbnail never changes under its URL; a day in the browser's own cache, then revalidated.
    'Cache-Control': 'private, max-age=86400',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && etagListMatches(inm, etag)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  res.writeHead(200, { ...headers, 'Content-Type': 'image/webp', 'Content-Length': stat.size });
  if (req.method === 'HEAD' || stat.size === 0) return void res.end();
  await body.send(res, { start: 0, end: stat.size - 1 }, { itemId });
}
