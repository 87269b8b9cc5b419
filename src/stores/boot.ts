/**
 * Data the server put into the app's document (src/layouts/AppLayout.astro) as a
 * `<script type="application/json">`, read once at start; null when the page has none (other
 * islands, or a document without it), and the store then fetches as before.
 */
export function readBootData<T>(id: 'app-user' | 'app-translations'): T | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(id)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** What the document's early script (FIRST_LISTING_SCRIPT in src/server/http/csp.ts) left on the window. */
interface FirstListingRequest {
  url: string;
  response: Promise<Response>;
}

/**
 * The request for the opening screen's first page that the document sent while it was read, when
 * it asked for `url`; taken once (a later visit to the same listing asks afresh).
 */
export function takeFirstListingRequest(url: string): Promise<Response> | null {
  if (typeof window === 'undefined') return null;
  const holder = window as unknown as { __firstListing?: FirstListingRequest };
  const sent = holder.__firstListing;
  delete holder.__firstListing;
  if (!sent || sent.url !== url) {
    sent?.response.catch(() => undefined);
    return null;
  }
  return sent.response;
}
