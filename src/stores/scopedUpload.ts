import { Upload, type DetailedError } from 'tus-js-client';
import { $config } from './config.ts';
import { t } from './i18n.ts';

/**
 * A token holder's upload (a share link's editor, an upload request's recipient) over tus to
 * /api/upload/tus, as the file area sends its large files (stores/uploads.ts): in `chunkSize`
 * pieces, retried, and resumed where the server stands after a dropped connection (or, through
 * the fingerprint tus-js-client keeps in localStorage, after a reload). The token rides in a
 * header (`X-Share-Token` or `X-Upload-Request-Token`) on every request; the server binds the
 * upload to the link and checks the link again each time.
 */
export class UploadFailure extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function serverMessage(error: DetailedError): string | null {
  try {
    const body = JSON.parse(error.originalResponse?.getBody() ?? '') as { message?: unknown };
    return typeof body.message === 'string' ? body.message : null;
  } catch {
    return null;
  }
}

export function uploadOverTus(
  file: File,
  options: { tokenHeader: Record<string, string>; parentId: string | null; onProgress?: (sent: number, total: number) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: '/api/upload/tus',
      chunkSize: $config.get()?.chunkSize ?? 8 * 1024 * 1024,
      // A signed-in person may open a link too: their session cookie then needs the CSRF header.
      headers: { 'X-Requested-With': 'XMLHttpRequest', ...options.tokenHeader },
      metadata: { filename: file.name, filetype: file.type || 'application/octet-stream', parent_id: options.parentId ?? '', path: '' },
      retryDelays: [0, 1000, 3000, 5000],
      // A refusal (quota 423, blocked type 422, too large 413, a dead link 404) is final; 409 (offset
      // out of step, fixed by asking again), network failures and 5xx are retried.
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return !(status >= 400 && status < 500 && status !== 409);
      },
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => options.onProgress?.(sent, total),
      onError: (error) => {
        const detailed = error as DetailedError;
        const status = detailed.originalResponse?.getStatus() ?? 0;
        reject(new UploadFailure(status, serverMessage(detailed) ?? t('popup_error.message')));
      },
      onSuccess: () => resolve(),
    });
    void upload
      .findPreviousUploads()
      .catch(() => [])
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      });
  });
}
