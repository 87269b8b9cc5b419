import type { AppContext } from '../context.ts';
import type { Abilities } from '../files/abilities.ts';
import { itemData } from '../files/presenter.ts';
import type { ItemRow, ItemWithCount } from '../files/queries.ts';
import { isExpired, shareLink } from './service.ts';
import type { ShareRow } from './queries.ts';

/** The share resource (SPEC §3: token, permission, item_id; ours: protected, expire_in, link). */
export function shareData(ctx: AppContext, share: ShareRow) {
  return {
    id: share.id,
    type: 'shares',
    attributes: {
      token: share.token,
      permission: share.permission,
      item_id: share.item_id,
      type: share.type,
      protected: share.password_hash !== null,
      expire_in: share.expire_in,
      expires_at: share.expires_at,
      expired: isExpired(ctx, share),
      link: shareLink(ctx, share),
      created_at: share.created_at,
    },
  };
}

/**
 * An item as a token holder sees it: its bytes and thumbnails under token URLs, and nothing of
 * the owner's own sharing. The scope root's parent is not the holder's business either.
 */
export function scopedItemData(item: ItemWithCount | ItemRow, token: string, rootId: string, kind: 'share' | 'request' = 'share', abilities?: Abilities) {
  const data = itemData(item, abilities);
  // Upload-request holders upload; they are not served bytes.
  const url = (path: string | null) => (path && kind === 'share' ? `${path}/${token}` : null);
  const thumbnail = data.attributes.thumbnail;
  const attributes = {
    ...data.attributes,
    parent_id: item.id === rootId ? null : item.parent_id,
    file_url: url(data.attributes.file_url),
    thumbnail: thumbnail && kind === 'share' ? { xs: url(thumbnail.xs)!, sm: url(thumbnail.sm)!, md: url(thumbnail.md)! } : null,
  };
  return { ...data, attributes };
}

/** Marks the owner's listed items that are shared (the shared icon). */
export function withShared<T extends { id: string; relationships: { shared: unknown } }>(ctx: AppContext, data: T, shares: Map<string, ShareRow>): T {
  const share = shares.get(data.id);
  return share ? { ...data, relationships: { ...data.relationships, shared: { data: shareData(ctx, share) } } } : data;
}
