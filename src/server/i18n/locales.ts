import type { AstroCookies } from 'astro';
import type { AppContext } from '../context.ts';
import { getSettings, type Settings } from '../settings/service.ts';
import { BASE_LOCALE, BUILT_IN_LANGUAGES } from './builtin.ts';
import { findLanguage, listLanguages, type Language } from './languages.ts';

export const LOCALE_COOKIE = 'locale';

/** The language a request is served in, and every language it could have been. */
export interface ResolvedLocale {
  language: Language;
  languages: Language[];
}

/**
 * The visitor's chosen language (the `locale` cookie), else the first of their browser's
 * languages we have, else the instance default (the `locale` setting), else English. The list
 * is read from the database each time, so an added or deleted language counts at once. `settings`
 * lets a caller that reads the settings anyway share one read.
 */
export async function resolveLocale(ctx: AppContext, request: Request, cookies: AstroCookies, settings?: () => Promise<Settings>): Promise<ResolvedLocale> {
  const languages = await listLanguages(ctx.db);
  const chosen = findLanguage(languages, cookies.get(LOCALE_COOKIE)?.value);
  if (chosen) return { language: chosen, languages };
  const accepted = findLanguage(languages, fromAcceptLanguage(request.headers.get('accept-language'), languages.map((l) => l.code)));
  if (accepted) return { language: accepted, languages };
  return { language: await defaultLanguage(ctx, languages, settings), languages };
}

/** The instance default: the `locale` setting when that language exists, else English. */
export async function defaultLanguage(ctx: AppContext, languages: Language[], settings: () => Promise<Settings> = () => getSettings(ctx)): Promise<Language> {
  const { locale } = await settings();
  return findLanguage(languages, locale) ?? findLanguage(languages, BASE_LOCALE)!;
}

/**
 * The best of `available` for an `Accept-Language` header (`de-AT,de;q=0.9,en;q=0.8`): languages
 * by quality; for each, the exact tag, else its language alone (`de-AT` → `de`), else a regional
 * form of the same language (`pt` → `pt-BR`); `*` and q=0 ignored. Null when none fits.
 */
export function fromAcceptLanguage(header: string | null, available: readonly string[] = Object.keys(BUILT_IN_LANGUAGES)): string | null {
  if (!header) return null;
  const ranked = header
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0 && entry.tag !== '*' && entry.tag !== '')
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  const codes = available.map((code) => ({ code, lower: code.toLowerCase(), language: primary(code) }));
  for (const { tag } of ranked) {
    const match =
      codes.find((c) => c.lower === tag) ?? codes.find((c) => c.lower === primary(tag)) ?? codes.find((c) => c.language === primary(tag));
    if (match) return match.code;
  }
  return null;
}

const primary = (tag: string) => tag.toLowerCase().split('-')[0]!;
