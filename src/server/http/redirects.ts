/** Only same-origin paths are followed after sign-in: no open redirect. */
export function safeRedirectPath(target: unknown, fallback = '/platform/files'): string {
  if (typeof target !== 'string' || target.length > 2000) return fallback;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f\\]/.test(target)) return fallback;
  try {
    const url = new URL(target, 'http://same.invalid');
    if (url.origin !== 'http://same.invalid') return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** Signed-in areas of SPEC §2. */
export function isAuthArea(pathname: string): boolean {
  return /^\/(admin|user|platform)(\/|$)/.test(pathname);
}
