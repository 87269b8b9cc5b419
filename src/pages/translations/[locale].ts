import { publicRoute, json } from '../../server/http/endpoint.ts';
import { notFound } from '../../server/http/errors.ts';
import { catalogue, isLocale } from '../../server/i18n/locales.ts';

export const ALL = publicRoute({
  GET: ({ params }) => {
    if (!isLocale(params.locale)) throw notFound('This language is not available.');
    return json(catalogue(params.locale), 200, { 'Cache-Control': 'no-cache' });
  },
});
