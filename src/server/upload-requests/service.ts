import { randomUUID } from 'node:crypto';
import type { UploadRequestStatus } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import { generateSecret } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';
import { requireOwnedItem, type Actor } from '../files/access.ts';
import { findItem, type ItemRow, type ItemWithCount } from '../files/queries.ts';
import { createFolder } from '../files/service.ts';
import { AppError, notFound } from '../http/errors.ts';
import { addGroupedNotification } from '../notifications/service.ts';
import { displayName, escapeHtml, htmlParagraphs, takeUserMail } from '../mail/outgoing.ts';
import { findUserById } from '../users/queries.ts';
import { requireVerifiedEmail } from '../users/restrictions.ts';
import * as q from './queries.ts';
import type { UploadRequestRow } from './queries.ts';

/**
 * Upload requests: an owner asks someone to upload into one folder. The holder of the token acts
 * as the owner inside that folder only (their storage and quota); they see the folder, and may
 * rename, move and remove only what they made through the request. Once filled (closed by either
 * side) or expired, the list is empty and every write is refused.
 */

const TOKEN = /^[a-z2-7]{39}$/;

export function statusOf(ctx: AppContext, request: UploadRequestRow): UploadRequestStatus {
  if (request.status === 'active' && request.expires_at <= ctx.clock.now().toISOString()) return 'expired';
  return request.status;
}

export function requestLink(ctx: AppContext, request: Pick<UploadRequestRow, 'token'>): string {
  return `${ctx.config.appUrl.origin}/request/${request.token}/upload`;
}

export async function createUploadRequest(
  ctx: AppContext,
  user: User,
  input: { folder_id: string | null; name: string | null; notes: string | null; email: string | null; expiration: number },
): Promise<{ request: UploadRequestRow; folder: ItemRow }> {
  await requireVerifiedEmail(ctx, user);
  const existing = input.folder_id ? await requireOwnedItem(ctx, user, input.folder_id, { folder: true, field: 'folder_id' }) : null;
  // The mail budget is taken before anything is made: over it, the call changes nothing.
  const mail = input.email ? await takeUserMail(ctx, user, [input.email], 'email') : null;
  const folder = existing ?? (await createFolder(ctx, user, { name: input.name ?? `Upload request ${ctx.clock.now().toISOString().slice(0, 10)}`, parent_id: null }));
  const now = ctx.clock.now();
  const request: UploadRequestRow = {
    id: randomUUID(),
    token: generateSecret(24),
    user_id: user.id,
    folder_id: folder.id,
    name: input.name,
    notes: input.notes,
    email: input.email,
    status: 'active',
    expires_at: new Date(now.getTime() + input.expiration * 3600_000).toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await q.insertRequest(ctx.db, request);
  if (mail) {
    const sender = displayName(user.name);
    const link = requestLink(ctx, request);
    const asks = `${sender} asks you to upload files${input.name ? ` for "${input.name}"` : ''}.`;
    await mail.send({
      subject: `${sender} asks you to upload files`,
      text: `${asks}\n${input.notes ? `\n${input.notes}\n` : ''}\nUpload them here: ${link}\n`,
      html: `${htmlParagraphs(asks, ...(input.notes ? [input.notes] : []))}\n<p><a href="${escapeHtml(link)}">Upload them here</a></p>`,
    });
  }
  return { request, folder };
}

export interface OpenedRequest {
  request: UploadRequestRow;
  status: UploadRequestStatus;
  folder: ItemRow;
  owner: User;
  actor: Actor;
}

/** The request behind a token: unknown, or its folder gone or trashed, is a 404. */
export async function openUploadRequest(ctx: AppContext, token: string): Promise<OpenedRequest> {
  const request = TOKEN.test(token) ? await q.findRequestByToken(ctx.db, token) : undefined;
  if (!request) throw notFound('This upload request does not exist.');
  return opened(ctx, request);
}

/** By id, for work that finishes after the request (a tus upload); null when it is gone. */
export async function openRequestById(ctx: AppContext, id: string): Promise<OpenedRequest | null> {
  const request = await q.findRequestById(ctx.db, id);
  return request ? opened(ctx, request).catch(() => null) : null;
}

async function opened(ctx: AppContext, request: UploadRequestRow): Promise<OpenedRequest> {
  const folder = await findItem(ctx.db, request.folder_id);
  const owner = await findUserById(ctx, request.user_id);
  if (!folder || folder.owner_id !== request.user_id || folder.deleted_at !== null || !owner || owner.deletion_started_at) throw notFound('This upload request does not exist.');
  const actor: Actor = { ...owner, scope: { rootId: folder.id, changeableIds: q.recordedItemIds(ctx.db, request.id) } };
  return { request, status: statusOf(ctx, request), folder, owner, actor };
}

/** As `openUploadRequest`, for a write: only while the request is active (423 otherwise). */
export async function openActiveRequest(ctx: AppContext, token: string): Promise<OpenedRequest> {
  const opened = await openUploadRequest(ctx, token);
  if (opened.status !== 'active') throw new AppError(423, `This upload request is ${opened.status}: it takes no more files.`, { code: `upload_request_${opened.status}` });
  return opened;
}

/** Closes the request (the uploader is done, or the owner stops it): it becomes filled. */
export async function closeUploadRequest(ctx: AppContext, token: string): Promise<OpenedRequest> {
  const opened = await openUploadRequest(ctx, token);
  if (opened.status === 'expired') throw new AppError(423, 'This upload request has expired.', { code: 'upload_request_expired' });
  if (opened.status === 'filled') return opened;
  const at = ctx.clock.now().toISOString();
  await q.updateRequest(ctx.db, opened.request.id, { status: 'filled', updated_at: at });
  return { ...opened, request: { ...opened.request, status: 'filled', updated_at: at }, status: 'filled' };
}

/** Remembers an item the holder made, so they may change it later. */
export function recordRequestItem(ctx: AppContext, opened: OpenedRequest, item: Pick<ItemWithCount, 'id'>): Promise<void> {
  return q.recordItem(ctx.db, opened.request.id, item.id);
}

/** Tells the owner that files arrived (the `file-request` notification). */
export async function notifyFilesArrived(ctx: AppContext, opened: OpenedRequest, item: Pick<ItemRow, 'name'>): Promise<void> {
  // One notification per upload session, not per file: files of one request arriving while the last
  // notice is unread (and recent) are counted into it.
  await addGroupedNotification(ctx, {
    userId: opened.owner.id,
    category: 'file-request',
    groupKey: `upload-request:${opened.request.id}`,
    action: { type: 'route', params: { id: opened.folder.id, route: 'Files', button: 'Show files' } },
    describe: (count) => ({
      title: 'Files were uploaded for your request',
      description: count === 1 ? `"${item.name}" arrived in "${opened.folder.name}".` : `${count} files arrived in "${opened.folder.name}", the latest "${item.name}".`,
    }),
  });
}
