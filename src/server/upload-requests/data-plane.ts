import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { csrfRefusal, sendError, sendJson } from '../http/data-auth.ts';
import { scopedItemData } from '../sharing/presenter.ts';
import { handlePlainUpload } from '../uploads/plain.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { notifyFilesArrived, openActiveRequest, openRequestById, recordRequestItem, type OpenedRequest } from './service.ts';

/** Opens an active request for a data-plane write, or answers the refusal and returns null. */
export async function openRequestForData(ctx: AppContext, req: IncomingMessage, res: ServerResponse, token: string): Promise<OpenedRequest | null> {
  const refusal = csrfRefusal(ctx, req, null);
  if (refusal) {
    sendJson(res, 403, { message: refusal });
    return null;
  }
  try {
    return await openActiveRequest(ctx, token);
  } catch (error) {
    if (sendError(res, error)) return null;
    throw error;
  }
}

/** After a tus upload became an item: an upload request's holder made it, and its owner is told. */
export async function tokenUploadFinished(ctx: AppContext, binding: string | null | undefined, item: ItemWithCount): Promise<void> {
  if (!binding?.startsWith('request:')) return;
  const opened = await openRequestById(ctx, binding.slice('request:'.length));
  if (!opened) return;
  await recordRequestItem(ctx, opened, item);
  await notifyFilesArrived(ctx, opened, item);
}

const REQUEST_UPLOAD = /^\/api\/upload-request\/([^/]+)\/upload\/?$/;

export function isRequestUpload(pathname: string): boolean {
  return REQUEST_UPLOAD.test(pathname);
}

/**
 * `POST /api/upload-request/{token}/upload`: a file into the request's folder, into the owner's
 * storage and quota, while the request is active; the owner is told it arrived.
 */
export async function handleRequestUpload(ctx: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const token = REQUEST_UPLOAD.exec(pathname)?.[1] ?? '';
  let opened: OpenedRequest | null = null;
  await handlePlainUpload(ctx, req, res, {
    actor: async () => (opened = await openRequestForData(ctx, req, res, token))?.actor ?? null,
    present: (item) => scopedItemData(item, token, opened!.folder.id, 'request'),
    binding: () => `request:${opened!.request.id}`,
    after: async (item) => {
      await recordRequestItem(ctx, opened!, item);
      await notifyFilesArrived(ctx, opened!, item);
    },
  });
}
