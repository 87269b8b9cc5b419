import { requestHolder, viewOfNode } from '../auth/principal.ts';
import { plainUploadRoute } from '../uploads/plain.ts';

const REQUEST_UPLOAD = /^\/api\/upload-request\/([^/]+)\/upload\/?$/;

export function isRequestUpload(pathname: string): boolean {
  return REQUEST_UPLOAD.test(pathname);
}

/**
 * `POST /api/upload-request/{token}/upload`: a file into the request's folder, into the owner's
 * storage and quota, while the request is active; the owner is told it arrived (listeners.ts).
 */
export const handleRequestUpload = plainUploadRoute((ctx, req, pathname) => requestHolder(ctx, viewOfNode(req, pathname), REQUEST_UPLOAD.exec(pathname)?.[1] ?? '', 'write'));
