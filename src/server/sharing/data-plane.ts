import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import { readCookie, requireSameOrigin } from '../http/data-auth.ts';
import { plainUploadRoute } from '../uploads/plain.ts';
import { scopedItemData } from './presenter.ts';
import { openShare, type OpenedShare } from './service.ts';

/** A token in a data-plane path: a share link's token (39 base32 characters). */
export const SHARE_TOKEN_PART = '([a-z2-7]{39})';

/**
 * Opens a share for a data-plane request (download, thumbnail, zip, upload) or answers the refusal
 * by throwing (data-route.ts answers it). A write must come from our own origin, as a signed-in browser's would.
 */
export async function openShareForData(ctx: AppContext, req: IncomingMessage, token: string, need: 'read' | 'write'): Promise<OpenedShare> {
  requireSameOrigin(ctx, req, null);
  return openShare(ctx, token, (name) => readCookie(req, name), need);
}

const EDITOR_UPLOAD = /^\/api\/editor\/upload\/([^/]+)\/?$/;

export function isSharedUploadRequest(pathname: string): boolean {
  return EDITOR_UPLOAD.test(pathname);
}

/** `POST /api/editor/upload/{token}`: an editor uploads into the shared folder, into the owner's storage and quota. */
export const handleSharedUpload = plainUploadRoute(async (ctx, req, pathname) => {
  const token = EDITOR_UPLOAD.exec(pathname)?.[1] ?? '';
  const opened = await openShareForData(ctx, req, token, 'write');
  return {
    actor: opened.actor,
    binding: `share:${opened.share.id}`,
    answer: (item) => ({ data: scopedItemData(item, token, opened.item.id) }),
  };
});
