/** The thumbnail sizes the UI uses: the longest side in pixels, WebP. */
export const THUMBNAIL_SIZES = { xs: 64, sm: 256, md: 640 } as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;
export const THUMBNAIL_SIZE_NAMES = Object.keys(THUMBNAIL_SIZES) as ThumbnailSize[];

/** The blob key of one size, from the prefix stored on the item row. */
export function thumbnailBlobKey(prefix: string, size: ThumbnailSize): string {
  return `${prefix}-${size}.webp`;
}

/** Every blob a thumbnail prefix stands for (deleted with the file). */
export function thumbnailBlobKeys(prefix: string | null): string[] {
  return prefix ? THUMBNAIL_SIZE_NAMES.map((size) => thumbnailBlobKey(prefix, size)) : [];
}

/** The item resource's `thumbnail` attribute: a URL per size, or null until the thumbnails are made. */
export function thumbnailUrls(item: { id: string; thumbnail_key: string | null }): Record<ThumbnailSize, string> | null {
  if (!item.thumbnail_key) return null;
  return Object.fromEntries(THUMBNAIL_SIZE_NAMES.map((size) => [size, `/thumbnail/${item.id}/${size}`])) as Record<ThumbnailSize, string>;
}
