import de from '../../../messages/de.json' with { type: 'json' };
import en from '../../../messages/en.json' with { type: 'json' };

/**
 * The catalogues that ship with the product (messages/*.json, also compiled by paraglide). They
 * stay the defaults: admin overrides and added languages are layered on top (catalogue.ts).
 */
export const BUILT_IN_LANGUAGES = { en: 'English', de: 'Deutsch' } as const;
export type BuiltInLocale = keyof typeof BUILT_IN_LANGUAGES;
/** The language every other one falls back to, and the source of each key's placeholders. */
export const BASE_LOCALE: BuiltInLocale = 'en';

const FLAT: Record<BuiltInLocale, Readonly<Record<string, string>>> = { en: flatten(en), de: flatten(de) };

export function isBuiltIn(code: string): code is BuiltInLocale {
  return Object.hasOwn(BUILT_IN_LANGUAGES, code);
}

/** A built-in catalogue as dotted keys (`locations.home`); the base locale's for any other code. */
export function builtInStrings(code: string): Readonly<Record<string, string>> {
  return isBuiltIn(code) ? FLAT[code] : FLAT[BASE_LOCALE];
}

/** Every key the product uses, sorted: the English catalogue's. */
export const CATALOGUE_KEYS: readonly string[] = Object.keys(FLAT[BASE_LOCALE]).sort();

export function isCatalogueKey(key: string): boolean {
  return Object.hasOwn(FLAT[BASE_LOCALE], key);
}

/** The built-in catalogue of a locale over English, as the product ships it (no admin edits). */
export function builtInCatalogue(code: string): Record<string, string> {
  return { ...FLAT[BASE_LOCALE], ...builtInStrings(code) };
}

function flatten(source: Record<string, unknown>, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith('$')) continue;
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[id] = value;
    else if (value && typeof value === 'object') flatten(value as Record<string, unknown>, id, out);
  }
  return out;
}
