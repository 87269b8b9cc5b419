import { shareHolder, viewOfNode } from '../auth/principal.ts';
import { plainUploadRoute } from '../uploads/plain.ts';

/** A token in a data-plane path: a share link's token (39 base32 characters). */
export const SHARE_TOKEN_PART = '([a-z2-7]{39})';

const EDITOR_UPLOAD = /^\/api\/editor\/upload\/([^/]+)\/?$/;

export function isSharedUploadRequest(pathname: string): boolean {
  return EDITOR_UPLOAD.test(pathname);
}

/** `POST /api/editor/upload/{token}`: an editor uploads into the shared folder, into the owner's storage and quota. */
export const handleSharedUpload = plainUploadRoute((ctx, req, pathname) => shareHolder(ctx, viewOfNode(req, pathname), EDITOR_UPLOAD.exec(pathname)?.[1] ?? '', 'write'));
