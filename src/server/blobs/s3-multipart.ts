import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from '../logging/logger.ts';

/**
 * Multipart uploads nobody will complete, aborted so the bucket stops keeping (and billing) their
 * parts: a put of a node that died mid-way (lib-storage aborts only on an error it sees), or a tus
 * upload whose record went. Used by the upload sweep (tus.ts sweepUploads, through the S3 store's
 * sweepTemporary and the tus staging's sweepOrphans).
 *
 * An upload counts as abandoned when its last part (ListParts), or its start when it has none, is
 * older than the cutoff. A server without ListMultipartUploads or AbortMultipartUpload (s3rver
 * answers 501 or 405) is logged once and left alone: a bucket lifecycle rule
 * (AbortIncompleteMultipartUpload) does the work there.
 */
export interface Multipart {
  client: S3Client;
  sdk: typeof import('@aws-sdk/client-s3');
  bucket: string;
  logger: Logger;
}

export interface PendingUpload {
  key: string;
  uploadId: string;
  initiated: number;
}

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const nameOf = (error: unknown) => (error as { name?: string; Code?: string })?.name ?? '';
export const isUnsupported = (error: unknown) => [405, 501].includes(statusOf(error) ?? 0) || ['NotImplemented', 'MethodNotAllowed'].includes(nameOf(error));
const isGone = (error: unknown) => statusOf(error) === 404 || ['NoSuchUpload', 'NoSuchKey', 'NotFound'].includes(nameOf(error));

const warned = new Set<string>();
function warnUnsupported(m: Multipart, action: string): void {
  if (warned.has(`${m.bucket} ${action}`)) return;
  warned.add(`${m.bucket} ${action}`);
  m.logger.warn({ bucket: m.bucket, action }, 'the S3 storage does not support this multipart call: set a lifecycle rule that aborts incomplete multipart uploads');
}

/** The multipart uploads begun under `prefix`; null when the server cannot list them. */
export async function listMultipartUploads(m: Multipart, prefix: string): Promise<PendingUpload[] | null> {
  const found: PendingUpload[] = [];
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  for (;;) {
    let page;
    try {
      page = await m.client.send(new m.sdk.ListMultipartUploadsCommand({ Bucket: m.bucket, Prefix: prefix, KeyMarker, UploadIdMarker }));
    } catch (error) {
      if (!isUnsupported(error)) throw error;
      warnUnsupported(m, 'ListMultipartUploads');
      return null;
    }
    for (const u of page.Uploads ?? []) if (u.Key && u.UploadId) found.push({ key: u.Key, uploadId: u.UploadId, initiated: u.Initiated?.getTime() ?? 0 });
    if (!page.IsTruncated) return found;
    KeyMarker = page.NextKeyMarker;
    UploadIdMarker = page.NextUploadIdMarker;
  }
}

/** When the upload last received a part (its start when it has none, or the server cannot tell). */
async function lastActivity(m: Multipart, upload: PendingUpload): Promise<number> {
  try {
    const parts = await m.client.send(new m.sdk.ListPartsCommand({ Bucket: m.bucket, Key: upload.key, UploadId: upload.uploadId, MaxParts: 1000 }));
    return Math.max(upload.initiated, ...(parts.Parts ?? []).map((p) => p.LastModified?.getTime() ?? 0));
  } catch (error) {
    if (isGone(error)) return Number.POSITIVE_INFINITY; // completed or aborted meanwhile: nothing to do
    if (!isUnsupported(error)) throw error;
    return upload.initiated;
  }
}

/** Aborts one multipart upload: true once it is gone, false when the server cannot abort. */
export async function abortMultipartUpload(m: Multipart, key: string, uploadId: string): Promise<boolean> {
  try {
    await m.client.send(new m.sdk.AbortMultipartUploadCommand({ Bucket: m.bucket, Key: key, UploadId: uploadId }));
    return true;
  } catch (error) {
    if (isGone(error)) return true;
    if (!isUnsupported(error)) throw error;
    warnUnsupported(m, 'AbortMultipartUpload');
    return false;
  }
}

/** Aborts the uploads under `prefix` idle since before `before` (ms) that `keep` does not claim; answers how many went. */
export async function sweepMultipartUploads(m: Multipart, options: { prefix: string; before: number; keep: (upload: PendingUpload) => boolean }): Promise<number> {
  const uploads = await listMultipartUploads(m, options.prefix);
  let aborted = 0;
  for (const upload of uploads ?? []) {
    if (upload.initiated >= options.before || options.keep(upload)) continue;
    if ((await lastActivity(m, upload)) >= options.before) continue;
    if (await abortMultipartUpload(m, upload.key, upload.uploadId)) aborted += 1;
  }
  if (aborted > 0) m.logger.info({ bucket: m.bucket, aborted }, 'aborted abandoned multipart uploads');
  return aborted;
}
