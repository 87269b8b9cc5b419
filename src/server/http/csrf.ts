const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isUnsafe(method: string): boolean {
  return !SAFE.has(method.toUpperCase());
}

/**
 * The rule as both planes apply it is auth/principal.ts `csrfRefusal`. A state-changing request
 * from a browser must come from our own pages: its Origin must be the
 * configured public URL, or (for browsers that omit Origin) Sec-Fetch-Site must say same-origin.
 */
export function isSameOrigin(headers: Headers, appOrigin: string): boolean {
  const origin = headers.get('origin');
  if (origin) return origin === appOrigin;
  return headers.get('sec-fetch-site') === 'same-origin';
}
