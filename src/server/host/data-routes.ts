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
import { HEALTHZ_PATH, READYZ_PATH, serveHealthz, serveReadyz } from '../health/routes.ts';
import { METRICS_PATH, serveMetrics } from '../metrics/endpoint.ts';
import { handleDav } from '../dav/route.ts';
import { isDavRequest } from '../dav/paths.ts';

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
  /** File bytes moving: counted as an active transfer in the metrics while it runs (downloads on GET, uploads on POST, PUT and PATCH; `both` for a route that does either). */
  transfer?: 'download' | 'upload' | 'both';
}

export const DATA_ROUTES: DataRoute[] = [
  // Probes and metrics first: no session lookup, no maintenance or installation check, no rate limit.
  { name: 'healthz', match: (p) => p === HEALTHZ_PATH, handle: serveHealthz, open: true },
  { name: 'readyz', match: (p) => p === READYZ_PATH, handle: serveReadyz, open: true },
  { name: 'metrics', match: (p) => p === METRICS_PATH, handle: serveMetrics, open: true },
  { name: 'branding', match: (p) => isBrandingRequest(p), handle: serveBranding, open: true },
  { name: 'favicon', match: (p, m) => p === '/favicon.ico' && (m === 'GET' || m === 'HEAD'), handle: serveFavicon, open: true },
  { name: 'avatars', match: (p) => isAvatarRequest(p), handle: serveAvatar },
  { name: 'upload', match: (p) => p === '/api/upload', handle: handlePlainUpload, transfer: 'upload' },
  { name: 'upload-tus', match: (p) => isTusRequest(p), handle: handleTus, transfer: 'upload' },
  { name: 'upload-remote', match: (p) => isRemoteUploadRequest(p), handle: handleRemoteUpload },
  { name: 'file download', match: isFileRequest, handle: serveFile, transfer: 'download' },
  { name: 'thumbnails', match: isThumbnailRequest, handle: serveThumbnail },
  { name: 'zip download', match: isZipRequest, handle: serveZip, transfer: 'download' },
  { name: 'shared upload', match: (p) => isSharedUploadRequest(p), handle: handleSharedUpload, transfer: 'upload' },
  { name: 'upload-request upload', match: (p) => isRequestUpload(p), handle: handleRequestUpload, transfer: 'upload' },
  { name: 'live events', match: (p) => p === EVENTS_PATH, handle: handleEvents },
  // WebDAV (dav/route.ts): PUT streams a file in, GET streams one out.
  { name: 'webdav', match: (p) => isDavRequest(p), handle: handleDav, transfer: 'both' },
];

/** Whether this request moves file bytes, and which way (the metrics' active transfers). */
export function transferOf(route: DataRoute, method: string): 'download' | 'upload' | null {
  if (!route.transfer) return null;
  if (method === 'GET' && route.transfer !== 'upload') return 'download';
  if ((method === 'POST' || method === 'PUT' || method === 'PATCH') && route.transfer !== 'download') return 'upload';
  return null;
}

export function findDataRoute(pathname: string, method: string): DataRoute | undefined {
  return DATA_ROUTES.find((route) => route.match(pathname, method));
}
