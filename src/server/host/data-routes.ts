import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { handlePlainUpload } from '../uploads/plain.ts';
import { handleRemoteUpload, isRemoteUploadRequest } from '../uploads/remote.ts';
import { handleTus, isTusRequest } from '../uploads/tus.ts';
import { isFileRequest, serveFile } from '../downloads/file.ts';
import { isZipRequest, serveZip } from '../downloads/zip.ts';
import { isThumbnailRequest, serveThumbnail } from '../previews/route.ts';
import { handleSharedUpload, isSharedUploadRequest } from '../sharing/data-plane.ts';
import { handleRequestUpload, isRequestUpload } from '../upload-requests/data-plane.ts';
import { isAvatarRequest, serveAvatar } from '../http/avatars.ts';
import { isBrandingRequest, serveBranding, serveFavicon } from '../site/branding.ts';
import { EVENTS_PATH, handleEvents } from '../live/stream.ts';

/**
 * The data plane's routes: requests whose bytes we stream ourselves (with backpressure) instead of
 * handing them to Astro. The first route whose `match` accepts the path handles the request.
 * Add a feature's routes here, one line each.
 */
export interface DataRoute {
  name: string;
  match: (pathname: string, method: string) => boolean;
  handle: (ctx: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<void>;
  /** Served even before installation and during maintenance (the logos those pages show). */
  open?: boolean;
}

export const DATA_ROUTES: DataRoute[] = [
  { name: 'branding', match: (p) => isBrandingRequest(p), handle: serveBranding, open: true },
  { name: 'favicon', match: (p, m) => p === '/favicon.ico' && (m === 'GET' || m === 'HEAD'), handle: serveFavicon, open: true },
  { name: 'avatars', match: (p) => isAvatarRequest(p), handle: serveAvatar },
  { name: 'upload', match: (p) => p === '/api/upload', handle: handlePlainUpload },
  { name: 'upload-tus', match: (p) => isTusRequest(p), handle: handleTus },
  { name: 'upload-remote', match: (p) => isRemoteUploadRequest(p), handle: handleRemoteUpload },
  { name: 'file download', match: isFileRequest, handle: serveFile },
  { name: 'thumbnails', match: isThumbnailRequest, handle: serveThumbnail },
  { name: 'zip download', match: isZipRequest, handle: serveZip },
  { name: 'shared upload', match: (p) => isSharedUploadRequest(p), handle: handleSharedUpload },
  { name: 'upload-request upload', match: (p) => isRequestUpload(p), handle: handleRequestUpload },
  { name: 'live events', match: (p) => p === EVENTS_PATH, handle: handleEvents },
];

export function findDataRoute(pathname: string, method: string): DataRoute | undefined {
  return DATA_ROUTES.find((route) => route.match(pathname, method));
}
