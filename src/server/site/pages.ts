import type { AppContext } from '../context.ts';

export interface PublicPage {
  slug: string;
  title: string;
  content: string;
  updated_at: string;
}

export const PAGE_SLUG_MAX = 100;

/**
 * The legal pages every instance is installed with (migrations/20261125090000_pages.ts). Other parts
 * of the product link to their addresses, so an admin may rewrite or empty them but not delete or
 * move them.
 */
export const LEGAL_PAGE_SLUGS: readonly string[] = ['terms-of-service', 'privacy-policy', 'cookie-policy'];

/** Slugs no page may take: the admin editor's own addresses (/admin/pages/new, /api/admin/pages/preview). */
export const RESERVED_PAGE_SLUGS: readonly string[] = ['new', 'preview'];

/** Slugs are lowercase words joined by single dashes: anything else (dots, slashes, encodings) is no page. */
export const isPageSlug = (slug: string | undefined): slug is string => typeof slug === 'string' && slug.length <= PAGE_SLUG_MAX && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug);

export async function findVisiblePage(ctx: AppContext, slug: string | undefined): Promise<PublicPage | null> {
  if (!isPageSlug(slug)) return null;
  const row = await ctx.db.selectFrom('pages').select(['slug', 'title', 'content', 'updated_at']).where('slug', '=', slug).where('visible', '=', 1).executeTakeFirst();
  return row ?? null;
}

/** The footer's and the sitemap's pages. */
export async function listVisiblePages(ctx: AppContext): Promise<Pick<PublicPage, 'slug' | 'title' | 'updated_at'>[]> {
  return ctx.db.selectFrom('pages').select(['slug', 'title', 'updated_at']).where('visible', '=', 1).orderBy('slug').execute();
}
