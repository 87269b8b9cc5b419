import Uppy, { type Meta, type UppyFile } from '@uppy/core';
import Tus from '@uppy/tus';
import XHRUpload from '@uppy/xhr-upload';
import { atom, computed } from 'nanostores';
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
 * at a time; uploads carry on while the user moves between folders.
 */
export const UPLOAD_PARALLELISM = 3;

export type UploadStatus = 'queued' | 'uploading' | 'processing' | 'done' | 'error' | 'cancelled';
export interface UploadEntry {
  id: string;
  name: string;
  size: number;
  parentId: string | null;
  path: string | null;
  status: UploadStatus;
  bytes: number;
  error: string | null;
}

export const $uploads = atom<UploadEntry[]>([]);

/** One figure for the whole queue, capped at 100 (SPEC §4); null when nothing is uploading. */
export const $uploadProgress = computed($uploads, (entries) => {
  const live = entries.filter((e) => e.status !== 'cancelled' && e.status !== 'error');
  if (!live.length || live.every((e) => e.status === 'done')) return null;
  const total = live.reduce((sum, e) => sum + Math.max(e.size, 1), 0);
  const sent = live.reduce((sum, e) => sum + (e.status === 'done' || e.status === 'processing' ? Math.max(e.size, 1) : Math.min(e.bytes, e.size)), 0);
  return Math.min(100, Math.floor((sent / total) * 100));
});

interface UploadMeta extends Meta {
  filename: string;
  filetype: string;
  parent_id: string;
  path: string;
  extension: string;
}

function patch(id: string, change: Partial<UploadEntry>): void {
  $uploads.set($uploads.get().map((e) => (e.id === id ? { ...e, ...change } : e)));
}

const headers = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
let small: Uppy<UploadMeta> | null = null;
let large: Uppy<UploadMeta> | null = null;
let folderUploaded = false;

function chunkSize(): number {
  return $config.get()?.chunkSize ?? 8 * 1024 * 1024;
}

function wire(uppy: Uppy<UploadMeta>): Uppy<UploadMeta> {
  uppy.on('upload-progress', (file, progress) => {
    if (!file) return;
    const done = typeof progress.bytesUploaded === 'number' ? progress.bytesUploaded : 0;
    patch(file.id, { status: done >= (file.size ?? 0) ? 'processing' : 'uploading', bytes: done });
  });
  uppy.on('upload-success', (file) => {
    if (!file) return;
    patch(file.id, { status: 'done', bytes: file.size ?? 0 });
    uppy.removeFile(file.id);
    scheduleRefresh(file.meta.parent_id || null);
    settleIfDrained();
  });
  uppy.on('upload-error', (file, error, response) => {
    if (!file) return;
    const message = messageFor(refusalOf(error, response), file.name);
    patch(file.id, { status: 'error', error: message });
    showAlert({ title: t('uploads.failed_title'), message });
    settleIfDrained();
  });
  return uppy;
}

function uploaders(): { small: Uppy<UploadMeta>; large: Uppy<UploadMeta> } {
  if (!small) {
    small = wire(new Uppy<UploadMeta>({ id: 'small', autoProceed: true, allowMultipleUploadBatches: true }));
    small.use(XHRUpload, {
      endpoint: '/api/upload',
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
  const here = source?.kind === 'latest' || (source?.kind === 'folder' && source.id === parentId);
  if (!here || refreshTimer) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void refreshListing();
  }, 400);
}

/** When the queue empties, progress clears and the storage meter refreshes; after a folder upload the view and tree refresh. */
function settleIfDrained(): void {
  const pending = $uploads.get().some((e) => e.status === 'queued' || e.status === 'uploading' || e.status === 'processing');
  if (pending) return;
  refreshStorageUsage();
  if (folderUploaded) {
    folderUploaded = false;
    void refreshListing();
    void loadTree();
  }
  // Finished files leave the list; errors stay until dismissed so the user can read and retry them.
  setTimeout(() => $uploads.set($uploads.get().filter((e) => e.status === 'error')), 1500);
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
  const { small: xhr, large: tus } = uploaders();
  const refused: string[] = [];
  for (const { file, relativeDir } of files) {
    const reason = refusal(file);
    if (reason) {
      refused.push(reason);
      continue;
    }
    if (relativeDir) folderUploaded = true;
    const meta: UploadMeta = { filename: file.name, filetype: file.type || 'application/octet-stream', parent_id: parentId ?? '', path: relativeDir ?? '', extension: extensionOf(file.name) };
    const target = file.size > chunkSize() ? tus : xhr;
    try {
      const id = target.addFile({ name: file.name, type: file.type, data: file, meta, source: 'local' });
      $uploads.set([...$uploads.get(), { id, name: file.name, size: file.size, parentId, path: relativeDir, status: 'queued', bytes: 0, error: null }]);
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
  owner(id)?.removeFile(id);
  patch(id, { status: 'cancelled' });
  settleIfDrained();
}

export function cancelAllUploads(): void {
  small?.cancelAll();
  large?.cancelAll();
  $uploads.set($uploads.get().map((e) => (e.status === 'done' || e.status === 'error' ? e : { ...e, status: 'cancelled' })));
  settleIfDrained();
}

export function retryUpload(id: string): void {
  const uppy = owner(id);
  if (!uppy) return;
  patch(id, { status: 'queued', error: null, bytes: 0 });
  void uppy.retryUpload(id);
}

export function dismissUpload(id: string): void {
  owner(id)?.removeFile(id);
  $uploads.set($uploads.get().filter((e) => e.id !== id));
}
