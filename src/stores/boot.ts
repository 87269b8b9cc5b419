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
