import type { APIRoute } from 'astro';
import { getSettings } from '../server/settings/service.ts';
import { listPublicPlans } from '../server/billing/plans.ts';
import { listVisiblePages } from '../server/site/pages.ts';

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The public pages search engines may list. */
export const GET: APIRoute = async ({ locals }) => {
  const ctx = locals.ctx;
  const settings = await getSettings(ctx);
  const paths = ['/', '/contact-us', '/sign-in', ...(settings.registration_open ? ['/sign-up'] : [])].map((p) => ({ path: p, lastmod: null as string | null }));
  if ((await listPublicPlans(ctx, settings)).data.length) paths.push({ path: '/pricing', lastmod: null });
  for (const page of await listVisiblePages(ctx)) paths.push({ path: `/page/${page.slug}`, lastmod: page.updated_at.slice(0, 10) });
  const urls = paths
    .map(({ path, lastmod }) => `  <url><loc>${escapeXml(new URL(path, ctx.config.appUrl).href)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
};
