import { appRouteMatch } from '../../islands/app/routes.ts';
import { listUrl, openingSource, SORT_DEFAULT, SORT_FIELDS } from '../../stores/listing-url.ts';
import { jsonForScript } from '../http/serialize.ts';

/**
 * The addresses of the first page the opening screen of `pathname` will ask for, one per sorting the
 * browser may have saved (keyed `field direction`, and `default`), ready to be the text of a
 * `<script type="application/json">`; null for a screen that opens no listing. The document's early
 * script (FIRST_LISTING_SCRIPT) picks one and sends it before the app's scripts have arrived. The
 * addresses come from the same function the file area calls (src/stores/listing-url.ts).
 */
export function firstListingUrls(pathname: string): string | null {
  const match = appRouteMatch(pathname);
  const source = match && openingSource(match.route, match.params);
  if (!source) return null;
  const fallback = listUrl(source, SORT_DEFAULT, null);
  const urls: Record<string, string> = { default: fallback };
  for (const field of SORT_FIELDS) {
    for (const direction of ['asc', 'desc'] as const) {
      const url = listUrl(source, { field, direction }, null);
      if (url !== fallback) urls[`${field} ${direction}`] = url;
    }
  }
  return jsonForScript(urls);
}
