import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import { BASE_LOCALE, builtInStrings, CATALOGUE_KEYS, isBuiltIn } from './builtin.ts';
import { mergedCatalogue } from './catalogue.ts';
import type { Language } from './languages.ts';

/** Where one language's strings stand: what it shows, what English shows, and what an admin changed. */
export interface TranslationState {
  language: Language;
  /** The strings this language shows (merged). */
  messages: Readonly<Record<string, string>>;
  /** The strings English shows (merged), which an added language starts from. */
  english: Readonly<Record<string, string>>;
  /** Keys an admin gave this language its own text for. */
  changed: ReadonlySet<string>;
  /** Keys an admin changed in English. */
  englishChanged: ReadonlySet<string>;
}

export async function translationState(db: Kysely<Database>, language: Language, languages: readonly Language[]): Promise<TranslationState> {
  const base = languages.find((l) => l.code === BASE_LOCALE)!;
  const [messages, english, rows] = await Promise.all([
    mergedCatalogue(db, language, languages),
    mergedCatalogue(db, base, languages),
    db.selectFrom('translation_overrides').select(['language_code', 'key']).where('language_code', 'in', [...new Set([BASE_LOCALE, language.code])]).execute(),
  ]);
  const keysOf = (code: string) => new Set(rows.filter((r) => r.language_code === code && Object.hasOwn(english.messages, r.key)).map((r) => r.key));
  return { language, messages: messages.messages, english: english.messages, changed: keysOf(language.code), englishChanged: keysOf(BASE_LOCALE) };
}

/** The text a key shows in this language without the admin's edit: its built-in one, or English for an added language. */
export function defaultText(state: TranslationState, key: string): string {
  return isBuiltIn(state.language.code) ? builtInStrings(state.language.code)[key]! : state.english[key]!;
}

/**
 * Whether a key still waits for a translation. An added language: its text is still the English
 * one (never edited, or edited back). A built-in language other than English: its English text
 * was changed by an admin and its own was not, so the shipped translation may no longer fit.
 * English is the source and never waits.
 */
export function isUntranslated(state: TranslationState, key: string): boolean {
  const { code } = state.language;
  if (code === BASE_LOCALE) return false;
  if (isBuiltIn(code)) return state.englishChanged.has(key) && !state.changed.has(key);
  return state.messages[key] === state.english[key];
}

export function untranslatedCount(state: TranslationState): number {
  return CATALOGUE_KEYS.reduce((n, key) => n + (isUntranslated(state, key) ? 1 : 0), 0);
}
