import type { UppyFile } from '@uppy/core';
import type { FinishedUpload, UploadMeta } from '../../stores/uploads.ts';

export type UploadStatus = 'queued' | 'uploading' | 'processing' | 'done' | 'error' | 'cancelled';
export interface UploadEntry {
  id: string;
  name: string;
  size: number;
  path: string | null;
  status: UploadStatus;
  bytes: number;
  error: string | null;
}

type Files = Record<string, UppyFile<UploadMeta, Record<string, never>>>;

/** What a file in Uppy's state shows: failed, queued (no byte sent yet), sending, or sent and awaiting the server's answer. */
function fromUppy(file: UppyFile<UploadMeta, Record<string, never>>): UploadEntry & { order: number } {
  const size = file.size ?? 0;
  const bytes = typeof file.progress.bytesUploaded === 'number' ? file.progress.bytesUploaded : 0;
  const status: UploadStatus = file.error ? 'error' : bytes > 0 && bytes >= size ? 'processing' : bytes > 0 ? 'uploading' : 'queued';
  return { id: file.id, order: file.meta.order, name: file.name ?? '', size, path: file.meta.path || null, status, bytes, error: file.error ?? null };
}

/** The queue's rows in the order the files were queued: Uppy's files (both instances) and those that have left it. */
export function queueEntries(uppyFiles: Files[], finished: FinishedUpload[]): UploadEntry[] {
  const rows = [
    ...uppyFiles.flatMap((files) => Object.values(files).map(fromUppy)),
    ...finished.map((e) => ({ ...e, bytes: e.status === 'done' ? e.size : 0, error: null })),
  ];
  return rows.sort((a, b) => a.order - b.order).map(({ order: _order, ...entry }) => entry);
}

/** One figure for the whole queue, capped at 100 (SPEC §4); null when nothing is uploading. */
export function queueProgress(entries: UploadEntry[]): number | null {
  const live = entries.filter((e) => e.status !== 'cancelled' && e.status !== 'error');
  if (!live.length || live.every((e) => e.status === 'done')) return null;
  const total = live.reduce((sum, e) => sum + Math.max(e.size, 1), 0);
  const sent = live.reduce((sum, e) => sum + (e.status === 'done' || e.status === 'processing' ? Math.max(e.size, 1) : Math.min(e.bytes, e.size)), 0);
  return Math.min(100, Math.floor((sent / total) * 100));
}
