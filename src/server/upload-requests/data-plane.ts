import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { csrfRefusal, sendError, sendJson } from '../http/data-auth.ts';
import { scopedItemData } from '../sharing/presenter.ts';
import { handlePlainUpload } from '../uploads/plain.ts';
import { notifyFilesArrived, openActiveRequest, recordRequestItem, type OpenedRequest } from './service.ts';

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
    actor: async () => {
      const refusal = csrfRefusal(ctx, req, null);
      if (refusal) {
        sendJson(res, 403, { message: refusal });
        return null;
      }
      try {
        opened = await openActiveRequest(ctx, token);
        return opened.actor;
      } catch (error) {
        if (sendError(res, error)) return null;
        throw error;
      }
    },
    present: (item) => scopedItemData(item, token, opened!.folder.id, 'request'),
    after: async (item) => {
      await recordRequestItem(ctx, opened!, item);
      await notifyFilesArrived(ctx, opened!, item);
    },
  });
}
