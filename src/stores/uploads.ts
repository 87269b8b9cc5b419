import type { Meta, Uppy, UppyFile } from '@uppy/core';
import { atom } from 'nanostores';
import { parseErrorBody, type ErrorBody } from './api.ts';
import { $config } from './config.ts';
import { $listing, loadTree, refreshListing } from './files.ts';
import { refreshStorageUsage } from './storage.ts';
import { t } from './i18n.ts';
import { showAlert } from './ui.ts';
import { $user } from './user.ts';

/**
 * The upload queue (SPEC §4). Files that fit in one chunk go as one multipart POST to /api/upload
 * (@uppy/xhr-upload); larger ones go over tus to /api/upload/tus (@uppy/tus) in `chunkSize` pieces,
 * resumable after a dropped connection, a restart or a reload. Queued files start in turn, a few
 * at a time; uploads carry on while the user moves between folders. The uploader libraries are
 * fetched on first use (or in idle time, `preloadUploaders`), not before the file list is drawn.
 */
export const UPLOAD_PARALLELISM = 3;

/**
 * Uppy holds the files in flight and the failed ones (the queue panel reads them through
 * @uppy/react's hooks). A file that finished or was cancelled leaves Uppy at once, so a second copy
 * can be queued; its row stays in `$finished` until the queue drains, then leaves with it.
 */
export interface FinishedUpload {
  id: string;
  order: number;
  name: string;
  size: number;
  path: string | null;
  status: 'done' | 'cancelled';
}
export const $finished = atom<FinishedUpload[]>([]);

/** The two Uppy instances, made on the first upload (the tus chunk size comes from the loaded config). */
export const $uploaders = atom<{ small: Uppy<UploadMeta>; large: Uppy<UploadMeta> } | null>(null);

export interface UploadMeta extends Meta {
  filename: string;
  filetype: string;
  parent_id: string;
  path: string;
  extension: string;
  /** Position in the queue across both instances (never sent: not in `allowedMetaFields`). */
  order: number;
}

const headers = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
let small: Uppy<UploadMeta> | null = null;
let large: Uppy<UploadMeta> | null = null;
let folderUploaded = false;
let queued = 0;

function chunkSize(): number {
  return $config.get()?.chunkSize ?? 8 * 1024 * 1024;
}

function finish(file: UppyFile<UploadMeta, Record<string, never>>, status: FinishedUpload['status']): void {
  const entry = { id: file.id, order: file.meta.order, name: file.name ?? '', size: file.size ?? 0, path: file.meta.path || null, status };
  $finished.set([...$finished.get().filter((e) => e.id !== file.id), entry]);
}

function wire(uppy: Uppy<UploadMeta>): Uppy<UploadMeta> {
  uppy.on('upload-success', (file) => {
    if (!file) return;
    finish(file, 'done');
    uppy.removeFile(file.id);
    scheduleRefresh(file.meta.parent_id || null);
    settleIfDrained();
  });
  uppy.on('upload-error', (file, error, response) => {
    if (!file) return;
    const message = messageFor(refusalOf(error, response), file.name);
    // Uppy has stored its own text as the file's error; the row shows the spec's message instead.
    if (uppy.getFile(file.id)) uppy.setFileState(file.id, { error: message });
    showAlert({ title: t('uploads.failed_title'), message });
    settleIfDrained();
  });
  return uppy;
}

let libraries: Promise<[typeof import('@uppy/core'), typeof import('@uppy/tus'), typeof import('@uppy/xhr-upload')]> | null = null;

/** Fetches the uploader libraries once; a failed fetch is tried again on the next use. */
function loadLibraries(): NonNullable<typeof libraries> {
  libraries ??= Promise.all([import('@uppy/core'), import('@uppy/tus'), import('@uppy/xhr-upload')]);
  libraries.catch(() => (libraries = null));
  return libraries;
}

/** Fetches the uploader libraries ahead of the first upload (the app calls it in idle time). */
export function preloadUploaders(): void {
  loadLibraries().catch(() => undefined);
}

async function uploaders(): Promise<{ small: Uppy<UploadMeta>; large: Uppy<UploadMeta> }> {
  const [{ default: Uppy }, { default: Tus }, { default: XHRUpload }] = await loadLibraries();
  if (!small) {
    small = wire(new Uppy<UploadMeta>({ id: 'small', autoProceed: true, allowMultipleUploadBatches: true }));
    small.use(XHRUpload, {
      // The folder is named in the query too: the server picks the acting owner (mine, or a team
      // folder's owner) from it before reading the body.
      endpoint: (file) => {
        const parent = (Array.isArray(file) ? file[0] : file)?.meta.parent_id;
        return typeof parent === 'string' && parent ? `/api/upload?${new URLSearchParams({ parent_id: parent })}` : '/api/upload';
      },
      fieldName: 'file',
      formData: true,
      headers,
      limit: UPLOAD_PARALLELISM,
      allowedMetaFields: ['filename', 'parent_id', 'path', 'extension'],
      // SPEC §8 handles 4xx answers itself: only network failures and 5xx are retried.
      shouldRetry: (xhr) => xhr.status === 0 || xhr.status >= 500,
    });
  }
  if (!large) {
    large = wire(new Uppy<UploadMeta>({ id: 'large', autoProceed: true, allowMultipleUploadBatches: true }));
    large.use(Tus, {
      endpoint: '/api/upload/tus',
      chunkSize: chunkSize(),
      headers,
      limit: UPLOAD_PARALLELISM,
      retryDelays: [0, 1000, 3000],
      // A refusal (quota 423, blocked type 422, too large 413) is final: only 409 (offset out of
      // step, fixed by asking again), network failures and 5xx are retried.
      onShouldRetry: (err, _attempt, _options, next) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        if (status >= 400 && status < 500 && status !== 409) return false;
        return next(err);
      },
      removeFingerprintOnSuccess: true,
      allowedMetaFields: ['filename', 'filetype', 'parent_id', 'path'],
    });
  }
  if (!$uploaders.get()) $uploaders.set({ small, large });
  return { small, large };
}

interface Refusal extends ErrorBody {
  status: number;
}

/** What tus-js-client's error carries: the answer it gave up on. */
interface TusAnswer {
  getStatus(): number;
  getBody(): string;
}

/**
 * The server's answer to a failed upload: its status and body (`{ message, code?, errors? }`).
 * tus errors carry the answer itself (`originalResponse`); xhr-upload hands over the request.
 */
function refusalOf(error: Error, response: unknown): Refusal {
  const tus = (error as { originalResponse?: TusAnswer | null }).originalResponse;
  if (tus) return { status: tus.getStatus(), ...parseErrorBody(tus.getBody()) };
  const xhr = (error as { request?: XMLHttpRequest }).request ?? (typeof XMLHttpRequest !== 'undefined' && response instanceof XMLHttpRequest ? response : undefined);
  if (xhr) return { status: xhr.status, ...parseErrorBody(xhr.responseText) };
  const status = (response as { status?: unknown } | undefined)?.status;
  return { status: typeof status === 'number' ? status : 0, ...parseErrorBody((response as { body?: unknown } | undefined)?.body) };
}

/**
 * SPEC §8: the popup for each refusal, in the user's language, chosen by the server's code; the
 * server's message for a refusal the spec names no popup for; by status only for an answer
 * without a code (a proxy's 413).
 */
function messageFor(refusal: Refusal, name: string): string {
  const kind = refusal.code ? REFUSAL_KINDS[refusal.code] : refusal.message ? undefined : STATUS_KINDS[refusal.status];
  if (kind === 'quota') return t('uploads.exceed_limit');
  if (kind === 'no-uploads') return t('uploads.exceed_upload_limit');
  if (kind === 'disabled') return t('uploads.upload_temporarily_disabled');
  if (kind === 'type') return t('uploads.blocked_type', { name: extensionOf(name) || name });
  if (kind === 'size') return t('uploads.too_large', { limit: $config.get()?.uploadLimitFormatted ?? '' });
  if (kind === 'session') return t('errors.session_ended');
  return refusal.message ?? t('popup_error.message');
}

type RefusalKind = 'quota' | 'no-uploads' | 'disabled' | 'type' | 'size' | 'session';
const REFUSAL_KINDS: Record<string, RefusalKind> = {
  storage_limit_exceeded: 'quota',
  exceed_upload_limit: 'no-uploads',
  upload_temporarily_disabled: 'disabled',
  mimetype_blacklisted: 'type',
  upload_limit_exceeded: 'size',
  unauthenticated: 'session',
  invalid_token: 'session',
};
const STATUS_KINDS: Record<number, RefusalKind> = { 423: 'quota', 422: 'type', 413: 'size', 401: 'session' };

let refreshTimer: ReturnType<typeof setTimeout> | null = null;
function scheduleRefresh(parentId: string | null): void {
  const source = $listing.get()?.source;
  const here = source?.kind === 'latest' || ((source?.kind === 'folder' || source?.kind === 'team' || source?.kind === 'shared') && source.id === parentId);
  if (!here || refreshTimer) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void refreshListing();
  }, 400);
}

/** When the queue empties, progress clears and the storage meter refreshes; after a folder upload the view and tree refresh. */
function settleIfDrained(): void {
  // Finished files have left Uppy; what stays is in flight or failed.
  const pending = [small, large].some((uppy) => uppy?.getFiles().some((f) => !f.error));
  if (pending) return;
  refreshStorageUsage();
  if (folderUploaded) {
    folderUploaded = false;
    void refreshListing();
    void loadTree();
  }
  // Finished files leave the list; errors stay (in Uppy) until dismissed so the user can read and retry them.
  const settled = new Set($finished.get().map((e) => e.id));
  setTimeout(() => $finished.set($finished.get().filter((e) => !settled.has(e.id))), 1500);
}

export interface PickedFile {
  file: File;
  /** The path inside a dropped or picked folder, without the file name ("Photos/2024"), or null. */
  relativeDir: string | null;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Checks the spec's client-side refusals before any byte is sent (the server checks again). */
function refusal(file: File): string | null {
  const user = $user.get();
  const config = $config.get();
  if (user && !user.meta.restrictions.canUpload) return config?.subscriptionType === 'none' ? t('uploads.exceed_upload_limit') : t('uploads.upload_temporarily_disabled');
  const ext = extensionOf(file.name);
  const type = file.type.toLowerCase();
  // Entries are extensions ("exe"), MIME types ("application/x-msdownload") or families ("video/*").
  for (const raw of (config?.mimetypesBlacklist ?? []) as string[]) {
    const entry = raw.toLowerCase().trim().replace(/^\./, '');
    const hit = entry.endsWith('/*') ? type.startsWith(entry.slice(0, -1)) : entry.includes('/') ? type === entry : ext === entry;
    if (hit) return t('uploads.blocked_type', { name: entry.includes('/') ? type : ext });
  }
  const limit = config?.uploadLimit ?? 0;
  if (limit > 0 && file.size > limit) return t('uploads.too_large', { limit: config?.uploadLimitFormatted ?? '' });
  return null;
}

/** Queues files (and folder contents) for the folder `parentId`. */
export function enqueue(files: PickedFile[], parentId: string | null): void {
  uploaders().then(
    ({ small: xhr, large: tus }) => addFiles(xhr, tus, files, parentId),
    () => showAlert({ title: t('popup_error.title'), message: t('popup_error.message') }),
  );
}

function addFiles(xhr: Uppy<UploadMeta>, tus: Uppy<UploadMeta>, files: PickedFile[], parentId: string | null): void {
  const refused: string[] = [];
  for (const { file, relativeDir } of files) {
    const reason = refusal(file);
    if (reason) {
      refused.push(reason);
      continue;
    }
    if (relativeDir) folderUploaded = true;
    const meta: UploadMeta = { filename: file.name, filetype: file.type || 'application/octet-stream', parent_id: parentId ?? '', path: relativeDir ?? '', extension: extensionOf(file.name), order: queued++ };
    const target = file.size > chunkSize() ? tus : xhr;
    try {
      target.addFile({ name: file.name, type: file.type, data: file, meta, source: 'local' });
    } catch (error) {
      // Uppy refuses a second copy of a file already in the queue.
      refused.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (refused.length) showAlert({ title: t('uploads.refused_title'), message: [...new Set(refused)].join(' ') });
}

function owner(id: string): Uppy<UploadMeta> | null {
  for (const uppy of [small, large]) if (uppy && (uppy.getFiles() as UppyFile<UploadMeta, Record<string, never>>[]).some((f) => f.id === id)) return uppy;
  return null;
}

export function cancelUpload(id: string): void {
  const uppy = owner(id);
  const file = uppy?.getFile(id);
  if (!uppy || !file) return;
  finish(file, 'cancelled');
  uppy.removeFile(id);
  settleIfDrained();
}

/** Cancels what is queued or in flight; failed files stay listed for retry or dismissal. */
export function cancelAllUploads(): void {
  for (const uppy of [small, large]) {
    if (!uppy) continue;
    const live = uppy.getFiles().filter((f) => !f.error);
    for (const file of live) finish(file, 'cancelled');
    if (live.length) uppy.removeFiles(live.map((f) => f.id));
  }
  settleIfDrained();
}

export function retryUpload(id: string): void {
  void owner(id)?.retryUpload(id);
}

export function dismissUpload(id: string): void {
  owner(id)?.removeFile(id);
  $finished.set($finished.get().filter((e) => e.id !== id));
}
