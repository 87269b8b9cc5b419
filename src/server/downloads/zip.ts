import type { ServerResponse } from 'node:http';
import type { ItemType } from '../../../db/schema.ts';
import { actorOf, type Principal } from '../auth/principal.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireCanDownload, requireOwnedItems } from '../files/access.ts';
import { actorFor } from '../teams/actor.ts';
import { nameKey, nextFreeName } from '../files/names.ts';
import type { ItemRow } from '../files/queries.ts';
import { dataRoute, type DataRequest } from '../http/data-route.ts';
import { readerOf } from './reader.ts';
import { validationError } from '../http/errors.ts';
import { contentDisposition } from './headers.ts';
import { listLiveChildrenForZip } from './queries.ts';
import { deflatedIfWorth, WHOLE_ENTRY_BYTES, worthDeflating, ZIP_DEFLATE_LEVEL } from './zip-method.ts';
import { openBlobBody, type BlobBody } from './blob-body.ts';
import { ZipWriter } from './zip-writer.ts';
import { bandwidthMeter } from '../billing/bandwidth.ts';

/**
 * Data plane: `GET /api/zip?items=id|type,id|type` streams a zip of the user's items: folders with
 * their live subtree (the trash stays out), files STORED when their type is already compressed or
 * a trial deflate of their first 64 KiB does not shrink them (random, encrypted, unknown media),
 * DEFLATEd at the fastest level otherwise (zip-method.ts), ZIP64 when past 4 GB or 65,535 entries
 * (zip-writer.ts). Entries are
 * written one at a time as the client reads: the first byte leaves as soon as the first entry's
 * header does, and neither a file nor the zip is ever held in memory.
 */

export const MAX_ZIP_SELECTION = 1000;
const ID = /^[0-9a-f-]{36}$/;

const SHARED_ZIP = /^\/api\/zip\/([^/]+)\/?$/;

export function isZipRequest(pathname: string, method: string): boolean {
  return (pathname === '/api/zip' || pathname === '/api/zip/' || SHARED_ZIP.test(pathname)) && (method === 'GET' || method === 'HEAD');
}

export interface ZipSelection {
  id: string;
  type: ItemType;
}

/** Parses `items=id|type,…`; a bad list is a 422 on `items`. */
export function parseZipItems(raw: string | null): ZipSelection[] {
  const refuse = (message: string) => validationError({ items: [message] });
  if (!raw?.trim()) throw refuse('Choose at least one item to download.');
  const parts = raw.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw refuse('Choose at least one item to download.');
  if (parts.length > MAX_ZIP_SELECTION) throw refuse(`At most ${MAX_ZIP_SELECTION} items can be zipped at once.`);
  const seen = new Set<string>();
  const out: ZipSelection[] = [];
  for (const part of parts) {
    const [id = '', type = '', ...rest] = part.split('|');
    if (rest.length || !ID.test(id.toLowerCase()) || (type !== 'file' && type !== 'folder')) throw refuse(`"${part.slice(0, 80)}" is not an item: use id|file or id|folder.`);
    if (seen.has(id.toLowerCase())) continue;
    seen.add(id.toLowerCase());
    out.push({ id: id.toLowerCase(), type });
  }
  return out;
}

/** Already-compressed types are stored as they are: deflating them again costs CPU and gains nothing. */
export function isAlreadyCompressed(mimetype: string | null): boolean {
  const type = (mimetype ?? '').toLowerCase().split(';')[0]!.trim();
  if (/^(image|video|audio)\//.test(type)) return !/^(image\/(bmp|svg\+xml|tiff|x-icon|vnd\.microsoft\.icon|x-portable)|audio\/(wav|x-wav|wave|aiff|x-aiff))/.test(type);
  return (
    /(zip|gzip|x-gzip|x-bzip2|x-xz|x-7z-compressed|x-rar|vnd\.rar|zstd|x-zstd|x-compress|x-lzip|x-lzma|x-brotli|epub\+zip|java-archive|x-apple-diskimage)$/.test(type) ||
    type === 'application/pdf' ||
    type.startsWith('application/vnd.openxmlformats-officedocument.') ||
    type.startsWith('application/vnd.oasis.opendocument.') ||
    type === 'font/woff' ||
    type === 'font/woff2'
  );
}

/**
 * One path segment of an entry name: no slashes or backslashes (never a directory or `..` of its
 * own), no control characters, none of Windows' forbidden `<>:"|?*`, never `.`, `..` or empty.
 */
export function safeEntrySegment(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.normalize('NFC').replace(/[\u0000-\u001f\u007f]/g, '').replace(/[\\/<>:"|?*]/g, '_').trim();
  if (!cleaned || /^\.+$/.test(cleaned)) return '_';
  return cleaned;
}

/** Names already used in each zip directory, compared as the file platform compares names. */
class EntryNames {
  private readonly taken = new Map<string, Set<string>>();
  /** A free entry path for `name` in `dir` ('' is the zip's root); `name (1).ext` on a clash. */
  claim(dir: string, name: string, isFile: boolean): string {
    let used = this.taken.get(dir);
    if (!used) this.taken.set(dir, (used = new Set()));
    const free = nextFreeName(safeEntrySegment(name), isFile, (key) => used.has(key));
    used.add(nameKey(free));
    return dir ? `${dir}/${free}` : free;
  }
}

type ZipItem = Pick<ItemRow, 'id' | 'type' | 'name' | 'mimetype' | 'size' | 'blob_key' | 'updated_at'>;

/**
 * What a zip is called: the one item's name; items from one folder, that folder's; else what it
 * holds (`2 files.zip`, `3 folders.zip`, `5 items.zip`), never one item's name for them all.
 */
export async function zipName(ctx: AppContext, roots: Pick<ItemRow, 'name' | 'type' | 'parent_id'>[]): Promise<string> {
  const [first] = roots;
  if (!first) return 'download.zip';
  if (roots.length === 1) return `${first.name}.zip`;
  const parent = first.parent_id;
  if (parent !== null && roots.every((r) => r.parent_id === parent)) {
    const folder = await ctx.db.selectFrom('items').select('name').where('id', '=', parent).executeTakeFirst();
    if (folder) return `${folder.name}.zip`;
  }
  const kinds = new Set(roots.map((r) => r.type));
  const noun = kinds.size > 1 ? 'items' : first.type === 'file' ? 'files' : 'folders';
  return `${roots.length} ${noun}.zip`;
}

// `/api/zip/{share token}`: a share link's holder zips items inside the share.
export const serveZip = dataRoute({ methods: ['GET', 'HEAD'], principal: readerOf(SHARED_ZIP, 1), handle: sendZip });

async function sendZip({ ctx, req, res, principal }: DataRequest<Principal>): Promise<void> {
  const selection = parseZipItems(new URL(req.url ?? '/', 'http://localhost').searchParams.get('items'));
  const user = await actorFor(ctx, actorOf(principal), selection.map((s) => s.id));
  // One set-based check for the whole selection (parseZipItems already dropped duplicates).
  const roots = await requireOwnedItems(ctx, user, selection.map(({ id, type }) => ({ id, type, field: 'items' })));
  requireCanDownload(user);

  const filename = await zipName(ctx, roots);
  res.writeHead(200, {
    'Content-Type': 'application/zip',
    'Content-Disposition': contentDisposition(filename, false),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
  });
  if (req.method === 'HEAD') return void res.end();
  res.flushHeaders();
  await writeZip(ctx, user, roots, res);
}

/**
 * One file's entry: a small one is read whole and deflated in one call when that shrinks it; a larger
 * one is STORED or DEFLATED by a trial deflate of its first chunk, its chunks going out as they are read.
 */
async function addEntry(zip: ZipWriter, name: string, item: ZipItem, body: BlobBody): Promise<void> {
  const date = new Date(item.updated_at);
  const size = body.stat.size;
  if (size === 0) return zip.addFile(name, date, null, { store: true, sizeHint: 0 });
  const chunks = body.chunks({ start: 0, end: size - 1 })[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done) return zip.addFile(name, date, null, { store: true, sizeHint: 0 });
  const compressed = isAlreadyCompressed(item.mimetype);
  if (size <= WHOLE_ENTRY_BYTES && first.value.length === size) {
    await zip.addBytes(name, date, first.value, compressed ? null : deflatedIfWorth(first.value));
    // Asked to the end, the source knows its chunk was taken (its buffers go back for reuse).
    await chunks.next();
    return;
  }
  const store = compressed || !worthDeflating(first.value);
  await zip.addFile(name, date, startingWith(first.value, chunks), { store, sizeHint: size });
}

/** `first`, then the rest of `rest`. */
async function* startingWith(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    yield first;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}

/** Streams the zip of `roots` into `res`; a client that leaves stops the walk and closes every open blob. */
async function writeZip(ctx: AppContext, user: User, roots: ZipItem[], res: ServerResponse): Promise<void> {
  const count = await bandwidthMeter(ctx);
  const zip = new ZipWriter(res, ZIP_DEFLATE_LEVEL);
  const open = new Set<BlobBody>();
  let gone = false;
  const stop = () => {
    gone = true;
    // Unblocks a read waiting on a remote store.
    for (const body of open) void body.close();
    open.clear();
  };
  res.once('close', () => {
    if (!res.writableFinished) stop();
  });

  const names = new EntryNames();
  // The files' bytes this zip carried, for metered bandwidth (billing/bandwidth.ts), counted once at the end.
  let carried = 0;

  const addFile = async (dir: string, item: ZipItem) => {
    const name = names.claim(dir, item.name, true);
    const body = await openBlobBody(ctx, item.blob_key!, { size: Number(item.size), modifiedAt: new Date(item.updated_at) });
    if (!body) throw new Error(`the blob of item ${item.id} is missing`);
    open.add(body);
    try {
      if (gone) return;
      await addEntry(zip, name, item, body);
    } finally {
      open.delete(body);
      await body.close();
    }
    carried += Number(item.size ?? 0);
  };

  // Depth first, one folder's children at a time: only the current path's listings are held.
  const addFolder = async (dir: string, folder: ZipItem) => {
    const path = names.claim(dir, folder.name, false);
    await zip.addDirectory(`${path}/`, new Date(folder.updated_at));
    const children = await listLiveChildrenForZip(ctx.db, user.id, folder.id);
    for (const child of children) {
      if (gone) return;
      if (child.type === 'folder') await addFolder(path, child);
      else if (child.blob_key) await addFile(path, child);
    }
  };

  try {
    for (const root of roots) {
      if (gone) break;
      if (root.type === 'folder') await addFolder('', root);
      else if (root.blob_key) await addFile('', root);
    }
    if (!gone) await zip.finish();
  } catch (error) {
    // A blob that fails to read must not yield a zip that looks whole: the response is cut off.
    if (!gone) ctx.logger.error({ err: error, userId: user.id }, 'zip stopped halfway');
    stop();
    res.destroy();
  }
  await count(user.id, carried);
}
