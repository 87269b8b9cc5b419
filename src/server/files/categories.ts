/**
 * Kinds of file by mimetype, shared by the storage usage answer and the client (icons, the
 * storage bar). No server imports here: the browser bundle uses it too.
 */
export const CATEGORIES = ['images', 'videos', 'audios', 'documents', 'others'] as const;
export type Category = (typeof CATEGORIES)[number];

const DOCUMENT_TYPES = new Set([
  'application/pdf', 'application/msword', 'application/rtf', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint',
  'application/epub+zip', 'application/json', 'application/xml', 'application/x-latex',
]);

/** The storage bar's category of a mimetype (SPEC §9 gives each its colour). */
export function categoryOf(mimetype: string | null): Category {
  const type = (mimetype ?? '').toLowerCase().split(';')[0]!.trim();
  if (type.startsWith('image/')) return 'images';
  if (type.startsWith('video/')) return 'videos';
  if (type.startsWith('audio/')) return 'audios';
  if (type.startsWith('text/') || DOCUMENT_TYPES.has(type) || type.startsWith('application/vnd.openxmlformats-officedocument.') || type.startsWith('application/vnd.oasis.opendocument.')) {
    return 'documents';
  }
  return 'others';
}
