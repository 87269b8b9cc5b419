import type { AstroCookies } from 'astro';

export interface Flash {
  message: string;
  errors: Record<string, string[]>;
  old: Record<string, string>;
  notice?: string;
}

const FLASH_COOKIE = 'flash';

/** JSON callers get JSON; a browser posting a plain form gets a redirect. */
export function wantsJson(request: Request): boolean {
  const type = request.headers.get('content-type') ?? '';
  const accept = request.headers.get('accept') ?? '';
  return type.includes('application/json') || accept.includes('application/json') || request.headers.has('x-requested-with');
}

export function setFlash(astro: { cookies: AstroCookies }, flash: Partial<Flash>): void {
  const value = Buffer.from(JSON.stringify(flash)).toString('base64url');
  astro.cookies.set(FLASH_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'lax', maxAge: 60 });
}

/** Reads and clears the one-shot message a form redirect left for the page. */
export function takeFlash(astro: { cookies: AstroCookies }): Flash {
  const raw = astro.cookies.get(FLASH_COOKIE)?.value;
  const empty: Flash = { message: '', errors: {}, old: {} };
  if (!raw) return empty;
  astro.cookies.delete(FLASH_COOKIE, { path: '/' });
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Flash>;
    return { ...empty, ...parsed };
  } catch {
    return empty;
  }
}
