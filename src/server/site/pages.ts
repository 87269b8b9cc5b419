import type { AppContext } from '../context.ts';

export interface PublicPage {
  slug: string;
  title: string;
  content: string;
  updated_at: string;
}

/** Slugs are lowercase words joined by single dashes: anything else (dots, slashes, encodings) is no page. */
export const isPageSlug = (slug: string | undefined): slug is string => typeof slug === 'string' && slug.length <= 100 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug);

export async function findVisiblePage(ctx: AppContext, slug: string | undefined): Promise<PublicPage | null> {
  if (!isPageSlug(slug)) return null;
  const row = await ctx.db.selectFrom('pages').select(['slug', 'title', 'content', 'updated_at']).where('slug', '=', slug).where('visible', '=', 1).executeTakeFirst();
  return row ?? null;
}

/** The footer's and the sitemap's pages. */
export async function listVisiblePages(ctx: AppContext): Promise<Pick<PublicPage, 'slug' | 'title' | 'updated_at'>[]> {
  return ctx.db.selectFrom('pages').select(['slug', 'title', 'updated_at']).where('visible', '=', 1).orderBy('slug').execute();
}
