import { publicRoute } from '../../server/http/endpoint.ts';
import { notFound } from '../../server/http/errors.ts';
import { etagMatches, mergedCatalogue } from '../../server/i18n/catalogue.ts';
import { findLanguage } from '../../server/i18n/languages.ts';

/** The merged catalogue for the app's `t()`, revalidated on every load: an admin's edit shows on the next one. */
export const ALL = publicRoute({
  GET: async ({ ctx, params, astro }) => {
    const language = findLanguage(astro.locals.languages, params.locale);
    if (!language) throw notFound('This language is not available.');
    const { json, etag } = await mergedCatalogue(ctx.db, language, astro.locals.languages);
    const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
    if (etagMatches(astro.request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    return new Response(json, { status: 200, headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' } });
  },
});
