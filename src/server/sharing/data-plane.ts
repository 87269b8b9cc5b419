import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { csrfRefusal, readCookie, sendError, sendJson } from '../http/data-auth.ts';
import { handlePlainUpload } from '../uploads/plain.ts';
import { scopedItemData } from './presenter.ts';
import { openShare, type OpenedShare } from './service.ts';

/** A token in a data-plane path: a share link's token (39 base32 characters). */
export const SHARE_TOKEN_PART = '([a-z2-7]{39})';

/**
 * Opens a share for a data-plane request (download, thumbnail, zip, upload) or answers the refusal
 * and returns null. A write must come from our own origin, as a signed-in browser's would.
 */
export async function openShareForData(ctx: AppContext, req: IncomingMessage, res: ServerResponse, token: string, need: 'read' | 'write'): Promise<OpenedShare | null> {
  const refusal = csrfRefusal(ctx, req, null);
  if (refusal) {
    sendJson(res, 403, { message: refusal });
    return null;
  }
  try {
    return await openShare(ctx, token, (name) => readCookie(req, name), need);
  } catch (error) {
    if (sendError(res, error)) return null;
    throw error;
  }
}

const EDITOR_UPLOAD = /^\/api\/editor\/upload\/([^/]+)\/?$/;

export function isSharedUploadRequest(pathname: string): boolean {
  return EDITOR_UPLOAD.test(pathname);
}

/** `POST /api/editor/upload/{token}`: an editor uploads into the shared folder, into the owner's storage and quota. */
export async function handleSharedUpload(ctx: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const token = EDITOR_UPLOAD.exec(pathname)?.[1] ?? '';
  let opened: OpenedShare | null = null;
  await handlePlainUpload(ctx, req, res, {
    actor: async () => (opened = await openShareForData(ctx, req, res, token, 'write'))?.actor ?? null,
    present: (item) => scopedItemData(item, token, opened!.item.id),
    binding: () => `share:${opened!.share.id}`,
  });
}
