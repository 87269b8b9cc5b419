/** The longest slug the server takes (src/server/site/pages.ts PAGE_SLUG_MAX). */
export const SLUG_MAX = 100;

/** A slug proposed from a new page's title: "Über uns!" becomes "uber-uns". The server still decides. */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '');
}
