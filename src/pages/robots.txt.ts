import type { APIRoute } from 'astro';

/** The public site is open to crawlers; the signed-in areas, the API and shared links are not. */
export const GET: APIRoute = ({ locals }) => {
  const sitemap = new URL('/sitemap.xml', locals.ctx.config.appUrl).href;
  const body = ['User-agent: *', 'Disallow: /api/', 'Disallow: /platform/', 'Disallow: /user/', 'Disallow: /admin/', 'Disallow: /share/', 'Disallow: /request/', 'Disallow: /install', 'Disallow: /setup-wizard/', 'Allow: /', '', `Sitemap: ${sitemap}`, ''].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
};
