import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import { requireSameOrigin } from '../http/data-auth.ts';
import { scopedItemData } from '../sharing/presenter.ts';
import { plainUploadRoute } from '../uploads/plain.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { notifyFilesArrived, openActiveRequest, openRequestById, recordRequestItem, type OpenedRequest } from './service.ts';

/** Opens an active request for a data-plane write; refuses by throwing (data-route.ts answers it). */
export async function openRequestForData(ctx: AppContext, req: IncomingMessage, token: string): Promise<OpenedRequest> {
  requireSameOrigin(ctx, req, null);
  return openActiveRequest(ctx, token);
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
export const handleRequestUpload = plainUploadRoute(async (ctx, req, pathname) => {
  const token = REQUEST_UPLOAD.exec(pathname)?.[1] ?? '';
  const opened = await openRequestForData(ctx, req, token);
  return {
    actor: opened.actor,
    binding: `request:${opened.request.id}`,
    answer: (item) => ({ data: scopedItemData(item, token, opened.folder.id, 'request') }),
    after: async (item) => {
      await recordRequestItem(ctx, opened, item);
      await notifyFilesArrived(ctx, opened, item);
    },
  };
});
