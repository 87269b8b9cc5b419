import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import { runEvery } from '../jobs/every.ts';
import { THUMBNAIL_SIZE_NAMES, thumbnailBlobKeys } from '../previews/sizes.ts';
import { readProgress } from '../setup/progress.ts';
import { keysWithIntent } from '../uploads/intents.ts';
import { recoverUploads } from '../uploads/recover.ts';
import { resumeDeletions } from './deletions.ts';
import { AVATAR_SIZES } from '../users/presenter.ts';
import type { BlobEntry } from './store.ts';

/**
 * The blob reconciler: compares the blob store with the rows that refer to blobs, both ways.
 *
 * Who refers to a blob (every writer of ctx.blobs):
 * - `files/{owner}/{id}`: items.blob_key (files, the trash included), or an upload's intent
 *   (pending_blobs) while it finishes;
 * - `thumbnails/{owner}/{item}-{xs|sm|md}.webp`: items.thumbnail_key is the prefix;
 * - `avatars/{user}/{version}-{xs|sm|md}.webp`: users.avatar_key is the version;
 * - `branding/{hash}.{ext}`: a `/branding/…` path in a setting, a page, or the setup wizard's saved
 *   progress (a logo uploaded in the wizard before the step is finished).
 * Keys under any other folder are counted as unknown and never touched.
 *
 * Orphans (no reference) are removed with `repair`, but only once older than the grace period: a
 * thumbnail or avatar is stored a moment before its row is updated, and upload blobs are named
 * by their intent before they exist (intents are read before rows, so an upload committing in
 * between is seen by one or the other). Rows whose blob is missing are reported, never changed.
 *
 * Streams: the store is listed one page at a time and looked up in the database a batch of keys
 * at a time (indexed `in` queries); rows are walked by keyset pages; the event loop gets a turn
 * between batches. Memory stays at one batch, whatever the size of the store.
 */
export interface ReconcileOptions {
  /** Remove orphans older than the grace period. */
  repair: boolean;
  graceMs: number;
  batchSize?: number;
  onOrphan?: (blob: BlobEntry, removed: boolean) => void;
  onMissing?: (missing: MissingBlob) => void;
}

export interface MissingBlob {
  kind: 'file' | 'thumbnail' | 'avatar' | 'branding';
  /** The row: an item id, a user id, or where the branding path was found. */
  id: string;
  key: string;
}

export interface ReconcileReport {
  /** Blobs listed, and their bytes. */
  blobs: number;
  bytes: number;
  referenced: number;
  /** Unreferenced and older than the grace period; `removed` of them were deleted. */
  orphans: number;
  orphanBytes: number;
  removed: number;
  /** Unreferenced but younger than the grace period: left for the next run. */
  recent: number;
  /** Keys outside the folders we know. */
  unknown: number;
  /** Blob references checked in rows, and how many name a blob that is not there. */
  references: number;
  missing: number;
}

const SIZE_SUFFIX = new RegExp(`^(.+)-(${THUMBNAIL_SIZE_NAMES.join('|')})\\.webp$`);
const AVATAR_KEY = new RegExp(`^avatars/([0-9a-f-]{36})/([a-z0-9]{8,40})-(${Object.keys(AVATAR_SIZES).join('|')})\\.webp$`);
const BRANDING_PATH = /\/branding\/([0-9a-f]{32}\.(?:png|jpg|webp))/g;

export async function reconcileBlobs(ctx: AppContext, options: ReconcileOptions): Promise<ReconcileReport> {
  const batchSize = options.batchSize ?? 500;
  const report: ReconcileReport = { blobs: 0, bytes: 0, referenced: 0, orphans: 0, orphanBytes: 0, removed: 0, recent: 0, unknown: 0, references: 0, missing: 0 };
  const branding = await brandingReferences(ctx);
  const cutoff = ctx.clock.now().getTime() - options.graceMs;

  let batch: BlobEntry[] = [];
  const flush = async () => {
    const referenced = await referencedKeys(ctx, batch.map((b) => b.key), branding);
    const orphans: BlobEntry[] = [];
    for (const blob of batch) {
      if (referenced.has(blob.key)) {
        report.referenced += 1;
        continue;
      }
      if (!isKnown(blob.key)) {
        report.unknown += 1;
        continue;
      }
      if (blob.modifiedAt.getTime() > cutoff) {
        report.recent += 1;
        continue;
      }
      report.orphans += 1;
      report.orphanBytes += blob.size;
      orphans.push(blob);
    }
    // One batched delete per listing batch (S3: one request), then each orphan reported.
    const failed = new Set<string>();
    if (options.repair && orphans.length) {
      for (const { key, error } of await ctx.blobs.deleteMany(orphans.map((b) => b.key))) {
        failed.add(key);
        ctx.logger.error({ err: error, key }, 'could not remove an orphan blob');
      }
    }
    for (const blob of orphans) {
      const removed = options.repair === true && !failed.has(blob.key);
      if (removed) report.removed += 1;
      options.onOrphan?.(blob, removed);
    }
    batch = [];
    await yieldToLoop();
  };
  for await (const blob of ctx.blobs.list()) {
    report.blobs += 1;
    report.bytes += blob.size;
    batch.push(blob);
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length) await flush();

  const missing = (m: MissingBlob) => {
    report.missing += 1;
    options.onMissing?.(m);
  };
  await checkItems(ctx, batchSize, report, missing);
  await checkAvatars(ctx, batchSize, report, missing);
  for (const [key, where] of branding) {
    report.references += 1;
    if (!(await ctx.blobs.stat(key))) missing({ kind: 'branding', id: where, key });
  }
  return report;
}

function isKnown(key: string): boolean {
  return /^(files|thumbnails|avatars|branding)\//.test(key);
}

/** Which of these listed keys something refers to. Intents are read first (see above). */
async function referencedKeys(ctx: AppContext, keys: string[], branding: Map<string, string>): Promise<Set<string>> {
  const referenced = await keysWithIntent(ctx.db, keys);
  const files = keys.filter((k) => k.startsWith('files/'));
  if (files.length) {
    const rows = await ctx.db.selectFrom('items').select('blob_key').where('blob_key', 'in', files).execute();
    for (const r of rows) referenced.add(r.blob_key!);
  }
  const thumbnails = new Map<string, string[]>();
  for (const key of keys) {
    const match = key.startsWith('thumbnails/') ? SIZE_SUFFIX.exec(key) : null;
    if (match) thumbnails.set(match[1]!, [...(thumbnails.get(match[1]!) ?? []), key]);
  }
  if (thumbnails.size) {
    const rows = await ctx.db.selectFrom('items').select('thumbnail_key').where('thumbnail_key', 'in', [...thumbnails.keys()]).execute();
    for (const r of rows) for (const key of thumbnails.get(r.thumbnail_key!) ?? []) referenced.add(key);
  }
  const avatars = new Map<string, { version: string; key: string }[]>();
  for (const key of keys) {
    const match = AVATAR_KEY.exec(key);
    if (match) avatars.set(match[1]!, [...(avatars.get(match[1]!) ?? []), { version: match[2]!, key }]);
  }
  if (avatars.size) {
    const rows = await ctx.db.selectFrom('users').select(['id', 'avatar_key']).where('id', 'in', [...avatars.keys()]).execute();
    for (const r of rows) for (const a of avatars.get(r.id) ?? []) if (a.version === r.avatar_key) referenced.add(a.key);
  }
  for (const key of keys) if (branding.has(key)) referenced.add(key);
  return referenced;
}

/** Branding blob keys referred to, each with where (setting, page, setup). A handful: held whole. */
async function brandingReferences(ctx: AppContext): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const scan = (text: string, where: string) => {
    for (const match of text.matchAll(BRANDING_PATH)) if (!found.has(`branding/${match[1]}`)) found.set(`branding/${match[1]}`, where);
  };
  for (const row of await ctx.db.selectFrom('settings').select(['key', 'value']).execute()) scan(row.value, `setting:${row.key}`);
  for (const row of await ctx.db.selectFrom('pages').select(['slug', 'content']).execute()) scan(row.content, `page:${row.slug}`);
  scan(JSON.stringify(await readProgress(ctx.config.dataDir)), 'setup');
  return found;
}

/** Every item's blob and thumbnails must exist; walked by id, a page at a time. */
async function checkItems(ctx: AppContext, batchSize: number, report: ReconcileReport, missing: (m: MissingBlob) => void): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await ctx.db
      .selectFrom('items')
      .select(['id', 'blob_key', 'thumbnail_key'])
      .where('blob_key', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute();
    const wanted = rows.flatMap((r) => [{ id: r.id, key: r.blob_key!, kind: 'file' as const }, ...thumbnailBlobKeys(r.thumbnail_key).map((key) => ({ id: r.id, key, kind: 'thumbnail' as const }))]);
    report.references += wanted.length;
    const absent = await absentOf(ctx, wanted);
    if (absent.length) {
      // Deleted meanwhile (the row went, then its blob)? Only rows still naming the blob count.
      const still = await ctx.db.selectFrom('items').select(['id', 'blob_key', 'thumbnail_key']).where('id', 'in', [...new Set(absent.map((a) => a.id))]).execute();
      const byId = new Map(still.map((r) => [r.id, r]));
      for (const a of absent) {
        const row = byId.get(a.id);
        if (row && (row.blob_key === a.key || thumbnailBlobKeys(row.thumbnail_key).includes(a.key))) missing(a);
      }
    }
    if (rows.length < batchSize) return;
    after = rows.at(-1)!.id;
    await yieldToLoop();
  }
}

async function checkAvatars(ctx: AppContext, batchSize: number, report: ReconcileReport, missing: (m: MissingBlob) => void): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await ctx.db.selectFrom('users').select(['id', 'avatar_key']).where('avatar_key', 'is not', null).where('id', '>', after).orderBy('id').limit(batchSize).execute();
    const wanted = rows.flatMap((r) => Object.keys(AVATAR_SIZES).map((size) => ({ id: r.id, key: `avatars/${r.id}/${r.avatar_key}-${size}.webp`, kind: 'avatar' as const })));
    report.references += wanted.length;
    const absent = await absentOf(ctx, wanted);
    if (absent.length) {
      const still = await ctx.db.selectFrom('users').select(['id', 'avatar_key']).where('id', 'in', [...new Set(absent.map((a) => a.id))]).execute();
      const byId = new Map(still.map((r) => [r.id, r.avatar_key]));
      for (const a of absent) if (byId.has(a.id) && a.key.startsWith(`avatars/${a.id}/${byId.get(a.id)}-`)) missing(a);
    }
    if (rows.length < batchSize) return;
    after = rows.at(-1)!.id;
    await yieldToLoop();
  }
}

/** The references whose blob is not in the store: stat'ed a few dozen at a time. */
async function absentOf<T extends { key: string }>(ctx: AppContext, wanted: T[]): Promise<T[]> {
  const absent: T[] = [];
  for (let i = 0; i < wanted.length; i += 32) {
    const slice = wanted.slice(i, i + 32);
    const stats = await Promise.all(slice.map((w) => ctx.blobs.stat(w.key).catch(() => null)));
    slice.forEach((w, n) => {
      if (!stats[n]) absent.push(w);
    });
  }
  return absent;
}

/**
 * The scheduled run (at start, then every BLOB_RECONCILE_SECONDS): settles intents older than the
 * upload expiry (and an hour) first (a failure that could not remove its blob) and finishes blob
 * deletions left in `blob_deletions` (blobs/deletions.ts), then removes orphans past the
 * grace period and logs rows whose blob is missing (the first 100 each run, then the count).
 */
export async function runBlobReconciler(ctx: AppContext): Promise<ReconcileReport> {
  // Intents of dead processes only (uploads/recover.ts); at least an hour old.
  await recoverUploads(ctx, { before: new Date(ctx.clock.now().getTime() - Math.max(ctx.config.uploads.expiryMs, 60 * 60_000)) });
  // Deletions a storage failure left unfinished (deleting a blob again is harmless).
  await resumeDeletions(ctx);
  let logged = 0;
  const report = await reconcileBlobs(ctx, {
    repair: true,
    graceMs: ctx.config.blobs.orphanGraceMs,
    onMissing: (m) => {
      if (logged++ < 100) ctx.logger.warn({ kind: m.kind, id: m.id, key: m.key }, 'a row refers to a blob that is missing');
    },
  });
  const level = report.missing > 0 || report.removed > 0 ? 'warn' : 'info';
  ctx.logger[level]({ ...report }, 'blob reconciler: done');
  return report;
}

export function scheduleBlobReconciler(ctx: AppContext): () => Promise<void> {
  return runEvery(ctx, 'blob reconciler', ctx.config.blobs.reconcileMs, () => runBlobReconciler(ctx));
}
