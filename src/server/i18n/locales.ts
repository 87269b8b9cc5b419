import type { AstroCookies } from 'astro';
import type { AppContext } from '../context.ts';
import { getSettings } from '../settings/service.ts';
import de from '../../../messages/de.json' with { type: 'json' };
import en from '../../../messages/en.json' with { type: 'json' };

export const LOCALES = { en: 'English', de: 'Deutsch' } as const;
export type Locale = keyof typeof LOCALES;
export const BASE_LOCALE: Locale = 'en';

const BUILT_IN: Record<Locale, Record<string, unknown>> = { en, de };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && Object.hasOwn(LOCALES, value);
}

/** The visitor's chosen locale (cookie), else the first of their browser's languages we speak, else the instance default. */
export async function resolveLocale(ctx: AppContext, request: Request, cookies: AstroCookies): Promise<Locale> {
  const chosen = cookies.get('locale')?.value;
  if (isLocale(chosen)) return chosen;
  const accepted = fromAcceptLanguage(request.headers.get('accept-language'));
  if (accepted) return accepted;
  const { locale } = await getSettings(ctx);
  return isLocale(locale) ? locale : BASE_LOCALE;
}

/**
 * The best locale we have for an `Accept-Language` header (`de-AT,de;q=0.9,en;q=0.8`): languages
 * by quality, a region falling back to its language, `*` and q=0 ignored. Null when none fits.
 */
export function fromAcceptLanguage(header: string | null): Locale | null {
  if (!header) return null;
  const ranked = header
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { language: tag.trim().toLowerCase().split('-')[0]!, quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0 && entry.language !== '*')
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.find((entry) => isLocale(entry.language))?.language as Locale | undefined ?? null;
}

/**
 * The effective catalogue for a locale: the base locale under the built-in locale, flattened to
 * dotted keys (`locations.home`) for the client's `t()`. Admin edits layer on top later.
 */
export function catalogue(locale: Locale): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of [BUILT_IN[BASE_LOCALE], BUILT_IN[locale]]) flatten(source, '', out);
  return out;
}

function flatten(source: Record<string, unknown>, prefix: string, out: Record<string, string>): void {
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith('$')) continue;
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[id] = value;
    else if (value && typeof value === 'object') flatten(value as Record<string, unknown>, id, out);
  }
}
