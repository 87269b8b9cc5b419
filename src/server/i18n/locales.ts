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

/** The visitor's chosen locale (cookie), else the instance default from settings. */
export async function resolveLocale(ctx: AppContext, _request: Request, cookies: AstroCookies): Promise<Locale> {
  const chosen = cookies.get('locale')?.value;
  if (isLocale(chosen)) return chosen;
  const { locale } = await getSettings(ctx);
  return isLocale(locale) ? locale : BASE_LOCALE;
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
