import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireDownloadableFile, requireWritableScope } from '../files/access.ts';
import { actorFor } from '../teams/actor.ts';
import type { ItemWithCount } from '../files/queries.ts';
import { browseFolder, createFolder } from '../files/service.ts';
import { copyDeadProps } from './properties.ts';
import { storeAsFile } from './put.ts';

/**
 * COPY (RFC 4918 §9.8) on the app's own services: a file's bytes are read from the blob store and
 * stored as a new upload (storeAsFile: quota, limits, blocked types and events apply, as to any
 * upload) with the source's dead properties, a folder is created with createFolder and, at Depth infinity, filled the same way, one
 * item at a time. The source must be downloadable by the account (its download restriction applies).
 */
export async function copyItem(ctx: AppContext, user: User, source: ItemWithCount, target: { parentId: string | null; name: string }, deep: boolean): Promise<void> {
  if (source.type === 'file') {
    const file = await requireDownloadableFile(ctx, await actorFor(ctx, user, [source.id]), source.id);
    // Into a team folder: stored as its owner's, with the member's permission (teams/actor.ts).
    const actor = await actorFor(ctx, user, [target.parentId]);
    requireWritableScope(actor);
    const copy = await storeAsFile(ctx, actor, ctx.blobs.get(file.blob_key!), { ...target, size: Number(file.size), declaredType: file.mimetype });
    await copyDeadProps(ctx, source.id, copy.id);
    return;
  }
  const folder = await createFolder(ctx, user, { name: target.name, parent_id: target.parentId });
  await copyDeadProps(ctx, source.id, folder.id);
  if (!deep) return;
  const { items } = await browseFolder(ctx, user, source.id, { sort: { field: 'name', direction: 'asc' } });
  for (const child of items) await copyItem(ctx, user, child, { parentId: folder.id, name: child.name }, true);
}
