import { thumbnailUrls } from '../previews/sizes.ts';
import type { Abilities } from './abilities.ts';
import type { OriginalLocation } from './locations.ts';
import type { ItemRow, ItemWithCount } from './queries.ts';

/** Where a file's bytes are served (the data plane's download route). */
export function fileUrl(item: Pick<ItemRow, 'id' | 'type'>): string | null {
  return item.type === 'file' ? `/file/${item.id}` : null;
}

/** Emoji are stored as JSON text: a plain string or the picker's object. */
export function parseEmoji(stored: string | null): unknown {
  if (stored === null) return null;
  try {
    return JSON.parse(stored) as unknown;
  } catch {
    return stored;
  }
}

/**
 * The item resource of SPEC §3, without the `{ data }` wrapper (lists hold many). Listings add
 * `meta.abilities`: what the asking principal may do with the item (abilities.ts).
 */
export function itemData(item: ItemWithCount | (ItemRow & { children?: number; location?: OriginalLocation }), abilities?: Abilities) {
  const location = 'location' in item ? item.location : undefined;
  return {
    id: item.id,
    type: item.type,
    attributes: {
      name: item.name,
      color: item.color,
      emoji: parseEmoji(item.emoji),
      items: item.type === 'folder' ? Number(item.children ?? 0) : null,
      parent_id: item.parent_id,
      deleted_at: item.deleted_at,
      mimetype: item.mimetype,
      file_url: fileUrl(item),
      /** `{ xs, sm, md }` URLs once the thumbnails are made (images, video posters, PDF first pages), else null. */
      thumbnail: thumbnailUrls(item),
      size: Number(item.size),
      created_at: item.created_at,
      updated_at: item.updated_at,
      /** In trash listings: the folder the item was in, as a path from home, and whether it is trashed too. */
      ...(location ? { original_location: location } : {}),
    },
    relationships: {
      // Sharing arrives with its issue; nothing is shared yet.
      shared: null,
    },
    ...(abilities ? { meta: { abilities } } : {}),
  };
}

export type ItemData = ReturnType<typeof itemData>;

export function presentItem(item: ItemWithCount | ItemRow) {
  return { data: itemData(item) };
}

/** A list answer: `{ data: [...], meta: { root, ... } }`, each item with its abilities when given. */
export function presentList(items: ItemWithCount[], meta: { root: ItemWithCount | null } & Record<string, unknown>, abilities?: Map<string, Abilities>) {
  const { root, ...rest } = meta;
  const present = (item: ItemWithCount) => itemData(item, abilities?.get(item.id));
  return { data: items.map(present), meta: { root: root ? present(root) : null, ...rest } };
}
